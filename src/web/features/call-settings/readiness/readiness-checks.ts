import { HEARD_LEVEL } from '../../../audio/devices/microphone-level';
import type { PermissionStatusName } from '../../../audio/devices/microphone-permission';

export type CheckStatus = 'ok' | 'warning' | 'failed';

export type CheckId = 'microphone' | 'speaker' | 'notifications' | 'autoplay' | 'realtime' | 'numbers';

/** What a check's fix-it button does. */
export type FixAction = 'allow-microphone' | 'play-tone' | 'allow-notifications' | 'unlock-sound' | 'reconnect' | 'rent-number';

export interface ReadinessCheck {
  id: CheckId;
  label: string;
  status: CheckStatus;
  detail: string;
  fix?: { action: FixAction; label: string };
}

/** What the browser and the account say, read without asking for any permission (readiness-probes.ts). */
export interface ReadinessFacts {
  microphone: PermissionStatusName;
  /** The microphone's loudest meter level (0…100) over a short listen; null when not measured. */
  microphoneLevel: number | null;
  speakerConfirmed: boolean;
  /** The notifications preference is on. */
  notificationsWanted: boolean;
  notifications: NotificationPermission | 'unsupported';
  /** An AudioContext's state made now: 'suspended' means sound needs a click first. */
  audio: AudioContextState | 'unsupported';
  realtime: 'connected' | 'disconnected' | 'unknown';
  /** How many numbers the user rents; null when they could not be read. */
  numbers: number | null;
}

function microphoneCheck({ microphone, microphoneLevel }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'microphone', label: 'Microphone' } as const;
  if (microphone === 'denied') return { ...base, status: 'failed', detail: "The microphone is blocked for this site. Allow it in the browser's site settings, then check again." };
  if (microphone !== 'granted') return { ...base, status: 'warning', detail: 'The microphone is not allowed yet: the browser will ask when you answer.', fix: { action: 'allow-microphone', label: 'Allow microphone' } };
  if (microphoneLevel === null) return { ...base, status: 'ok', detail: 'The microphone is allowed.' };
  if (microphoneLevel < HEARD_LEVEL) return { ...base, status: 'warning', detail: 'The microphone is allowed but hears nothing. Check that it is connected and not muted.' };
  return { ...base, status: 'ok', detail: 'The microphone is allowed and hears you.' };
}

function speakerCheck({ speakerConfirmed }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'speaker', label: 'Speaker' } as const;
  if (speakerConfirmed) return { ...base, status: 'ok', detail: 'You heard the test tone.' };
  return { ...base, status: 'warning', detail: 'Not tested: play a tone and say whether you heard it.', fix: { action: 'play-tone', label: 'Play test tone' } };
}

function notificationsCheck({ notificationsWanted, notifications }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'notifications', label: 'Notifications' } as const;
  if (!notificationsWanted) return { ...base, status: 'ok', detail: 'Turned off in your preferences: calls ring only in this tab.' };
  if (notifications === 'unsupported') return { ...base, status: 'warning', detail: 'This browser cannot show notifications: keep this tab in view.' };
  if (notifications === 'granted') return { ...base, status: 'ok', detail: 'A call ringing in a hidden tab shows a notification.' };
  if (notifications === 'denied') return { ...base, status: 'failed', detail: "Notifications are blocked for this site. Allow them in the browser's site settings." };
  return { ...base, status: 'warning', detail: 'Not allowed yet: a call ringing in a hidden tab would go unnoticed.', fix: { action: 'allow-notifications', label: 'Allow notifications' } };
}

function autoplayCheck({ audio }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'autoplay', label: 'Ringtone sound' } as const;
  if (audio === 'running') return { ...base, status: 'ok', detail: 'The browser lets the ringtone play.' };
  if (audio === 'unsupported') return { ...base, status: 'warning', detail: 'This browser cannot play call audio here.' };
  return { ...base, status: 'warning', detail: 'The browser holds sound back until you click: the ringtone might not play.', fix: { action: 'unlock-sound', label: 'Allow sound' } };
}

function realtimeCheck({ realtime }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'realtime', label: 'Connection' } as const;
  if (realtime === 'connected') return { ...base, status: 'ok', detail: 'Connected to Voxline.' };
  if (realtime === 'unknown') return { ...base, status: 'warning', detail: 'The connection to Voxline could not be checked.' };
  return { ...base, status: 'failed', detail: 'Not connected to Voxline: calls cannot reach this tab.', fix: { action: 'reconnect', label: 'Reconnect' } };
}

function numbersCheck({ numbers }: ReadinessFacts): ReadinessCheck {
  const base = { id: 'numbers', label: 'Phone number' } as const;
  if (numbers === null) return { ...base, status: 'warning', detail: 'Your phone numbers could not be read.' };
  if (numbers === 0) return { ...base, status: 'failed', detail: 'You have no phone number for calls to reach.', fix: { action: 'rent-number', label: 'Rent a number' } };
  return { ...base, status: 'ok', detail: numbers === 1 ? 'Calls to your number ring here.' : `Calls to your ${numbers} numbers ring here.` };
}

/** Every check, in the order the panel shows them. */
export function readinessChecks(facts: ReadinessFacts): ReadinessCheck[] {
  return [microphoneCheck(facts), speakerCheck(facts), notificationsCheck(facts), autoplayCheck(facts), realtimeCheck(facts), numbersCheck(facts)];
}

/** The checks that are not OK, failures first. */
export function problemsOf(checks: readonly ReadinessCheck[]): ReadinessCheck[] {
  return [...checks.filter((check) => check.status === 'failed'), ...checks.filter((check) => check.status === 'warning')];
}

/** One line for the whole: what the panel's heading area says. */
export function readinessSummary(checks: readonly ReadinessCheck[]): string {
  const failed = checks.filter((check) => check.status === 'failed').length;
  const warnings = checks.filter((check) => check.status === 'warning').length;
  if (failed > 0) return `${failed} ${failed === 1 ? 'check' : 'checks'} failed${warnings > 0 ? `, ${warnings} with warnings` : ''}.`;
  if (warnings > 0) return `Ready, with ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}.`;
  return 'Ready to take calls.';
}
