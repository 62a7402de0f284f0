/** The preview works at a call's rate, so it sounds as the call will. */
export const PREVIEW_SAMPLE_RATE = 16_000;

/**
 * Decodes an audio file at PREVIEW_SAMPLE_RATE (the browser resamples while decoding) and mixes it
 * to mono, keeping at most `maxSeconds`.
 */
export async function decodeMono(file: ArrayBuffer, maxSeconds: number): Promise<Float32Array> {
  const context = new OfflineAudioContext(1, 1, PREVIEW_SAMPLE_RATE);
  const buffer = await context.decodeAudioData(file);
  const length = Math.min(buffer.length, Math.round(PREVIEW_SAMPLE_RATE * maxSeconds));
  const mono = new Float32Array(length);
  for (let channel = 0; channel < buffer.numberOfChannels; channel += 1) {
    const data = buffer.getChannelData(channel);
    for (let i = 0; i < length; i += 1) mono[i]! += data[i]! / buffer.numberOfChannels;
  }
  return mono;
}
