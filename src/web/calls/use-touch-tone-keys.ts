import { useEffect } from 'react';
import { isDtmfKey } from '../../dsp/dtmf';
import { playDtmfTone } from '../audio/dtmf';

/** Where typing means text, not a key for the call. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * While a call is up, the keyboard's 0-9, * and # are touch-tones (docs/calls.md#touch-tones), as
 * the keypad's buttons are, except while the user types into a field.
 */
export function useTouchToneKeys(active: boolean, pressKey: (key: string) => boolean) {
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.ctrlKey || event.metaKey || event.altKey || !isDtmfKey(event.key) || isTextEntry(event.target)) return;
      if (!pressKey(event.key)) return;
      event.preventDefault();
      playDtmfTone(event.key);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active, pressKey]);
}
