import { DTMF_FREQUENCIES, isDtmfKey } from '../../dsp/dtmf';

let context: AudioContext | null = null;

/** Plays a key's DTMF tone locally for about 120 ms, as a phone keypad does. */
export function playDtmfTone(key: string) {
  if (!isDtmfKey(key) || typeof AudioContext === 'undefined') return;
  const pair = DTMF_FREQUENCIES[key];
  context ??= new AudioContext();
  const now = context.currentTime;
  const gain = context.createGain();
  gain.gain.setValueAtTime(0, now);
  gain.gain.linearRampToValueAtTime(0.12, now + 0.005);
  gain.gain.setValueAtTime(0.12, now + 0.11);
  gain.gain.linearRampToValueAtTime(0, now + 0.12);
  gain.connect(context.destination);
  for (const frequency of pair) {
    const oscillator = context.createOscillator();
    oscillator.frequency.value = frequency;
    oscillator.connect(gain);
    oscillator.start(now);
    oscillator.stop(now + 0.125);
  }
}
