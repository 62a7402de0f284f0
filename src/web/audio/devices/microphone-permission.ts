/** Where the browser stands on a permission: 'unknown' where it cannot say (no Permissions API, or it does not know the name). */
export type PermissionStatusName = PermissionState | 'unknown';

/** Reads a permission without asking for it (navigator.permissions.query). */
export async function queryPermission(name: 'microphone' | 'notifications'): Promise<PermissionStatusName> {
  if (typeof navigator === 'undefined' || typeof navigator.permissions?.query !== 'function') return 'unknown';
  try {
    return (await navigator.permissions.query({ name: name as PermissionName })).state;
  } catch {
    return 'unknown';
  }
}

/**
 * Asks for the microphone (only ever from a button the person pressed) and closes it again: once
 * allowed, the browser shows the devices' names. Throws the browser's error when refused.
 */
export async function allowMicrophone(): Promise<void> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  for (const track of stream.getTracks()) track.stop();
}
