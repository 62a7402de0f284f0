/** The three audio roles a person can give a device (docs/product.md "Devices"). */
export type DeviceRole = 'microphone' | 'speaker' | 'ringtone';

/** A device choice per role, by deviceId; a role left out uses the system's default. */
export type DeviceChoice = Partial<Record<DeviceRole, string>>;

/** What the page knows of one audio device (MediaDeviceInfo without the group). */
export interface AudioDevice {
  deviceId: string;
  kind: 'audioinput' | 'audiooutput';
  /** Empty until the microphone has been allowed once: browsers hide names before that. */
  label: string;
}

export const DEVICE_CHOICE_KEY = 'audioDevices';

const roleKind: Record<DeviceRole, AudioDevice['kind']> = { microphone: 'audioinput', speaker: 'audiooutput', ringtone: 'audiooutput' };

export function kindOf(role: DeviceRole): AudioDevice['kind'] {
  return roleKind[role];
}

function isChoice(value: unknown): value is DeviceChoice {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([role, id]) => role in roleKind && typeof id === 'string');
}

/** The choice this browser keeps; empty (every role on the default) when absent or not a choice. */
export function readDeviceChoice(storage: Pick<Storage, 'getItem'>): DeviceChoice {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(DEVICE_CHOICE_KEY) ?? 'null');
    return isChoice(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Keeps `choice` in this browser; answers false when storage refused (private mode, full). */
export function writeDeviceChoice(storage: Pick<Storage, 'setItem'>, choice: DeviceChoice): boolean {
  try {
    storage.setItem(DEVICE_CHOICE_KEY, JSON.stringify(choice));
    return true;
  } catch {
    return false;
  }
}

/** `choice` with `role` set to `deviceId`, or back on the default when `deviceId` is undefined. */
export function withDevice(choice: DeviceChoice, role: DeviceRole, deviceId: string | undefined): DeviceChoice {
  const next = { ...choice };
  if (deviceId === undefined || deviceId === 'default') delete next[role];
  else next[role] = deviceId;
  return next;
}

/**
 * The device `role` uses among those present: the chosen one, or undefined (the default) when
 * nothing is chosen or the chosen one is gone. `missing` says the choice could not be honoured.
 */
export function resolveDevice(choice: DeviceChoice, role: DeviceRole, devices: readonly AudioDevice[]): { deviceId: string | undefined; missing: boolean } {
  const chosen = choice[role];
  if (chosen === undefined) return { deviceId: undefined, missing: false };
  const present = devices.some((device) => device.kind === kindOf(role) && device.deviceId === chosen);
  return present ? { deviceId: chosen, missing: false } : { deviceId: undefined, missing: true };
}

/** What a devicechange means for the person: a chosen device gone, or a new one to offer. */
export type DeviceChange = { type: 'lost'; role: DeviceRole; device: AudioDevice } | { type: 'found'; device: AudioDevice };

/** The browser's own entries for "whatever the system uses" (and nameless ones before permission): never offered as devices. */
export function isSystemEntry(device: AudioDevice) {
  return device.deviceId === 'default' || device.deviceId === 'communications' || device.deviceId === '';
}

/**
 * Compares the devices before and after a devicechange: each chosen device that went away (once,
 * even if chosen for two roles, under the first role), and each real device that appeared.
 */
export function diffDevices(before: readonly AudioDevice[], after: readonly AudioDevice[], choice: DeviceChoice): DeviceChange[] {
  const key = (device: AudioDevice) => `${device.kind}:${device.deviceId}`;
  const afterKeys = new Set(after.map(key));
  const beforeKeys = new Set(before.map(key));
  const changes: DeviceChange[] = [];
  const lost = new Set<string>();
  for (const role of Object.keys(roleKind) as DeviceRole[]) {
    const device = before.find((candidate) => candidate.kind === kindOf(role) && candidate.deviceId === choice[role]);
    if (!device || afterKeys.has(key(device)) || lost.has(key(device))) continue;
    lost.add(key(device));
    changes.push({ type: 'lost', role, device });
  }
  for (const device of after) {
    if (!isSystemEntry(device) && !beforeKeys.has(key(device))) changes.push({ type: 'found', device });
  }
  return changes;
}

/** A device's name for the page; a numbered stand-in while names are hidden. */
export function deviceName(device: AudioDevice, index: number): string {
  if (device.label) return device.label;
  return `${device.kind === 'audioinput' ? 'Microphone' : 'Speaker'} ${index + 1}`;
}
