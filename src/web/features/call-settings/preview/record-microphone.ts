/** The preview works at a call's rate, so it sounds as the call will. */
export const PREVIEW_SAMPLE_RATE = 16_000;
export const MAX_PREVIEW_SECONDS = 5;

export interface MicrophoneRecording {
  /** Stops early; `samples` then resolves with what was recorded so far. */
  stop(): void;
  /** Mono samples at PREVIEW_SAMPLE_RATE, at most MAX_PREVIEW_SECONDS long. */
  samples: Promise<Float32Array>;
}

/** Decodes a recorded clip at 16 kHz (the browser resamples while decoding) and mixes it to mono. */
async function decodeMono(clip: Blob): Promise<Float32Array> {
  const context = new OfflineAudioContext(1, 1, PREVIEW_SAMPLE_RATE);
  const buffer = await context.decodeAudioData(await clip.arrayBuffer());
  const length = Math.min(buffer.length, PREVIEW_SAMPLE_RATE * MAX_PREVIEW_SECONDS);
  const mono = new Float32Array(length);
  for (let channel = 0; channel < buffer.numberOfChannels; channel += 1) {
    const data = buffer.getChannelData(channel);
    for (let i = 0; i < length; i += 1) mono[i]! += data[i]! / buffer.numberOfChannels;
  }
  return mono;
}

/**
 * Records from an open microphone stream until stopped or for MAX_PREVIEW_SECONDS, then releases
 * the microphone. MediaRecorder rather than an AudioWorklet: an AudioContext at 16 kHz cannot take
 * a microphone of another rate in every browser, while decoding resamples everywhere.
 */
export function recordMicrophone(stream: MediaStream): MicrophoneRecording {
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise<void>((resolve, reject) => {
    recorder.onstop = () => resolve();
    recorder.onerror = () => reject(new Error('The recording failed.'));
  });
  const limit = setTimeout(() => stop(), MAX_PREVIEW_SECONDS * 1000);

  function stop() {
    clearTimeout(limit);
    if (recorder.state !== 'inactive') recorder.stop();
  }

  recorder.start();
  const samples = stopped
    .then(() => decodeMono(new Blob(chunks, { type: recorder.mimeType })))
    .finally(() => {
      clearTimeout(limit);
      for (const track of stream.getTracks()) track.stop();
    });
  return { stop, samples };
}
