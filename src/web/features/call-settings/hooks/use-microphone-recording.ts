import { useCallback, useEffect, useRef } from 'react';
import { openMicrophone } from '../../../audio/call-audio';
import { recordMicrophone, type MicrophoneRecording } from '../preview/record-microphone';

/** How one recording from the microphone ended. */
export type RecordingOutcome =
  | { kind: 'recorded'; samples: Float32Array }
  /** Stopped before any sound came in. */
  | { kind: 'empty' }
  | { kind: 'microphone-unavailable'; reason: string }
  | { kind: 'unreadable' }
  /** The page was left or a newer recording began meanwhile: nothing is to be done with it. */
  | { kind: 'replaced' };

/**
 * Recordings of up to `maxSeconds` from the chosen microphone, one at a time: `record` opens the
 * microphone, calls `onRecording` once it is open and answers how the recording ended; `stop` ends
 * it early; leaving the page stops it and drops what it held.
 */
export function useMicrophoneRecording(maxSeconds: number) {
  const recording = useRef<MicrophoneRecording | null>(null);

  const record = useCallback(
    async (onRecording: () => void): Promise<RecordingOutcome> => {
      let stream: MediaStream;
      try {
        stream = await openMicrophone();
      } catch (error) {
        return { kind: 'microphone-unavailable', reason: (error as Error).message };
      }
      const current = recordMicrophone(stream, maxSeconds);
      recording.current = current;
      onRecording();
      let samples: Float32Array;
      try {
        samples = await current.samples;
      } catch {
        recording.current = null;
        return { kind: 'unreadable' };
      }
      if (recording.current !== current) return { kind: 'replaced' };
      recording.current = null;
      return samples.length === 0 ? { kind: 'empty' } : { kind: 'recorded', samples };
    },
    [maxSeconds],
  );

  const stop = useCallback(() => recording.current?.stop(), []);

  useEffect(
    () => () => {
      const unfinished = recording.current;
      recording.current = null;
      unfinished?.stop();
    },
    [],
  );

  return { record, stop };
}
