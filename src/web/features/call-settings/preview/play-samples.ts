export interface Playback {
  stop(): void;
  /** Resolves when the sound has finished or was stopped. */
  ended: Promise<void>;
}

/** Plays mono samples through the speakers; each playback has its own context, closed when it ends. */
export function playSamples(samples: Float32Array, sampleRate: number): Playback {
  const context = new AudioContext();
  const buffer = context.createBuffer(1, Math.max(1, samples.length), sampleRate);
  buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
  const source = context.createBufferSource();
  source.buffer = buffer;
  source.connect(context.destination);
  const ended = new Promise<void>((resolve) => {
    source.onended = () => resolve();
  }).finally(() => void context.close().catch(() => undefined));
  source.start();
  // Started from a click, but some browsers create the context suspended anyway.
  void context.resume().catch(() => undefined);
  return { stop: () => source.stop(), ended };
}
