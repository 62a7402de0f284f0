/** The two tones of each keypad key (ITU-T Q.23). */
const TONES: Record<string, [number, number]> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477],
  '4': [770, 1209], '5': [770, 1336], '6': [770, 1477],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477],
  '*': [941, 1209], '0': [941, 1336], '#': [941, 1477],
};

let context: AudioContext | null = null;

/** Plays a key's DTMF tone locally for about 120 ms, as a phone keypad does. */
export function playDtmfTone(key: string) {
  const pair = TONES[key];
  if (!pair || typeof AudioContext === 'undefined') return;
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
