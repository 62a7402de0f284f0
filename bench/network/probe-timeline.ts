import type { Recording } from './audio-analysis';
import { PROBE_RATE, type ProbeRecording } from './audio-probes';

/**
 * One recording over [fromMs, toMs) from a page's recorders of one kind: each chunk placed at its
 * wall time, recorders that overlap (a microphone stream per call, a context per call) added
 * together, silence where none recorded.
 */
export function timeline(recordings: readonly ProbeRecording[], kind: ProbeRecording['kind'], fromMs: number, toMs: number): Recording {
  const samples = new Float32Array(Math.max(0, Math.round(((toMs - fromMs) * PROBE_RATE) / 1000)));
  for (const { offsetMs, chunks } of recordings.filter((recording) => recording.kind === kind)) {
    const first = Math.round(((offsetMs - fromMs) * PROBE_RATE) / 1000);
    for (const { index, pcm } of chunks) {
      for (let i = 0; i < pcm.length; i += 1) {
        const at = first + index + i;
        if (at >= 0 && at < samples.length) samples[at]! += pcm[i]! / 32768;
      }
    }
  }
  return { startMs: fromMs, sampleRate: PROBE_RATE, samples };
}
