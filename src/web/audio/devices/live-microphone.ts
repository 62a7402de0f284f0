import { toast } from '../../lib/toast';
import { deviceChoice } from './device-choice-store';

/** A call's audio that can take a new microphone without stopping (replaceTrack, or a re-opened capture). */
export interface MicrophoneSwitcher {
  /** Sends `stream` from now on and stops the microphone it replaced. */
  replaceMicrophone(stream: MediaStream): Promise<void>;
}

interface LiveMicrophone {
  link: MicrophoneSwitcher;
  open: () => Promise<MediaStream>;
}

/** The call in progress in this tab (one at a time), whose microphone follows the choice. */
let live: LiveMicrophone | null = null;

/**
 * Opens the microphone again (the one chosen now, or the default when it is gone) and hands it to
 * the call in progress; nothing when no call is up. Throws the MicrophoneError of `open`.
 */
export async function reopenLiveMicrophone(): Promise<void> {
  const current = live;
  if (!current) return;
  const stream = await current.open();
  if (live !== current) {
    for (const track of stream.getTracks()) track.stop();
    return;
  }
  await current.link.replaceMicrophone(stream);
}

/**
 * `link` is the call in progress: when the microphone choice changes, `open` opens the new one and
 * the call sends it. Answers the stop, for when the call's audio closes.
 */
export function followMicrophoneChoice(link: MicrophoneSwitcher, open: () => Promise<MediaStream>): () => void {
  const entry: LiveMicrophone = { link, open };
  live = entry;
  let chosen = deviceChoice.getSnapshot().microphone;
  const unsubscribe = deviceChoice.subscribe(() => {
    const next = deviceChoice.getSnapshot().microphone;
    if (next === chosen) return;
    chosen = next;
    reopenLiveMicrophone().catch((error: unknown) => toast.error('The chosen microphone could not be opened', { description: (error as Error).message }));
  });
  return () => {
    unsubscribe();
    if (live === entry) live = null;
  };
}

/** A call is up whose microphone can be switched. */
export function hasLiveMicrophone(): boolean {
  return live !== null;
}
