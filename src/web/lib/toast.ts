import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;

let loading: Promise<Sonner> | undefined;
let raised = false;
const listeners = new Set<() => void>();

/**
 * Whether the page has raised a notice yet. The Toaster mounts on the first (components/notices.tsx):
 * sonner adds its style sheet to the page as it loads, which restyles every element, a long task
 * on a slow phone that a page with nothing to announce need not pay for.
 */
export const notices = {
  raised: (): boolean => raised,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

/**
 * sonner (about 9 kB gzip) is fetched on the first notice, never with the first load (decision 021).
 * Its Toaster shows the notices already raised when it subscribes.
 */
function loadSonner(): Promise<Sonner> {
  if (!raised) {
    raised = true;
    for (const listener of listeners) listener();
  }
  loading ??= import('sonner').then(
    ({ toast }) => toast,
    (error: unknown) => {
      // Not remembered: the next notice tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function later<A extends unknown[]>(show: (sonner: Sonner, ...args: A) => unknown) {
  // Notices keep their order: each waits on the same load. One lost to a failed load is only a notice.
  return (...args: A): void => void loadSonner().then((sonner) => show(sonner, ...args), () => undefined);
}

/** The app's notices, as sonner's `toast` with the same arguments; they show once sonner has loaded. */
export const toast = Object.assign(
  later((sonner, ...args: Parameters<Sonner>) => sonner(...args)),
  {
    success: later((sonner, ...args: Parameters<Sonner['success']>) => sonner.success(...args)),
    info: later((sonner, ...args: Parameters<Sonner['info']>) => sonner.info(...args)),
    warning: later((sonner, ...args: Parameters<Sonner['warning']>) => sonner.warning(...args)),
    error: later((sonner, ...args: Parameters<Sonner['error']>) => sonner.error(...args)),
    dismiss: later((sonner, ...args: Parameters<Sonner['dismiss']>) => sonner.dismiss(...args)),
  },
);
