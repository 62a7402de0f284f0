import { useEffect } from 'react';

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
    ringtone.play().catch((error: unknown) => console.warn('The ringtone could not play:', error));
    return () => ringtone.pause();
  }, [ringing]);
}
