import { decodeMono } from './decode-mono';

export const MAX_PREVIEW_SECONDS = 5;

export interface MicrophoneRecording {
  /** Stops early; `samples` then resolves with what was recorded so far. */
  stop(): void;
  /** Mono samples at PREVIEW_SAMPLE_RATE, at most `maxSeconds` long. */
  samples: Promise<Float32Array>;
}

/**
 * Records from an open microphone stream until stopped or for `maxSeconds` (the voice preview's
 * MAX_PREVIEW_SECONDS unless told; the voicemail greeting's is longer), then releases
 * the microphone. MediaRecorder rather than an AudioWorklet: an AudioContext at 16 kHz cannot take
 * a microphone of another rate in every browser, while decoding resamples everywhere.
 */
export function recordMicrophone(stream: MediaStream, maxSeconds = MAX_PREVIEW_SECONDS): MicrophoneRecording {
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise<void>((resolve, reject) => {
    recorder.onstop = () => resolve();
    recorder.onerror = () => reject(new Error('The recording failed.'));
  });
  const limit = setTimeout(() => stop(), maxSeconds * 1000);

  function stop() {
    clearTimeout(limit);
    if (recorder.state !== 'inactive') recorder.stop();
  }

  recorder.start();
  const samples = stopped
    .then(async () => decodeMono(await new Blob(chunks, { type: recorder.mimeType }).arrayBuffer(), maxSeconds))
    .finally(() => {
      clearTimeout(limit);
      for (const track of stream.getTracks()) track.stop();
    });
  return { stop, samples };
}
