import { useCallback, useEffect, useState } from 'react';
import { toast } from '../../../lib/toast';
import { VOICEMAIL_GREETING_MAX_SEC } from '../../../../common/api/voicemail';
import { useUploadGreeting } from '../api/voicemail-greeting';
import { PREVIEW_SAMPLE_RATE } from '../preview/decode-mono';
import { encodeMonoWav } from '../preview/encode-wav';
import { useMicrophoneRecording, type RecordingOutcome } from './use-microphone-recording';

export type GreetingPhase = 'idle' | 'starting' | 'recording' | 'saving';

/** Why a recording that ended without samples is not saved, as shown under the control. */
function problemOf(outcome: Exclude<RecordingOutcome, { kind: 'recorded' | 'replaced' }>) {
  switch (outcome.kind) {
    case 'microphone-unavailable':
      return `Microphone unavailable: ${outcome.reason}`;
    case 'unreadable':
      return 'The recording could not be read. Please try again.';
    case 'empty':
      return 'Nothing was recorded. Speak for a moment before stopping.';
  }
}

/**
 * 'Record greeting': up to VOICEMAIL_GREETING_MAX_SEC from the microphone, counted down, then sent
 * as 16 kHz mono 16-bit WAV, the one format the server takes. What went wrong is kept to be shown
 * under the control.
 */
export function useGreetingRecorder() {
  const [phase, setPhase] = useState<GreetingPhase>('idle');
  const [secondsLeft, setSecondsLeft] = useState(VOICEMAIL_GREETING_MAX_SEC);
  const [problem, setProblem] = useState<string | null>(null);
  const { record: recordFromMicrophone, stop: stopRecording } = useMicrophoneRecording(VOICEMAIL_GREETING_MAX_SEC);
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
    const outcome = await recordFromMicrophone(() => {
      setSecondsLeft(VOICEMAIL_GREETING_MAX_SEC);
      setPhase('recording');
    });
    // Left the page meanwhile: nothing is saved.
    if (outcome.kind === 'replaced') return;
    if (outcome.kind !== 'recorded') {
      setPhase('idle');
      setProblem(problemOf(outcome));
      return;
    }
    setPhase('saving');
    try {
      await save(encodeMonoWav(outcome.samples, PREVIEW_SAMPLE_RATE));
      toast.success('Greeting saved');
    } catch {
      // The mutation keeps the server's reason; the component shows it.
    }
    setPhase('idle');
  }, [save, resetUpload, recordFromMicrophone]);

  return {
    phase,
    secondsLeft,
    /** Why the last recording was not saved: the microphone, the recording, or the server's answer. */
    problem: problem ?? upload.error?.message ?? null,
    record: () => void record(),
    stop: stopRecording,
  };
}
