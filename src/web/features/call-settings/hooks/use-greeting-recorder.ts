import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { VOICEMAIL_GREETING_MAX_SEC } from '../../../../common/api/voicemail';
import { openMicrophone } from '../../../audio/call-audio';
import { useUploadGreeting } from '../api/voicemail-greeting';
import { PREVIEW_SAMPLE_RATE } from '../preview/decode-mono';
import { encodeMonoWav } from '../preview/encode-wav';
import { recordMicrophone, type MicrophoneRecording } from '../preview/record-microphone';

export type GreetingPhase = 'idle' | 'starting' | 'recording' | 'saving';

/**
 * 'Record greeting': up to VOICEMAIL_GREETING_MAX_SEC from the microphone, counted down, then sent
 * as 16 kHz mono 16-bit WAV, the one format the server takes. What went wrong is kept to be shown
 * under the control.
 */
export function useGreetingRecorder() {
  const [phase, setPhase] = useState<GreetingPhase>('idle');
  const [secondsLeft, setSecondsLeft] = useState(VOICEMAIL_GREETING_MAX_SEC);
  const [problem, setProblem] = useState<string | null>(null);
  const recording = useRef<MicrophoneRecording | null>(null);
  const upload = useUploadGreeting();
  const { mutateAsync: save, reset: resetUpload } = upload;

  useEffect(() => {
    if (phase !== 'recording') return;
    const startedAt = Date.now();
    const timer = setInterval(() => setSecondsLeft(Math.max(0, VOICEMAIL_GREETING_MAX_SEC - Math.floor((Date.now() - startedAt) / 1000))), 250);
    return () => clearInterval(timer);
  }, [phase]);

  const record = useCallback(async () => {
    setProblem(null);
    resetUpload();
    setPhase('starting');
    let stream: MediaStream;
    try {
      stream = await openMicrophone();
    } catch (error) {
      setPhase('idle');
      setProblem(`Microphone unavailable: ${(error as Error).message}`);
      return;
    }
    const current = recordMicrophone(stream, VOICEMAIL_GREETING_MAX_SEC);
    recording.current = current;
    setSecondsLeft(VOICEMAIL_GREETING_MAX_SEC);
    setPhase('recording');
    let samples: Float32Array;
    try {
      samples = await current.samples;
    } catch {
      recording.current = null;
      setPhase('idle');
      setProblem('The recording could not be read. Please try again.');
      return;
    }
    // Left the page meanwhile: nothing is saved.
    if (recording.current !== current) return;
    recording.current = null;
    if (samples.length === 0) {
      setPhase('idle');
      setProblem('Nothing was recorded. Speak for a moment before stopping.');
      return;
    }
    setPhase('saving');
    try {
      await save(encodeMonoWav(samples, PREVIEW_SAMPLE_RATE));
      toast.success('Greeting saved');
    } catch {
      // The mutation keeps the server's reason; the component shows it.
    }
    setPhase('idle');
  }, [save, resetUpload]);

  // Leaving the page stops the microphone without saving.
  useEffect(
    () => () => {
      const unfinished = recording.current;
      recording.current = null;
      unfinished?.stop();
    },
    [],
  );

  return {
    phase,
    secondsLeft,
    /** Why the last recording was not saved: the microphone, the recording, or the server's answer. */
    problem: problem ?? upload.error?.message ?? null,
    record: () => void record(),
    stop: () => recording.current?.stop(),
  };
}
