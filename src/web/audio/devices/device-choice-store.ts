import { readDeviceChoice, withDevice, writeDeviceChoice, type DeviceChoice, type DeviceRole } from './device-choice';

/**
 * The device choice of this browser (localStorage `audioDevices`), read by whatever opens the
 * microphone or plays sound, and followed by a call in progress: React reads it through
 * useSyncExternalStore.
 */
export class DeviceChoiceStore {
  private choice: DeviceChoice;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: () => Storage | undefined) {
    const stored = storage();
    this.choice = stored ? readDeviceChoice(stored) : {};
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): DeviceChoice => this.choice;

  /** Chooses `deviceId` for `role` (undefined or 'default': the system's default) and keeps it. */
  choose(role: DeviceRole, deviceId: string | undefined) {
    const next = withDevice(this.choice, role, deviceId);
    if (next[role] === this.choice[role]) return;
    this.choice = next;
    const stored = this.storage();
    // Storage refused (private mode): the choice still holds until the page is left.
    if (stored) writeDeviceChoice(stored, next);
    for (const listener of this.listeners) listener();
  }
}

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export const deviceChoice = new DeviceChoiceStore(browserStorage);
