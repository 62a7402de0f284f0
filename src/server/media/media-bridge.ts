import { frameSamples } from '../../common/calls';
import { DtmfTones } from '../../dsp/dtmf';
import type { CallerVoice } from './caller-voice';
import type { CallLeg } from './leg';
import { FrameConverter } from './frame-converter';

export type BridgeSide = 'caller' | 'callee';
/** Changes the frames one side hears (a recording's announcement); answers its own buffer or the frame itself. */
export interface FrameOverlay {
  apply(frame: Int16Array): Int16Array;
}
/** Hears each frame a side gives the other, at that side's rate, lent until it returns. */
export type FrameListener = (frame: Int16Array) => void;

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
  /** What is mixed into what each side hears, after its touch-tones: a recording's announcement. */
  private readonly overlays: Record<BridgeSide, FrameOverlay | null> = { caller: null, callee: null };
  /** Who hears what each side gives the other (call recording, docs/calls.md#recording). */
  private readonly listeners: Record<BridgeSide, FrameListener[]> = { caller: [], callee: [] };

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
    this.pipe(caller, callee, (frame) => this.given('caller', tones.caller.apply(this.callerMuted ? callerSilence : callerVoice ? callerVoice.apply(frame) : frame)));
    this.pipe(callee, caller, (frame) => this.given('callee', tones.callee.apply(this.calleeMuted ? calleeSilence : frame)));
    caller.connected?.();
    callee.connected?.();
  }

  setCallerMuted(muted: boolean) {
    this.callerMuted = muted;
  }

  setCalleeMuted(muted: boolean) {
    this.calleeMuted = muted;
  }

  /** Mixes `overlay` into what `hearer` hears from now on, until set to null. */
  setOverlay(hearer: BridgeSide, overlay: FrameOverlay | null) {
    this.overlays[hearer] = overlay;
  }

  /** Hears every frame `side` gives the other side, as it hears it; answers how to stop. */
  listen(side: BridgeSide, listener: FrameListener): () => void {
    this.listeners[side].push(listener);
    return () => {
      this.listeners[side] = this.listeners[side].filter((each) => each !== listener);
    };
  }

  private given(side: BridgeSide, frame: Int16Array): Int16Array {
    const overlay = this.overlays[side === 'caller' ? 'callee' : 'caller'];
    const heard = overlay ? overlay.apply(frame) : frame;
    for (const listener of this.listeners[side]) listener(heard);
    return heard;
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
