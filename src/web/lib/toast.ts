import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;

let loading: Promise<Sonner> | undefined;

/**
 * sonner (about 9 kB gzip) is fetched on the first notice, or by the lazy Toaster once the page has
 * rendered, never with the first load (decision 021). Its Toaster shows the notices already
 * raised when it subscribes.
 */
function loadSonner(): Promise<Sonner> {
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
