import { useCallback, useEffect, useState } from 'react';
import type { AudioDevice } from './device-choice';

/** The browser has device enumeration (a secure page with mediaDevices). */
function canListDevices(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.enumerateDevices === 'function';
}

/** The microphones and speakers the browser reports; empty where it cannot list them. */
export async function listAudioDevices(): Promise<AudioDevice[]> {
  if (!canListDevices()) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.flatMap((device) => (device.kind === 'audioinput' || device.kind === 'audiooutput' ? [{ deviceId: device.deviceId, kind: device.kind, label: device.label }] : []));
}

/** Calls `listener` on every devicechange (a device plugged in or out); answers the unsubscribe. */
export function onDeviceChange(listener: () => void): () => void {
  if (!canListDevices()) return () => undefined;
  const { mediaDevices } = navigator;
  mediaDevices.addEventListener('devicechange', listener);
  return () => mediaDevices.removeEventListener('devicechange', listener);
}

/** The audio devices, listed again on every devicechange and on `refresh()` (after the microphone is allowed, names appear). */
export function useAudioDevices() {
  const [devices, setDevices] = useState<AudioDevice[] | null>(null);
  const refresh = useCallback(() => {
    listAudioDevices().then(setDevices, (error: unknown) => {
      console.warn('The audio devices could not be listed:', error);
      setDevices([]);
    });
  }, []);
  useEffect(() => {
    refresh();
    return onDeviceChange(refresh);
  }, [refresh]);
  return { devices, refresh };
}
