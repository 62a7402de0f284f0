import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDEBAND_RATE, type CallOutcome } from '../../common/calls';
import { openTestDatabase } from '../../../tests/support/test-database';
import { LocalBus } from '../bus/local-bus';
import type { DatabaseHandle } from '../db/client';
import { BaseLeg } from '../media/leg';
import { MemoryPresence } from '../realtime/presence';
import { RealtimeHub } from '../realtime/realtime-hub';
import type { CallLog } from './call-log';
import { AUDIO_TAKEN, LiveCalls, NO_CALL } from './live-calls';

/** A leg that keeps the frames it is sent, and hands the bridge frames when told. */
class TestLeg extends BaseLeg {
  readonly kind = 'echo';
  readonly sampleRate = WIDEBAND_RATE;
  readonly received: Int16Array[] = [];
  send(frame: Int16Array) {
    this.received.push(frame.slice());
  }
  speak(frame: Int16Array) {
    this.emitFrame(frame);
  }
  protected release() {}
}

const log: CallLog = { info: () => {}, warn: () => {}, child: () => log };
let database: DatabaseHandle;
let hub: RealtimeHub;

beforeAll(async () => {
  database = await openTestDatabase();
  hub = new RealtimeHub({ log, bus: new LocalBus(), presence: new MemoryPresence() });
});
afterAll(async () => {
  hub.close();
  await database.close();
});

const newLiveCalls = () => new LiveCalls({ db: database.db, hub, log });

describe('LiveCalls', () => {
  it('joins the two legs only once both are there', async () => {
    const live = newLiveCalls();
    const call = live.create(randomUUID(), 'ada', WIDEBAND_RATE);
    live.add(call);
    const caller = new TestLeg();
    const callee = new TestLeg();

    await live.answer(call, callee);
    expect(call.answeredAt).not.toBeNull();
    expect(call.bridge).toBeNull();

    expect(live.attachLeg('ada', call.id, () => caller)).toBe('attached');
    expect(call.bridge).not.toBeNull();
    callee.speak(new Int16Array(320).fill(7));
    expect(caller.received).toHaveLength(1);
    expect(caller.received[0]![0]).toBe(7);
  });

  it('refuses a leg for a call that is not the user’s, or that has its audio, and says when the call is not here', () => {
    const live = newLiveCalls();
    const call = live.create(randomUUID(), 'ada', WIDEBAND_RATE);
    live.add(call);
    expect(live.attachLeg('bob', call.id, () => new TestLeg())).toBe(NO_CALL);
    expect(live.attachLeg('ada', call.id, () => new TestLeg())).toBe('attached');
    expect(live.attachLeg('ada', call.id, () => new TestLeg())).toBe(AUDIO_TAKEN);
    expect(live.attachLeg('ada', randomUUID(), () => new TestLeg())).toBe('not-here');
  });

  it('ends a call once, however many ask, running each hook once: ending before the legs close, ended after', async () => {
    const live = newLiveCalls();
    const call = live.create(randomUUID(), null, WIDEBAND_RATE);
    live.add(call);
    const caller = new TestLeg();
    const callee = new TestLeg();
    call.caller = caller;
    await live.answer(call, callee);

    const seen: string[] = [];
    live.onEnding((ending, outcome) => seen.push(`ending ${outcome} legs ${ending.caller && (ending.caller as TestLeg).isClosed ? 'closed' : 'open'}`));
    live.onEnded(async (_ended, outcome: CallOutcome, calleeReason) => {
      seen.push(`ended ${outcome} ${calleeReason}`);
    });

    await Promise.all([live.end(call, 'completed', 'Hung up', 'They hung up'), live.end(call, 'failed', 'Again')]);
    callee.close('gone');
    await live.end(call, 'failed', 'Once more');

    expect(seen).toEqual(['ending completed legs open', 'ended completed They hung up']);
    expect(caller.isClosed && callee.isClosed).toBe(true);
    expect(live.get(call.id)).toBeUndefined();
  });

  it('ends the call when a hook fails: the legs close, the other hooks run, the failure is logged', async () => {
    const warnings: string[] = [];
    const capturing: CallLog = { info: () => {}, warn: (_obj, message) => warnings.push(message), child: () => capturing };
    const live = new LiveCalls({ db: database.db, hub, log: capturing });
    const call = live.create(randomUUID(), null, WIDEBAND_RATE);
    live.add(call);
    const caller = new TestLeg();
    call.caller = caller;
    const ran: string[] = [];
    live.onEnding(() => {
      throw new Error('recording failed');
    });
    live.onEnding(() => ran.push('ending'));
    live.onEnded(() => Promise.reject(new Error('voicemail failed')));
    live.onEnded(async () => {
      ran.push('ended');
    });

    await live.end(call, 'completed', null);

    expect(caller.isClosed).toBe(true);
    expect(live.get(call.id)).toBeUndefined();
    expect(ran).toEqual(['ending', 'ended']);
    expect(warnings).toEqual(['a call end hook failed', 'a call end hook failed']);
  });

  it('stops a call’s timers when it ends', async () => {
    const live = newLiveCalls();
    const call = live.create(randomUUID(), null, WIDEBAND_RATE);
    live.add(call);
    let ran = false;
    live.after(call, 20, () => (ran = true));
    await live.end(call, 'cancelled', null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toBe(false);
  });

  it('hangs up only the user’s own call, and says when they have none here', async () => {
    const live = newLiveCalls();
    const call = live.create(randomUUID(), 'ada', WIDEBAND_RATE);
    live.add(call);
    expect(await live.hangUp('bob', call.id)).toBe(false);
    expect(await live.hangUp('ada', randomUUID())).toBe(false);
    expect(live.hasCallOf('ada')).toBe(true);
    expect(await live.hangUp('ada', call.id)).toBe(true);
    expect(call.ending).toBe(true);
    expect(live.hasCallOf('ada')).toBe(false);
  });
});
