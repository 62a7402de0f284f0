import { frameSamples } from '../../common/calls';
import { DtmfTones } from '../../dsp/dtmf';
import type { CallerVoice } from './caller-voice';
import type { CallLeg } from './leg';
import { FrameConverter } from './frame-converter';

/**
 * Joins a call's two legs frame by frame, converting the rate where the legs differ. A muted
 * side's frames are replaced by silence here too, whatever its browser sends. Each side's
 * touch-tones go into what it sends last, after the voice changer (which would bend them) and the mute.
 */
export class MediaBridge {
  private callerMuted = false;
  private calleeMuted = false;
  /** Frames taken from the two legs and given to them, for the admin view's live figures. */
  readonly frames = { in: 0, out: 0 };
  /** The touch-tones each side sends to the other (docs/calls.md#touch-tones). */
  readonly tones: { caller: DtmfTones; callee: DtmfTones };

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
    const tones = { caller: new DtmfTones(caller.sampleRate), callee: new DtmfTones(callee.sampleRate) };
    this.tones = tones;
    this.pipe(caller, callee, (frame) => tones.caller.apply(this.callerMuted ? callerSilence : callerVoice ? callerVoice.apply(frame) : frame));
    this.pipe(callee, caller, (frame) => tones.callee.apply(this.calleeMuted ? calleeSilence : frame));
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
