import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dominantFrequency } from '../../../tests/support/dsp/analysis';
import { VOICEMAIL_BEEP, VOICEMAIL_GOODBYE, VoicemailParty } from './voicemail-party';

const GREETING_MS = 1_000;
const greeting = new Int16Array(16 * GREETING_MS).fill(123);

function party(maxMessageMs = 2_000) {
  const recorded: number[] = [];
  const leg = new VoicemailParty({ greeting, maxMessageMs, record: (frame) => recorded.push(frame[0]!) });
  const heard: Int16Array[] = [];
  leg.onFrame((frame) => heard.push(frame.slice()));
  const closed: string[] = [];
  leg.onClose((reason) => closed.push(reason));
  return { leg, recorded, heard, closed };
}

const joined = (frames: Int16Array[]) => Int16Array.from(frames.flatMap((frame) => [...frame]));

describe('VoicemailParty', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('plays the greeting, then a 1 kHz beep, at real-time pace, and records nothing before the beep ends', () => {
    const { leg, heard, recorded } = party();
    leg.connected();
    leg.send(new Int16Array(320).fill(5));
    vi.advanceTimersByTime(GREETING_MS);
    expect(heard).toHaveLength(GREETING_MS / 20);
    expect(heard.every((frame) => frame.every((sample) => sample === 123))).toBe(true);
    vi.advanceTimersByTime(200 + VOICEMAIL_BEEP.ms + 40);
    const beep = joined(heard.slice(GREETING_MS / 20 + 10));
    expect(dominantFrequency(beep, 16_000)).toBeCloseTo(VOICEMAIL_BEEP.hz, -1);
    expect(recorded).toEqual([]);
    expect(leg.isRecording).toBe(true);
  });

  it('records what the caller says after the beep, until the caller hangs up', () => {
    const { leg, recorded, closed } = party();
    leg.connected();
    vi.advanceTimersByTime(GREETING_MS + 200 + VOICEMAIL_BEEP.ms + 40);
    for (let i = 1; i <= 5; i += 1) leg.send(new Int16Array(320).fill(i));
    leg.close('The caller hung up');
    leg.send(new Int16Array(320).fill(9));
    expect(recorded).toEqual([1, 2, 3, 4, 5]);
    expect(closed).toEqual(['The caller hung up']);
  });

  it('stops recording at the limit, plays a goodbye tone and closes', () => {
    const { leg, recorded, heard, closed } = party(1_000);
    leg.connected();
    vi.advanceTimersByTime(GREETING_MS + 200 + VOICEMAIL_BEEP.ms + 40);
    const before = heard.length;
    vi.advanceTimersByTime(1_000);
    leg.send(new Int16Array(320).fill(1));
    expect(recorded).toEqual([]);
    vi.advanceTimersByTime(VOICEMAIL_GOODBYE.ms + 40);
    expect(dominantFrequency(joined(heard.slice(before)), 16_000)).toBeCloseTo(VOICEMAIL_GOODBYE.hz, -1);
    expect(closed).toEqual(['The message is recorded']);
  });
});
