// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: new (options: AudioWorkletNodeOptions) => AudioWorkletProcessorBase): void;
declare class AudioWorkletProcessorBase {
  readonly port: MessagePort;
  constructor(options?: AudioWorkletNodeOptions);
}
declare const AudioWorkletProcessor: typeof AudioWorkletProcessorBase;
