/** Root mean square of audio samples in -1…1. */
export function rmsOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/** Levels below this many dBFS show as nothing: room noise on a quiet microphone. */
const FLOOR_DB = -60;

/** A level for a meter, 0…100: the RMS in dBFS from FLOOR_DB (0) to full scale (100), as ears hear loudness. */
export function meterLevel(rms: number): number {
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.round(Math.min(100, Math.max(0, ((db - FLOOR_DB) / -FLOOR_DB) * 100)));
}

/** A meter level at or above this means the microphone hears something (speech is far above it). */
export const HEARD_LEVEL = 10;

/**
 * Follows a microphone stream's level through an AnalyserNode, every `everyMs`; answers the stop,
 * which closes the AudioContext (the stream stays open: it is its owner's).
 */
export function watchMicrophoneLevel(stream: MediaStream, onLevel: (level: number) => void, everyMs = 100): () => void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  // Opened from a click, but some browsers still create the context suspended.
  void context.resume().catch(() => undefined);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    onLevel(meterLevel(rmsOf(samples)));
  }, everyMs);
  return () => {
    clearInterval(timer);
    void context.close().catch(() => undefined);
  };
}
