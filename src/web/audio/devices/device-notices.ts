import type { AudioDevice, DeviceChange, DeviceRole } from './device-choice';

/** What the page says about a device change, and the role a found device can be given. */
export interface DeviceNotice {
  kind: 'warning' | 'offer';
  title: string;
  /** For an offer: the role the device would take, and the button saying so. */
  offer?: { role: DeviceRole; deviceId: string; label: string };
}

function named(device: AudioDevice, fallback: string) {
  return device.label || fallback;
}

const lostFallback: Record<DeviceRole, string> = { microphone: 'microphone', speaker: 'speaker', ringtone: 'ringtone speaker' };
const defaultOf: Record<DeviceRole, string> = { microphone: 'the default microphone', speaker: 'the default speaker', ringtone: 'the default speaker for the ringtone' };

/** The notice for one device change during a call. */
export function noticeFor(change: DeviceChange): DeviceNotice {
  if (change.type === 'lost') {
    return { kind: 'warning', title: `Your ${named(change.device, lostFallback[change.role])} was disconnected; using ${defaultOf[change.role]}` };
  }
  const { device } = change;
  if (device.kind === 'audioinput') {
    return { kind: 'offer', title: `New microphone found: ${named(device, 'a microphone')}. Use it?`, offer: { role: 'microphone', deviceId: device.deviceId, label: 'Use it' } };
  }
  return { kind: 'offer', title: `New speaker found: ${named(device, 'a speaker')}. Use it for calls?`, offer: { role: 'speaker', deviceId: device.deviceId, label: 'Use it' } };
}

/** The notice when a call starts and a chosen device is not connected ("a device id that no longer exists"). */
export function missingNotice(role: DeviceRole): string {
  return `The ${lostFallback[role]} you chose is not connected; using ${defaultOf[role]}`;
}
