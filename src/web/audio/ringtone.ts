import { useEffect } from 'react';
import { sendToChosenOutput } from './devices/audio-output';
import { deviceChoice } from './devices/device-choice-store';

/** The ringtone the app serves itself (scripts/generate-ringtone.mjs made it). */
const RINGTONE_URL = `${import.meta.env.BASE_URL}sounds/ringtone.wav`;

/**
 * Loops the ringtone while `ringing` is true. The browser may refuse to play before the page has
 * been interacted with; that is only logged (docs/product.md §8), the call still rings on screen.
 */
export function useRingtone(ringing: boolean) {
  useEffect(() => {
    if (!ringing) return;
    const ringtone = new Audio(RINGTONE_URL);
    ringtone.loop = true;
    let stopped = false;
    const play = () => (stopped ? undefined : ringtone.play());
    // On the speaker chosen for the ringtone (docs/product.md "Devices"), which may differ from the call's.
    const routed = deviceChoice.getSnapshot().ringtone === undefined ? Promise.resolve(play()) : sendToChosenOutput(ringtone, 'ringtone').then(play);
    routed.catch((error: unknown) => console.warn('The ringtone could not play:', error));
    return () => {
      stopped = true;
      ringtone.pause();
    };
  }, [ringing]);
}
