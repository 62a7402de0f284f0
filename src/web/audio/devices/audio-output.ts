import type { DeviceRole } from './device-choice';
import { deviceChoice } from './device-choice-store';

/** What can be sent to a chosen speaker: an audio element, or an AudioContext (Chromium 110+). */
interface SinkTarget {
  setSinkId(sinkId: string): Promise<void>;
}

/** The browser can send sound to a chosen speaker (setSinkId on media elements). */
export function canChooseOutput(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

export const NO_OUTPUT_CHOICE_NOTE = "This browser plays through the system's default speaker.";

function hasSink(target: object): target is SinkTarget {
  return typeof (target as Partial<SinkTarget>).setSinkId === 'function';
}

/**
 * Sends `target`'s sound to the device chosen for `role` ('' is the system's default). A device
 * that went away or a browser without setSinkId leaves it on the default: only logged, the sound
 * still plays.
 */
export async function sendToChosenOutput(target: object, role: Exclude<DeviceRole, 'microphone'>): Promise<void> {
  if (!hasSink(target)) return;
  try {
    await target.setSinkId(deviceChoice.getSnapshot()[role] ?? '');
  } catch (error) {
    console.warn(`The ${role} output could not be chosen; the default plays:`, error);
    if (deviceChoice.getSnapshot()[role] !== undefined) await target.setSinkId('').catch(() => undefined);
  }
}

/** Sends a call's AudioContext to the chosen call speaker now and whenever the choice changes; answers the stop. */
export function followCallSpeaker(context: AudioContext): () => void {
  let current = deviceChoice.getSnapshot().speaker;
  // On the default already: nothing to change.
  if (current !== undefined) void sendToChosenOutput(context, 'speaker');
  return deviceChoice.subscribe(() => {
    const next = deviceChoice.getSnapshot().speaker;
    if (next === current) return;
    current = next;
    void sendToChosenOutput(context, 'speaker');
  });
}
