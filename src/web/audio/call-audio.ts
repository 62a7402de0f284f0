import { frameSamples, type CallSampleRate } from '../../common/calls';
import type { JitterStats } from '../../dsp/jitter-buffer';
import { followCallSpeaker } from './devices/audio-output';
import { deviceChoice } from './devices/device-choice-store';
import captureWorkletUrl from './capture-worklet.ts?worker&url';
import playbackWorkletUrl from './playback-worklet.ts?worker&url';

class MicrophoneError extends Error {
  override readonly name = 'MicrophoneError';
}

/** Why the microphone could not be opened, in words a caller can act on. */
function describeMicrophoneFailure(error: unknown): string {
  const name = (error as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'Microphone access was refused. Allow the microphone for this site and try again.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found. Connect one and try again.';
  if (name === 'NotReadableError') return 'The microphone is in use by another application.';
  return 'The microphone could not be started.';
}

export interface CallAudioEvents {
  /** A 20 ms frame of microphone audio, Int16 PCM at the call's rate. */
  onFrame(frame: ArrayBuffer): void;
  /** The far end's level (RMS, 0…1), about once a second. */
  onLevel?(level: number): void;
  /** The playback jitter buffer's counts, at the same pace. */
  onJitter?(stats: JitterStats): void;
}

/**
 * Asks for the microphone chosen in Call Settings (docs/product.md "Devices") with the processing a
 * call wants; throws a MicrophoneError saying what to do. The choice is not `exact`: when that
 * device is gone the browser opens its default instead.
 */
export async function openMicrophone(): Promise<MediaStream> {
  const deviceId = deviceChoice.getSnapshot().microphone;
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1, ...(deviceId ? { deviceId } : {}) },
    });
  } catch (error) {
    throw new MicrophoneError(describeMicrophoneFailure(error));
  }
}

/**
 * The audio of one call in the browser: the microphone through the capture worklet, and received
 * frames through the playback worklet to the speakers.
 */
export class CallAudio {
  private muted = false;

  private constructor(
    private readonly context: AudioContext,
    private stream: MediaStream,
    private source: MediaStreamAudioSourceNode,
    private readonly capture: AudioWorkletNode,
    private readonly playback: AudioWorkletNode,
    private readonly stopFollowingSpeaker: () => void,
  ) {}

  /** Starts the call's audio on a microphone stream from openMicrophone(); stops the stream if it fails. */
  static async start(stream: MediaStream, wireRate: CallSampleRate, events: CallAudioEvents): Promise<CallAudio> {
    const context = new AudioContext({ latencyHint: 'interactive' });
    try {
      await Promise.all([context.audioWorklet.addModule(captureWorkletUrl), context.audioWorklet.addModule(playbackWorkletUrl)]);
      const processorOptions = { wireRate, frameSamples: frameSamples(wireRate) };
      const capture = new AudioWorkletNode(context, 'voxline-capture', { numberOfInputs: 1, numberOfOutputs: 0, processorOptions });
      const playback = new AudioWorkletNode(context, 'voxline-playback', { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [1], processorOptions });
      capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => events.onFrame(event.data);
      playback.port.onmessage = (event: MessageEvent<{ level: number; stats: JitterStats }>) => {
        events.onLevel?.(event.data.level);
        events.onJitter?.(event.data.stats);
      };
      const source = context.createMediaStreamSource(stream);
      source.connect(capture);
      playback.connect(context.destination);
      // Started from a click, but resume anyway: some browsers create the context suspended.
      await context.resume();
      return new CallAudio(context, stream, source, capture, playback, followCallSpeaker(context));
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      await context.close().catch(() => {});
      throw error;
    }
  }

  play(frame: ArrayBuffer) {
    this.playback.port.postMessage(frame, [frame]);
  }

  setMuted(muted: boolean) {
    this.muted = muted;
    this.capture.port.postMessage({ muted });
    for (const track of this.stream.getAudioTracks()) track.enabled = !muted;
  }

  /** Captures from `stream` from now on (another microphone chosen mid-call) and stops the one it replaces. */
  replaceStream(stream: MediaStream) {
    const source = this.context.createMediaStreamSource(stream);
    for (const track of stream.getAudioTracks()) track.enabled = !this.muted;
    this.source.disconnect();
    source.connect(this.capture);
    for (const track of this.stream.getTracks()) track.stop();
    this.source = source;
    this.stream = stream;
  }

  async stop() {
    this.stopFollowingSpeaker();
    for (const track of this.stream.getTracks()) track.stop();
    this.capture.port.onmessage = null;
    this.playback.port.onmessage = null;
    await this.context.close().catch(() => {});
  }
}
