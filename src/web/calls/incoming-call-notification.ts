import { formatPhoneNumberNow } from '../lib/phone-library';

function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

/** Asks for permission to notify, the first time only; call it from a click, as browsers require. */
export function askNotificationPermission() {
  if (!notificationsSupported() || Notification.permission !== 'default') return;
  Notification.requestPermission().catch((error: unknown) => console.warn('Notification permission could not be asked:', error));
}

/**
 * Shows an incoming call as a system notification when the tab is hidden and notifications are
 * allowed; answers a function that closes it, or null when nothing was shown.
 */
export function notifyIncomingCall(callId: string, from: string): (() => void) | null {
  if (!notificationsSupported() || Notification.permission !== 'granted' || !document.hidden) return null;
  const notification = new Notification('Incoming call', { body: `From ${formatPhoneNumberNow(from)}`, tag: `voxline-call-${callId}`, requireInteraction: true });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  return () => notification.close();
}
