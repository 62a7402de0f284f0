import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCore } from '../../../tests/support/call-core';
import { dominantFrequency, sine } from '../../../tests/support/dsp/analysis';
import { joinTab } from '../../../tests/support/fake-realtime-socket';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import { beepHeardBy } from '../../../tests/support/voicemail-audio';
import { FRAME_MS, frameSamples, WIDEBAND_RATE } from '../../common/calls';
import { float32ToInt16 } from '../../dsp/pcm';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import { defaultCallTiming } from '../calls/timing';
import type { DatabaseHandle } from '../db/client';
import { BaseLeg } from '../media/leg';
import { decodeOggOpus } from './ogg-opus-audio';
import { encodeOggOpus } from './ogg-opus-encode';
import { voicemails } from './schema';
import { createVoicemail } from './voicemail';
import type { VoicemailTaker } from './voicemail-taker';

/** The far side of a call from outside Voxline: keeps what it hears, and says a tone when told to. */
class OutsideCaller extends BaseLeg {
  readonly kind = 'simulated';
  readonly sampleRate = WIDEBAND_RATE;
  readonly received: Int16Array[] = [];
  private talker: NodeJS.Timeout | undefined;

  send(frame: Int16Array) {
    this.received.push(frame.slice());
  }

  /** Says `hz` at real-time pace until closed. */
  say(hz: number) {
    let index = 0;
    const samples = frameSamples(WIDEBAND_RATE);
    this.talker = setInterval(() => {
      this.emitFrame(float32ToInt16(sine(hz, WIDEBAND_RATE, samples, 0.5, (2 * Math.PI * hz * index * samples) / WIDEBAND_RATE)));
      index += 1;
    }, FRAME_MS);
  }

  protected release() {
    clearInterval(this.talker);
  }
}

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function setUp() {
  const { objects, store, spool } = memoryStorage();
  const log = { warn: () => undefined };
  let taker: VoicemailTaker | undefined;
  const { hub, ringing } = callCore(database.db, {
    timing: { ...defaultCallTiming, ringTimeoutMs: 300 },
    voicemail: (core) => (taker = createVoicemail({ db: database.db, hub: core, store, spool, messageAudio: store, instanceId: 'test', maxMessageMs: 1_500, log }).taker),
  });
  hub.on('call.reject', (callee, message) => ringing.reject(callee.id, message.callId));
  const owner = randomUUID();
  await database.db.insert(user).values({ id: owner, name: 'Owner', email: `${owner}@example.com` });
  const messages = () => database.db.select().from(voicemails).where(eq(voicemails.userId, owner));
  const missed = async () => (await database.db.select().from(calls).where(and(eq(calls.userId, owner), eq(calls.direction, 'inbound'))))[0]!;
  return { hub, ringing, owner, objects, messages, missed, taker: taker! };
}

describe('VoicemailTaker', () => {
  it('answers for an owner who is not listening: the default greeting, the beep, then the caller’s words kept as Ogg Opus', async () => {
    const { hub, ringing, owner, objects, messages, missed } = await setUp();
    const tab = joinTab(hub, owner);
    const caller = new OutsideCaller();
    const { result } = await ringing.ringFromOutside(owner, '+12125550140', '+14155550140', caller);
    expect(result).toBe('voicemail');

    const beepAt = await beepHeardBy(caller);
    // The default greeting is speech: about 5 s of it before the beep.
    expect(beepAt * FRAME_MS).toBeGreaterThan(4_000);
    caller.say(440);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    caller.close('The caller hung up');

    await until(() => tab.of('voicemail.new').length > 0);
    const [message] = await messages();
    expect(tab.of('voicemail.new')[0]).toMatchObject({ voicemailId: message!.id, from: '+12125550140' });
    expect(message).toMatchObject({ state: 'saved', fromNumber: '+12125550140', toNumber: '+14155550140', callId: (await missed()).id });
    expect(message!.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(message!.durationMs).toBeLessThan(1_600);
    const samples = decodeOggOpus(objects.get(message!.objectKey)!);
    expect(Math.abs(samples.length - (message!.durationMs * 16))).toBeLessThanOrEqual(320);
    expect(dominantFrequency(Float32Array.from(samples.subarray(2_000, 14_000), (s) => s / 32768), 16_000)).toBeCloseTo(440, 0);
    expect(await missed()).toMatchObject({ state: 'ended', outcome: 'unavailable' });
  });

  it('takes the call the owner declines, and ends it at the message limit', async () => {
    const { hub, ringing, owner, messages, missed } = await setUp();
    const tab = joinTab(hub, owner);
    await tab.startListening();
    const caller = new OutsideCaller();
    const closed = new Promise((resolve) => caller.onClose(resolve));
    // Talking all along, as a browser sends frames all along: only what follows the beep is kept.
    caller.say(440);
    expect((await ringing.ringFromOutside(owner, '+12125550141', '+14155550141', caller)).result).toBe('ringing');
    const [incoming] = tab.of('call.incoming');
    tab.say({ type: 'call.reject', callId: incoming!.callId });
    await until(() => tab.of('call.ended').length > 0);
    expect(tab.of('call.ended')[0]).toMatchObject({ callId: incoming!.callId, outcome: 'rejected' });
    await beepHeardBy(caller);
    await closed;
    await until(async () => (await messages()).some((message) => message.state === 'saved'));
    const [message] = await messages();
    // Frames the caller's timer sent in the 1.5 s the limit allows: a loaded machine's timer sends fewer, never more.
    expect(message!.durationMs).toBeGreaterThan(1_000);
    expect(message!.durationMs).toBeLessThanOrEqual(1_540);
    expect(message!.callId).toBe((await missed()).id);
  });

  it('drops a message with no words: the caller hung up at the beep', async () => {
    const { ringing, owner, messages } = await setUp();
    const caller = new OutsideCaller();
    await ringing.ringFromOutside(owner, '+12125550142', '+14155550142', caller);
    await beepHeardBy(caller);
    caller.close('The caller hung up');
    await until(async () => (await messages()).length === 0);
  });
});

describe('VoicemailTaker.adoptLeftBehind', () => {
  it('stores what a stopped instance’s spool kept of its messages and tells the owner; one with nothing kept waits a while for another machine, then is failed', async () => {
    const { hub, owner, objects, messages, taker } = await setUp();
    const tab = joinTab(hub, owner);
    const row = (objectKey: string, instanceId: string, createdAt = new Date()) => ({
      userId: owner,
      fromNumber: '+12125550143',
      toNumber: '+14155550143',
      objectKey,
      state: 'recording' as const,
      instanceId,
      createdAt,
      retainUntil: new Date(Date.now() + 86_400_000),
    });
    // Two seconds of words, as the stopped instance's spool kept them.
    const kept = encodeOggOpus(float32ToInt16(sine(440, WIDEBAND_RATE, 2 * WIDEBAND_RATE, 0.5)));
    objects.set(`voicemail/${owner}/kept.ogg`, kept);
    await database.db.insert(voicemails).values([
      row(`voicemail/${owner}/kept.ogg`, 'stopped'),
      row(`voicemail/${owner}/lost.ogg`, 'stopped', new Date(Date.now() - 3_600_000)),
      row(`voicemail/${owner}/elsewhere.ogg`, 'stopped'),
      row(`voicemail/${owner}/live.ogg`, 'running'),
    ]);
    await taker.adoptLeftBehind(new Set(['running']));
    const states = Object.fromEntries((await messages()).map((message) => [message.objectKey.split('/').at(-1), message.state]));
    expect(states).toEqual({ 'kept.ogg': 'saved', 'lost.ogg': 'failed', 'elsewhere.ogg': 'recording', 'live.ogg': 'recording' });
    const adopted = (await messages()).find((message) => message.objectKey.endsWith('/kept.ogg'))!;
    expect(adopted.bytes).toBe(kept.length);
    // Its length read from the file: 2 s less the encoder's lookahead the last page leaves out.
    expect(adopted.durationMs).toBeGreaterThan(1_950);
    expect(adopted.durationMs).toBeLessThanOrEqual(2_000);
    expect(tab.of('voicemail.new')).toHaveLength(1);
  });
});
