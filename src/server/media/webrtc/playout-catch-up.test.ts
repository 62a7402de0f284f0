import { describe, expect, it } from 'vitest';
import { PlayoutCatchUp } from './playout-catch-up';

const quiet = new Int16Array(320).fill(20);
const speech = Int16Array.from({ length: 320 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 200 * i) / 16000)));

/** Feeds `frames` 20 ms apart from `startMs`; answers the time of the frame the stream restarts before, or null. */
function feed(catchUp: PlayoutCatchUp, frames: Int16Array[], startMs: number): number | null {
  for (const [index, frame] of frames.entries()) if (catchUp.restartBefore(frame, startMs + index * 20)) return startMs + index * 20;
  return null;
}

describe('PlayoutCatchUp', () => {
  it('never restarts unasked, however long the quiet', () => {
    expect(feed(new PlayoutCatchUp(), Array(200).fill(quiet), 0)).toBeNull();
  });

  it('restarts once the audio has been quiet as long as the browser holds, so only quiet overlaps', () => {
    const catchUp = new PlayoutCatchUp();
    catchUp.request(300, 0);
    // A pause of 200 ms (too short this early), speech, then a long pause from frame 13 (260 ms).
    const frames = [...Array(10).fill(quiet), ...Array(3).fill(speech), ...Array(30).fill(quiet)];
    // 300 ms of that pause is 15 frames: the restart comes before frame 27.
    expect(feed(catchUp, frames, 0)).toBe(27 * 20);
    expect(feed(catchUp, Array(100).fill(quiet), 2000)).toBeNull();
  });

  it('takes a shorter pause after half a second, the longer the later, rather than keep the delay', () => {
    const catchUp = new PlayoutCatchUp();
    catchUp.request(400, 0);
    // Syllables of 200 ms between pauses of 100 ms: pauses end at 280, 580, 880 ms.
    const pattern = [...Array(10).fill(speech), ...Array(5).fill(quiet)];
    const frames = Array.from({ length: 8 }, () => pattern).flat();
    // At 880 ms, 100 ms of quiet is what is asked for (400 ms × 120 / 500).
    expect(feed(catchUp, frames, 0)).toBe(880);
  });

  it('takes any quiet frame once 1 s has passed', () => {
    const catchUp = new PlayoutCatchUp();
    catchUp.request(400, 0);
    // Syllables of 200 ms between pauses of 40 ms.
    const pattern = [...Array(10).fill(speech), ...Array(2).fill(quiet)];
    const frames = Array.from({ length: 8 }, () => pattern).flat();
    const at = feed(catchUp, frames, 0)!;
    expect(at).toBeGreaterThanOrEqual(950);
    expect(at).toBeLessThan(1000 + 240);
    expect(frames[at / 20]).toBe(quiet);
  });

  it('drops a request it could not meet within 10 s, and takes a new one', () => {
    const catchUp = new PlayoutCatchUp();
    catchUp.request(300, 0);
    expect(feed(catchUp, Array(520).fill(speech), 0)).toBeNull();
    expect(feed(catchUp, Array(50).fill(quiet), 10_400)).toBeNull();
    // The second before this request was quiet already: nothing to wait for.
    catchUp.request(300, 11_400);
    expect(feed(catchUp, [quiet], 11_400)).toBe(11_400);
  });
});
