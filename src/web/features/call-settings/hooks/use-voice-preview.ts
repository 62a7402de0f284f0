import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import type { VoiceSettings } from '../../../../common/voice';
import { playSamples, type Playback } from '../preview/play-samples';
import { PREVIEW_SAMPLE_RATE } from '../preview/decode-mono';
import { MAX_PREVIEW_SECONDS } from '../preview/record-microphone';
import { renderPreview } from '../preview/render-preview';
import { loadSampleSentence } from '../preview/sample-sentence';
import { useMicrophoneRecording } from './use-microphone-recording';

export type PreviewPhase = 'idle' | 'starting' | 'recording' | 'loading-sample' | 'playing';
/** What is playing: the user's recording or the sample sentence. */
export type PreviewSource = 'recording' | 'sample';

/**
 * 'Preview my voice': a short recording from the microphone, played back through the voice engine
 * with the shown settings; or, for users who cannot record, the sample sentence played the same way.
 */
export function useVoicePreview(settings: VoiceSettings) {
  const [phase, setPhase] = useState<PreviewPhase>('idle');
  const [source, setSource] = useState<PreviewSource>('recording');
  const [recorded, setRecorded] = useState<Float32Array | null>(null);
  const { record: recordFromMicrophone, stop: stopRecording } = useMicrophoneRecording(MAX_PREVIEW_SECONDS);
  const playback = useRef<Playback | null>(null);
  const sample = useRef<Float32Array | null>(null);
  // Bumped by each load of the sample, each recording and leaving the page: a download that ends after one of them plays nothing.
  const sampleRequest = useRef(0);
  // The recording ends after the click that started it; it is played with the settings shown by then.
  const latestSettings = useRef(settings);
  useEffect(() => {
    latestSettings.current = settings;
  }, [settings]);

  // Forgotten before it is stopped, so its end does not reset what comes next.
  const stopPlayback = useCallback(() => {
    const playing = playback.current;
    playback.current = null;
    playing?.stop();
  }, []);

  const play = useCallback((samples: Float32Array, what: PreviewSource) => {
    stopPlayback();
    let current: Playback;
    try {
      current = playSamples(renderPreview(samples, PREVIEW_SAMPLE_RATE, latestSettings.current), PREVIEW_SAMPLE_RATE);
    } catch {
      // Nothing rather than the unprocessed voice: the preview sounds as a call would, or not at all.
      setPhase('idle');
      const description = what === 'sample' ? 'The sample sentence could not be played with your voice settings.' : 'Your recording could not be played back with your voice settings.';
      toast.error('Preview failed', { description });
      return;
    }
    playback.current = current;
    setSource(what);
    setPhase('playing');
    void current.ended.then(() => {
      if (playback.current !== current) return;
      playback.current = null;
      setPhase('idle');
    });
  }, [stopPlayback]);

  const record = useCallback(async () => {
    stopPlayback();
    sampleRequest.current += 1;
    setPhase('starting');
    const outcome = await recordFromMicrophone(() => setPhase('recording'));
    switch (outcome.kind) {
      case 'replaced':
        return;
      case 'recorded':
        setRecorded(outcome.samples);
        play(outcome.samples, 'recording');
        return;
      case 'microphone-unavailable':
        setPhase('idle');
        toast.error('Microphone unavailable', { description: outcome.reason });
        return;
      case 'empty':
        setPhase('idle');
        toast.error('Nothing was recorded', { description: 'Speak for a moment before stopping the recording.' });
        return;
      case 'unreadable':
        setPhase('idle');
        toast.error('Preview failed', { description: 'The recording could not be read. Please try again.' });
    }
  }, [play, stopPlayback, recordFromMicrophone]);

  const playSampleSentence = useCallback(async () => {
    stopPlayback();
    const request = ++sampleRequest.current;
    if (!sample.current) {
      setPhase('loading-sample');
      try {
        sample.current = await loadSampleSentence();
      } catch (error) {
        if (request !== sampleRequest.current) return;
        setPhase('idle');
        toast.error('Sample sentence unavailable', { description: (error as Error).message });
        return;
      }
      if (request !== sampleRequest.current) return;
    }
    play(sample.current, 'sample');
  }, [play, stopPlayback]);

  // Leaving the page stops the sound (useMicrophoneRecording stops the microphone).
  useEffect(
    () => () => {
      sampleRequest.current += 1;
      stopPlayback();
    },
    [stopPlayback],
  );

  return {
    phase,
    source,
    record: () => void record(),
    stopRecording,
    playSampleSentence: () => void playSampleSentence(),
    replay: recorded ? () => play(recorded, 'recording') : null,
    stopPlaying: () => {
      stopPlayback();
      setPhase('idle');
    },
  };
}
