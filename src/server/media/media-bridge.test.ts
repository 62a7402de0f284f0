import { describe, expect, it } from 'vitest';
import type { CallSampleRate } from '../../common/calls';
import { detectDtmf } from '../../dsp/dtmf';
import { CallerVoice } from './caller-voice';
import { BaseLeg } from './leg';
import { MediaBridge } from './media-bridge';

/** A leg driven by the test: `speak` lends a frame as the real legs do, `heard` keeps copies. */
class TestLeg extends BaseLeg {
  readonly kind = 'echo' as const;
  readonly heard: Int16Array[] = [];
  private readonly lent: Int16Array;

  constructor(readonly sampleRate: CallSampleRate) {
    super();
    this.lent = new Int16Array(sampleRate / 50);
  }

  speak(value: number) {
    this.lent.fill(value);
    this.emitFrame(this.lent);
  }

  send(frame: Int16Array) {
    this.heard.push(frame.slice());
  }

  protected release() {}
}

describe('MediaBridge', () => {
  it('carries each side to the other, and silence from a muted side', () => {
    const caller = new TestLeg(16_000);
    const callee = new TestLeg(16_000);
    const bridge = new MediaBridge(caller, callee);
    caller.speak(100);
    callee.speak(200);
    bridge.setCallerMuted(true);
    caller.speak(300);
    callee.speak(400);
    bridge.setCallerMuted(false);
    bridge.setCalleeMuted(true);
    caller.speak(500);
    callee.speak(600);
    expect(callee.heard.map((frame) => frame[0])).toEqual([100, 0, 500]);
    expect(caller.heard.map((frame) => frame[0])).toEqual([200, 400, 0]);
    expect(callee.heard.every((frame) => frame.length === 320)).toBe(true);
  });

  it('counts the frames it takes from the legs and gives them, whatever the rates', () => {
    const caller = new TestLeg(8_000);
    const callee = new TestLeg(16_000);
    const bridge = new MediaBridge(caller, callee);
    for (let i = 0; i < 10; i += 1) caller.speak(100);
    for (let i = 0; i < 5; i += 1) callee.speak(200);
    expect(bridge.frames).toEqual({ in: 15, out: callee.heard.length + caller.heard.length });
    expect(bridge.frames.out).toBeGreaterThan(0);
  });

  it('converts between legs of different rates, in whole frames of the receiving rate', () => {
    const caller = new TestLeg(8_000);
    const callee = new TestLeg(16_000);
    new MediaBridge(caller, callee);
    for (let i = 0; i < 50; i += 1) caller.speak(8_000);
    for (let i = 0; i < 50; i += 1) callee.speak(-8_000);
    expect(callee.heard.length).toBeGreaterThanOrEqual(49);
    expect(callee.heard.every((frame) => frame.length === 320)).toBe(true);
    expect(caller.heard.every((frame) => frame.length === 160)).toBe(true);
    // Past the filter's start-up, a steady level crosses unchanged; each frame is its own copy.
    expect(Array.from(callee.heard.at(-1)!).every((sample) => Math.abs(sample - 8_000) <= 80)).toBe(true);
    expect(Array.from(caller.heard.at(-1)!).every((sample) => Math.abs(sample + 8_000) <= 80)).toBe(true);
  });

  it('changes the caller’s voice only, never the callee’s', () => {
    const caller = new TestLeg(16_000);
    const callee = new TestLeg(16_000);
    new MediaBridge(caller, callee, new CallerVoice(16_000, { voiceType: 'russian', pitch: 1.5, speed: 1 }, () => {}));
    for (let i = 0; i < 20; i += 1) {
      caller.speak(4_000 + i * 100);
      callee.speak(4_000 + i * 100);
    }
    expect(caller.heard.map((frame) => frame[0])).toEqual(Array.from({ length: 20 }, (_, i) => 4_000 + i * 100));
    const changed = callee.heard.slice(10).some((frame, i) => frame.some((sample) => sample !== 4_000 + (i + 10) * 100));
    expect(changed).toBe(true);
  });

  it('sends each side’s touch-tones to the other untouched by the voice changer, through a mute and a rate change', () => {
    const caller = new TestLeg(8_000);
    const callee = new TestLeg(16_000);
    const bridge = new MediaBridge(caller, callee, new CallerVoice(8_000, { voiceType: 'russian', pitch: 1.5, speed: 1 }, () => {}));
    bridge.setCallerMuted(true);
    bridge.tones.caller.add('159*');
    bridge.tones.callee.add('#0');
    for (let i = 0; i < 60; i += 1) {
      caller.speak(0);
      callee.speak(0);
    }
    const heard = (leg: TestLeg) => Float32Array.from(leg.heard.flatMap((frame) => Array.from(frame, (sample) => sample / 32768)));
    expect(detectDtmf(heard(callee), 16_000)).toBe('159*');
    expect(detectDtmf(heard(caller), 8_000)).toBe('#0');
  });
});

describe('MediaBridge listeners and overlays (call recording)', () => {
  it('lets a listener hear what each side gives the other, after mute, until it stops', () => {
    const caller = new TestLeg(16_000);
    const callee = new TestLeg(8_000);
    const bridge = new MediaBridge(caller, callee);
    const given: { side: string; first: number; length: number }[] = [];
    const stop = bridge.listen('caller', (frame) => given.push({ side: 'caller', first: frame[0]!, length: frame.length }));
    bridge.listen('callee', (frame) => given.push({ side: 'callee', first: frame[0]!, length: frame.length }));
    caller.speak(100);
    callee.speak(200);
    bridge.setCallerMuted(true);
    caller.speak(300);
    stop();
    caller.speak(400);
    // Each side's frames at its own rate, before any conversion.
    expect(given).toEqual([
      { side: 'caller', first: 100, length: 320 },
      { side: 'callee', first: 200, length: 160 },
      { side: 'caller', first: 0, length: 320 },
    ]);
  });

  it('mixes an overlay into what one side hears, and the listeners hear it too', () => {
    const caller = new TestLeg(16_000);
    const callee = new TestLeg(16_000);
    const bridge = new MediaBridge(caller, callee);
    const out = new Int16Array(320);
    bridge.setOverlay('callee', { apply: (frame) => out.map((_, i) => frame[i]! + 5) as Int16Array });
    const listened: number[] = [];
    bridge.listen('caller', (frame) => listened.push(frame[0]!));
    caller.speak(100);
    callee.speak(200);
    expect(callee.heard[0]![0]).toBe(105);
    expect(caller.heard[0]![0]).toBe(200);
    expect(listened).toEqual([105]);
  });
});
