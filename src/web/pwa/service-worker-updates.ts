import { toast } from '../lib/toast';
import { Workbox } from 'workbox-window';
import { browserLocation } from '../lib/browser-location';

/** The parts of workbox-window's Workbox used here; tests pass a fake. */
export interface ServiceWorkerControl {
  register(): Promise<Pick<ServiceWorkerRegistration, 'waiting'> | undefined>;
  update(): Promise<unknown>;
  messageSkipWaiting(): void;
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
}

interface UpdateOptions {
  control?: ServiceWorkerControl;
  reload?: () => void;
  /** Shows the offer of the new version; `accept` takes it. */
  offerUpdate?: (accept: () => void) => void;
  every?: (check: () => void, intervalMs: number) => void;
}

const UPDATE_TOAST_ID = 'new-version-available';
// The browser looks for a new worker on navigations, which a single-page app rarely makes, and the
// Call Receiver asks people to keep its tab open: check each hour as well.
const UPDATE_CHECK_INTERVAL_MS = 60 * 60_000;

function offerUpdateInToast(accept: () => void) {
  // It stays until taken or closed: reloading is the person's choice, never in the middle of a call.
  toast('New version available', { id: UPDATE_TOAST_ID, duration: Number.POSITIVE_INFINITY, action: { label: 'Reload', onClick: accept } });
}

/**
 * Registers the service worker (sw.js, built by pwa-plugin.ts) and, whenever a new version has
 * installed and waits, offers it: "New version available — Reload". Reload tells the waiting worker
 * to take over and reloads the page once it controls it, so the page and its cached chunks are
 * of the same version.
 */
export async function registerServiceWorker({
  control = new Workbox('/sw.js'),
  reload = () => browserLocation.reload(),
  offerUpdate = offerUpdateInToast,
  every = (check, intervalMs) => window.setInterval(check, intervalMs),
}: UpdateOptions = {}) {
  let reloadWhenControlled = false;
  // Workbox registers asynchronously, after the page's load event: the listeners below are in time.
  const registered = control.register();

  const takeNewVersion = async () => {
    // Another tab may have taken it already: then it controls this page too, and a reload is enough.
    if (!(await registered)?.waiting) return reload();
    reloadWhenControlled = true;
    control.messageSkipWaiting();
  };
  control.addEventListener('waiting', () => offerUpdate(() => void takeNewVersion()));
  control.addEventListener('controlling', () => {
    if (!reloadWhenControlled) return;
    reloadWhenControlled = false;
    reload();
  });

  await registered;
  every(() => void control.update().catch(() => undefined), UPDATE_CHECK_INTERVAL_MS);
}
