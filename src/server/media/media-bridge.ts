import { frameSamples } from '../../common/calls';
import type { CallerVoice } from './caller-voice';
import type { CallLeg } from './leg';
import { FrameConverter } from './frame-converter';

/**
 * Joins a call's two legs frame by frame, converting the rate where the legs differ. A muted
 * side's frames are replaced by silence here too, whatever its browser sends.
 */
export class MediaBridge {
  private callerMuted = false;
  private calleeMuted = false;
  /** Frames taken from the two legs and given to them, for the admin view's live figures. */
  readonly frames = { in: 0, out: 0 };

  /**
   * `callerVoice` changes the caller's outgoing audio, at the caller's rate, before any rate
   * conversion: the callee's audio is never changed.
   */
  constructor(
    readonly caller: CallLeg,
    readonly callee: CallLeg,
    callerVoice: CallerVoice | null = null,
  ) {
    const callerSilence = new Int16Array(frameSamples(caller.sampleRate));
    const calleeSilence = new Int16Array(frameSamples(callee.sampleRate));
    this.pipe(caller, callee, (frame) => (this.callerMuted ? callerSilence : callerVoice ? callerVoice.apply(frame) : frame));
    this.pipe(callee, caller, (frame) => (this.calleeMuted ? calleeSilence : frame));
    caller.connected?.();
    callee.connected?.();
  }

  setCallerMuted(muted: boolean) {
    this.callerMuted = muted;
  }

  setCalleeMuted(muted: boolean) {
    this.calleeMuted = muted;
  }

  private pipe(from: CallLeg, to: CallLeg, prepare: (frame: Int16Array) => Int16Array) {
    const give = (frame: Int16Array) => {
      this.frames.out += 1;
      to.send(frame);
    };
    if (from.sampleRate === to.sampleRate) {
      from.onFrame((frame) => {
        this.frames.in += 1;
        give(prepare(frame));
      });
      return;
    }
    const converter = new FrameConverter(from.sampleRate, to.sampleRate);
    from.onFrame((frame) => {
      this.frames.in += 1;
      converter.convert(prepare(frame), give);
    });
  }
}
