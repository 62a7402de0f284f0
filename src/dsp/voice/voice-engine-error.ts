/** Why the voice engine refused a call; the media bridge then sends silence, never the raw voice. */
export class VoiceEngineError extends Error {
  readonly code: 'sample-rate' | 'frame-size' | 'settings';

  private constructor(code: VoiceEngineError['code'], message: string) {
    super(message);
    this.name = 'VoiceEngineError';
    this.code = code;
  }

  static sampleRate(rate: number) {
    return new VoiceEngineError('sample-rate', `The voice engine runs at 16000 or 8000 Hz, not ${rate}`);
  }

  static frameSize(expected: number, input: number, output: number) {
    return new VoiceEngineError('frame-size', `A frame must be ${expected} samples in and out (got ${input} in, ${output} out)`);
  }

  static settings(detail: string) {
    return new VoiceEngineError('settings', `Invalid voice settings: ${detail}`);
  }
}
