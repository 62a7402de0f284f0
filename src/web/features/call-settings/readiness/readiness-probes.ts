import { openMicrophone } from '../../../audio/call-audio';
import { sendToChosenOutput } from '../../../audio/devices/audio-output';
import { watchMicrophoneLevel } from '../../../audio/devices/microphone-level';
import { queryPermission } from '../../../audio/devices/microphone-permission';
import type { Signalling } from '../../../lib/realtime';
import type { ReadinessFacts } from './readiness-checks';

/** The realtime client's connection, where the signalling in use can tell it (the app's RealtimeClient can). */
interface ReconnectingSignalling {
  readonly connected: boolean;
  reconnectNow(): void;
}

export function reconnecting(signalling: Signalling | null): ReconnectingSignalling | null {
  if (!signalling || !('reconnectNow' in signalling) || !('connected' in signalling)) return null;
  return signalling as unknown as ReconnectingSignalling;
}

function realtimeState(signalling: Signalling | null): ReadinessFacts['realtime'] {
  const client = reconnecting(signalling);
  if (!client) return signalling ? 'unknown' : 'disconnected';
  return client.connected ? 'connected' : 'disconnected';
}

/** Whether sound can start now: a fresh AudioContext starts 'running' only where autoplay is allowed. */
async function audioState(): Promise<ReadinessFacts['audio']> {
  if (typeof AudioContext === 'undefined') return 'unsupported';
  const context = new AudioContext();
  const { state } = context;
  await context.close().catch(() => undefined);
  return state;
}

/**
 * Opens the (already allowed) microphone and follows its level for `ms`: answers the stream, still
 * open for a live meter (its owner stops it), and the loudest level heard meanwhile.
 */
export async function listenToMicrophone(ms: number): Promise<{ stream: MediaStream; loudest: number }> {
  const stream = await openMicrophone();
  let loudest = 0;
  const stop = watchMicrophoneLevel(stream, (level) => (loudest = Math.max(loudest, level)), 50);
  await new Promise((resolve) => setTimeout(resolve, ms));
  stop();
  return { stream, loudest };
}

export interface ProbeInput {
  signalling: Signalling | null;
  notificationsWanted: boolean;
  numbers: number | null;
  speakerConfirmed: boolean;
  /** Measures the microphone's level; called only when the microphone is allowed already. Absent: no level. */
  listen?: () => Promise<number>;
}

/** Reads everything the checks need. Asks for no permission: the microphone is opened only when already allowed. */
export async function probeReadiness({ signalling, notificationsWanted, numbers, speakerConfirmed, listen }: ProbeInput): Promise<ReadinessFacts> {
  const [microphone, audio] = await Promise.all([queryPermission('microphone'), audioState()]);
  const microphoneLevel = microphone === 'granted' && listen ? await listen().catch(() => 0) : null;
  return {
    microphone,
    microphoneLevel,
    speakerConfirmed,
    notificationsWanted,
    notifications: typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
    audio,
    realtime: realtimeState(signalling),
    numbers,
  };
}

/** Plays a short 440 Hz tone on the speaker chosen for calls, for the person to say whether they heard it. */
export async function playTestTone(seconds = 0.8): Promise<void> {
  const context = new AudioContext();
  try {
    await sendToChosenOutput(context, 'speaker');
    await context.resume();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = 440;
    // Faded in and out, so the tone does not click.
    gain.gain.setValueAtTime(0, context.currentTime);
    gain.gain.linearRampToValueAtTime(0.3, context.currentTime + 0.05);
    gain.gain.linearRampToValueAtTime(0, context.currentTime + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + seconds);
    await new Promise((resolve) => (oscillator.onended = resolve));
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Lets sound play from now on: resuming an AudioContext inside a click is the user's gesture the browser waits for. */
export async function unlockSound(): Promise<void> {
  if (typeof AudioContext === 'undefined') return;
  const context = new AudioContext();
  await context.resume();
  await context.close();
}
