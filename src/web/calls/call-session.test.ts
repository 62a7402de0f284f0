import { describe, expect, it, vi } from 'vitest';
import { SERVER_BUSY, SERVER_BUSY_MESSAGE, type CallRecord, type PlaceCallResult } from '../../common/api/calls';
import { defaultPreferences, type Preferences } from '../../common/api/preferences';
import type { ServerMessage } from '../../common/realtime';
import { deferred } from '../../../tests/support/deferred';
import { FakeSignalling } from '../../../tests/support/fake-signalling';
import { ApiError } from '../lib/api-client';
import type { CallMediaOptions } from './call-media';
import { MEDIA_DROP_GRACE_MS } from './call-media-connection';
import { AUTO_ANSWER_DELAY_MS } from './call-receiving';
import { CallSession } from './call-session';
import type { CallMediaLink } from './call-media-link';
import type { Clock, NoticeOptions } from './call-session-ports';

/** Time that moves only when the test says. */
class FakeClock implements Clock {
  private timers: { at: number; every: number | null; run: () => void }[] = [];
  constructor(public current = Date.parse('2026-11-22T10:00:00.000Z')) {}

  now() {
    return this.current;
  }

  after(ms: number, run: () => void) {
    return this.schedule(ms, null, run);
  }

  every(ms: number, run: () => void) {
    return this.schedule(ms, ms, run);
  }

  advance(ms: number) {
    const end = this.current + ms;
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.current = next.at;
      if (next.every === null) this.timers = this.timers.filter((timer) => timer !== next);
      else next.at += next.every;
      next.run();
    }
    this.current = end;
  }

  private schedule(ms: number, every: number | null, run: () => void) {
    const timer = { at: this.current + ms, every, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const record = (fields: Partial<CallRecord>): CallRecord => ({
  id: 'c1', direction: 'outbound', from: '+14155550123', to: '+14155550100', state: 'ringing', outcome: null, reason: null,
  startedAt: '2026-11-22T10:00:00.000Z', answeredAt: null, endedAt: null, durationSec: null, mediaTransport: null, mediaFigures: null, ...fields,
});
const placed = (fields: Partial<CallRecord> = {}): PlaceCallResult => ({ call: record(fields), mediaPath: '/api/v1/calls/c1/media', sampleRate: 16_000 });
const incoming: ServerMessage = { type: 'call.incoming', callId: 'c9', from: '+12125550147', to: '+14155550123', at: '2026-11-22T10:00:00.000Z' };
const dial = { from: '+14155550123', to: '+14155550100', countryCode: '+1' };
/** What a server that is draining answers a call (docs/deploy.md#draining). */
const restarting = () => new ApiError(503, 'server_draining', 'This server is restarting. Try your call again in a moment.');

function setUp({ preferences = {} as Partial<Preferences> } = {}) {
  const track = { stop: vi.fn() };
  const stream = { getTracks: () => [track] } as unknown as MediaStream;
  const link = { transport: 'webrtc', setMuted: vi.fn(), stats: vi.fn(), close: vi.fn() } satisfies CallMediaLink;
  const clock = new FakeClock();
  const notices: { kind: string; title: string; description?: string }[] = [];
  const notice = (kind: string) => (title: string, options?: NoticeOptions) => void notices.push({ kind, title, ...(options?.description ? { description: options.description } : {}) });
  const deps = {
    server: { placeCall: vi.fn(async () => placed()), getCall: vi.fn(async () => record({})), hangUpCall: vi.fn(async (id: string) => record({ id, state: 'ended', outcome: 'completed', durationSec: 0 })), sendDtmf: vi.fn(async (_id: string, digits: string) => ({ digits, via: 'tones' as const })), saveMediaFigures: vi.fn(async () => undefined) },
    media: { openMicrophone: vi.fn(async () => stream), connect: vi.fn(async (_options: CallMediaOptions): Promise<CallMediaLink> => link) },
    clock,
    notices: { info: notice('info'), success: notice('success'), warning: notice('warning'), error: notice('error'), dismiss: vi.fn() },
    alerts: { askPermission: vi.fn(), notify: vi.fn(() => null) },
    preferences: () => ({ ...defaultPreferences, ...preferences }),
    onCallEnded: vi.fn(),
    openPlans: vi.fn(),
  };
  const session = new CallSession(deps);
  const signalling = new FakeSignalling();
  session.attach(signalling);
  const titles = () => notices.map((shown) => shown.title);
  const last = () => notices.at(-1);
  const onDrop = () => deps.media.connect.mock.calls.at(-1)![0].onDrop;
  return { session, signalling, deps, clock, stream, track, link, notices, titles, last, onDrop };
}

/** A call ringing here, answered: the microphone is open and call.answer has gone out. */
async function answered(setup: ReturnType<typeof setUp>) {
  setup.session.startReceiving();
  setup.signalling.deliver(incoming);
  await setup.session.answer();
  setup.signalling.deliver({ type: 'call.state', callId: 'c9', state: 'answered', answeredAt: new Date(setup.clock.now()).toISOString() });
  await flush();
}

/**
 * Answers a call ringing here while the microphone is still being asked for. The answer settles
 * once the microphone arrives at last: the function returned grants it and resolves to its track.
 */
function answerAwaitingMicrophone(setup: ReturnType<typeof setUp>) {
  const microphone = deferred<MediaStream>();
  setup.deps.media.openMicrophone.mockReturnValueOnce(microphone.promise);
  setup.session.startReceiving();
  setup.signalling.deliver(incoming);
  const answering = setup.session.answer();
  return async () => {
    const { stream: late, track: lateTrack } = setUp();
    microphone.resolve(late);
    await answering;
    return lateTrack;
  };
}

describe('a placed call', () => {
  it('says when the callee’s voicemail answered it', async () => {
    const { session, signalling, clock } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString(), reason: 'Voicemail' });
    expect(session.getSnapshot()).toMatchObject({ phase: 'active', voicemail: true });
  });

  it('connects, rings, is answered, counts its time, mutes and hangs up', async () => {
    const { session, signalling, deps, clock, link, titles, last } = setUp();
    const phases: string[] = [];
    session.subscribe(() => phases.push(session.getSnapshot().phase));
    const placing = session.place(dial);
    expect(session.getSnapshot()).toMatchObject({ phase: 'connecting', direction: 'outbound', peer: '+14155550100', countryCode: '+1', callId: null });
    await placing;
    expect(deps.server.placeCall).toHaveBeenCalledWith({ from: dial.from, to: dial.to });
    expect(deps.media.connect).toHaveBeenCalledWith(expect.objectContaining({ callId: 'c1', mediaPath: '/api/v1/calls/c1/media', signalling, sampleRate: 16_000 }));
    expect(session.getSnapshot()).toMatchObject({ phase: 'ringing', callId: 'c1', mediaTransport: 'webrtc' });

    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString() });
    expect(session.getSnapshot()).toMatchObject({ phase: 'active', voicemail: false });
    expect(session.elapsed.getSnapshot()).toBe(0);
    clock.advance(5_000);
    expect(session.elapsed.getSnapshot()).toBe(5);

    session.toggleMute();
    expect(link.setMuted).toHaveBeenLastCalledWith(true);
    expect(signalling.sent).toContainEqual({ type: 'call.mute', callId: 'c1', muted: true });
    expect(session.getSnapshot().isMuted).toBe(true);

    deps.server.hangUpCall.mockResolvedValueOnce(record({ state: 'ended', outcome: 'completed', durationSec: 5 }));
    await session.hangUp();
    expect(deps.server.hangUpCall).toHaveBeenCalledWith('c1');
    expect(link.close).toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'Duration: 0:05' });
    expect(titles()).toEqual(['Calling...', 'Call connected', 'Microphone muted', 'Call ended']);
    expect(deps.onCallEnded).toHaveBeenCalledTimes(1);
    expect(phases).toEqual(expect.arrayContaining(['connecting', 'ringing', 'active', 'idle']));
    // The timer stops with the call.
    const after = session.getSnapshot();
    clock.advance(3_000);
    expect(session.getSnapshot()).toBe(after);
  });

  it('ticks its elapsed seconds apart from its snapshot, so that only the time re-renders each second', async () => {
    const { session, signalling, clock } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString() });
    const answered = session.getSnapshot();
    let snapshotChanges = 0;
    const ticks: number[] = [];
    session.subscribe(() => snapshotChanges++);
    session.elapsed.subscribe(() => ticks.push(session.elapsed.getSnapshot()));
    clock.advance(3_000);
    expect(ticks).toEqual([1, 2, 3]);
    expect(snapshotChanges).toBe(0);
    expect(session.getSnapshot()).toBe(answered);
    session.toggleMute();
    expect(snapshotChanges).toBe(1);
    expect(ticks).toEqual([1, 2, 3]);
    await session.hangUp();
    expect(ticks).toEqual([1, 2, 3, 0]);
  });

  it('places no call when the microphone is refused', async () => {
    const { session, deps, last } = setUp();
    deps.media.openMicrophone.mockRejectedValueOnce(Object.assign(new Error('Microphone access was refused. Allow the microphone for this site and try again.'), { name: 'MicrophoneError' }));
    await session.place(dial);
    expect(deps.server.placeCall).not.toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'Microphone access was refused. Allow the microphone for this site and try again.' });
  });

  it('says why the server refused it, and releases the microphone', async () => {
    const { session, deps, track, last } = setUp();
    deps.server.placeCall.mockRejectedValueOnce(new ApiError(402, 'minutes_used_up', 'No minutes left'));
    await session.place(dial);
    expect(track.stop).toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'Monthly minutes used up', description: 'Upgrade your plan for more minutes this month.' });
  });

  it('shows a busy server’s refusal as it is, and does not try again by itself', async () => {
    const { session, deps, track, last } = setUp();
    deps.server.placeCall.mockRejectedValueOnce(new ApiError(503, SERVER_BUSY, SERVER_BUSY_MESSAGE, undefined, 'a1b2c3d4-request'));
    await session.place(dial);
    expect(deps.server.placeCall).toHaveBeenCalledTimes(1);
    expect(track.stop).toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'error', title: 'Call not placed', description: 'Voxline is busy, try again in a minute' });
  });

  it('tries once more, after the wait it names, when a draining server refuses it', async () => {
    const { session, deps, clock, titles } = setUp();
    deps.server.placeCall.mockRejectedValueOnce(restarting());
    const placing = session.place(dial);
    await flush();
    expect(deps.server.placeCall).toHaveBeenCalledTimes(1);
    expect(session.getSnapshot().phase).toBe('connecting');
    clock.advance(1_999);
    await flush();
    expect(deps.server.placeCall).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await placing;
    expect(deps.server.placeCall).toHaveBeenCalledTimes(2);
    expect(session.getSnapshot()).toMatchObject({ phase: 'ringing', callId: 'c1' });
    expect(titles()).toEqual(['Calling...']);
  });

  it('says the server is restarting when the second try is refused too', async () => {
    const { session, deps, clock, track, last } = setUp();
    deps.server.placeCall.mockRejectedValueOnce(restarting()).mockRejectedValueOnce(restarting());
    const placing = session.place(dial);
    await flush();
    clock.advance(2_000);
    await placing;
    expect(deps.server.placeCall).toHaveBeenCalledTimes(2);
    expect(session.getSnapshot().phase).toBe('idle');
    expect(track.stop).toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'This server is restarting. Try your call again in a moment.' });
  });

  it('is not tried again when hung up during the wait', async () => {
    const { session, deps, clock } = setUp();
    deps.server.placeCall.mockRejectedValueOnce(restarting());
    const placing = session.place(dial);
    await flush();
    await session.hangUp();
    clock.advance(2_000);
    await placing;
    expect(deps.server.placeCall).toHaveBeenCalledTimes(1);
    expect(session.getSnapshot().phase).toBe('idle');
  });

  it('holds the signalling socket from placing to its end, so that a draining server’s tab keeps it', async () => {
    const { session, signalling } = setUp();
    const placing = session.place(dial);
    expect(signalling.holds).toBe(1);
    await placing;
    expect(signalling.holds).toBe(1);
    signalling.deliver({ type: 'call.ended', callId: 'c1', outcome: 'completed', durationSec: 3 });
    expect(signalling.holds).toBe(0);
  });

  it('shows the called contact’s voice preset when the server says the call uses it', async () => {
    const { session, deps } = setUp();
    const contactVoice = { contactName: 'Ada', settings: { voiceType: 'normal' as const, pitch: 1.5, speed: 1 } };
    deps.server.placeCall.mockResolvedValueOnce({ ...placed(), contactVoice });
    expect(session.getSnapshot().contactVoice).toBeNull();
    await session.place(dial);
    expect(session.getSnapshot()).toMatchObject({ phase: 'ringing', contactVoice });
  });

  it('reports a call that ended as it was placed', async () => {
    const { session, deps, track, last } = setUp();
    deps.server.placeCall.mockResolvedValueOnce(placed({ state: 'ended', outcome: 'busy' }));
    await session.place(dial);
    expect(track.stop).toHaveBeenCalled();
    expect(deps.media.connect).not.toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'The line is busy' });
  });

  it('refuses a second call while one is on', async () => {
    const { session, deps, last } = setUp();
    await session.place(dial);
    await session.place(dial);
    expect(deps.server.placeCall).toHaveBeenCalledTimes(1);
    expect(last()).toEqual({ kind: 'error', title: 'Call in progress', description: 'Please end the current call before starting a new one' });
  });

  it('shows the far side declining', async () => {
    const { session, signalling, link, last } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.ended', callId: 'c1', outcome: 'rejected', durationSec: 0 });
    expect(link.close).toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'Call rejected', description: 'The call was declined' });
  });
});

describe('hang-up while connecting', () => {
  it('before the server has the call: the server gets the hang-up and no audio starts', async () => {
    const { session, deps, track, last } = setUp();
    const placing = deferred<PlaceCallResult>();
    deps.server.placeCall.mockReturnValueOnce(placing.promise);
    const done = session.place(dial);
    await flush();
    await session.hangUp();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'Duration: 0:00' });
    placing.resolve(placed());
    await done;
    expect(deps.server.hangUpCall).toHaveBeenCalledWith('c1');
    expect(deps.media.connect).not.toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalled();
  });

  it('while its audio connects: the audio that arrives late is closed', async () => {
    const { session, signalling, deps, link } = setUp();
    const connecting = deferred<CallMediaLink>();
    deps.media.connect.mockReturnValueOnce(connecting.promise);
    const done = session.place(dial);
    await flush();
    expect(deps.media.connect).toHaveBeenCalled();
    // The call ends on the server (the caller's other tab, say) before the audio is up.
    signalling.deliver({ type: 'call.ended', callId: 'c1', outcome: 'completed', durationSec: 0 });
    expect(session.getSnapshot().phase).toBe('idle');
    connecting.resolve(link);
    await done;
    expect(link.close).toHaveBeenCalled();
  });

  it('while ringing, once the audio is up: the server gets the hang-up', async () => {
    const { session, deps, link } = setUp();
    await session.place(dial);
    expect(session.getSnapshot().phase).toBe('ringing');
    deps.server.hangUpCall.mockResolvedValueOnce(record({ state: 'ended', outcome: 'cancelled', durationSec: 0 }));
    await session.hangUp();
    expect(deps.server.hangUpCall).toHaveBeenCalledWith('c1');
    expect(link.close).toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
  });

  it('a received call answered but not yet connected: hung up, and the late answer starts no audio', async () => {
    const setup = setUp();
    const { session, signalling, deps, track } = setup;
    session.startReceiving();
    signalling.deliver(incoming);
    await session.answer();
    expect(session.getSnapshot().phase).toBe('answering');
    deps.server.hangUpCall.mockResolvedValueOnce(record({ id: 'c9', state: 'ended', outcome: 'completed', durationSec: 0 }));
    await session.hangUp();
    expect(deps.server.hangUpCall).toHaveBeenCalledWith('c9');
    expect(track.stop).toHaveBeenCalled();
    signalling.deliver({ type: 'call.state', callId: 'c9', state: 'answered', answeredAt: new Date().toISOString() });
    await flush();
    expect(deps.media.connect).not.toHaveBeenCalled();
  });

  it('a received call still asking for the microphone: declined', async () => {
    const setup = setUp();
    const { session, signalling, track, last } = setup;
    const grantMicrophone = answerAwaitingMicrophone(setup);
    await session.hangUp();
    expect(signalling.sent).toContainEqual({ type: 'call.reject', callId: 'c9' });
    expect(last()).toEqual({ kind: 'info', title: 'Call rejected' });
    const lateTrack = await grantMicrophone();
    expect(signalling.types()).not.toContain('call.answer');
    expect(lateTrack.stop).toHaveBeenCalled();
    expect(track.stop).not.toHaveBeenCalled();
  });
});

describe('a received call', () => {
  it('rings while listening, is answered, connects at the preferred rate and ends when the other side hangs up', async () => {
    const setup = setUp({ preferences: { dataUsage: true } });
    const { session, signalling, deps, link, clock, titles, last } = setup;
    signalling.deliver(incoming);
    expect(session.getSnapshot().phase).toBe('idle');
    await answered(setup);
    expect(signalling.sent).toEqual([{ type: 'receiver.start' }, { type: 'call.answer', callId: 'c9' }]);
    expect(deps.media.connect).toHaveBeenCalledWith(expect.objectContaining({ callId: 'c9', mediaPath: '/api/v1/calls/c9/media', signalling, sampleRate: 8_000 }));
    expect(session.getSnapshot()).toMatchObject({ phase: 'active', direction: 'inbound', peer: '+12125550147', callId: 'c9', listening: true, mediaTransport: 'webrtc' });
    clock.advance(42_000);
    expect(session.elapsed.getSnapshot()).toBe(42);

    signalling.deliver({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 42 });
    expect(link.close).toHaveBeenCalled();
    expect(session.getSnapshot()).toMatchObject({ phase: 'idle', listening: true });
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'Duration: 0:42' });
    expect(titles()).toEqual(['Ready to receive calls', 'Incoming call', 'Call connected', 'Call ended']);
  });

  it('is answered by Auto-Answer after 3 seconds', async () => {
    const { session, signalling, clock } = setUp({ preferences: { autoAnswer: true } });
    session.startReceiving();
    signalling.deliver(incoming);
    clock.advance(AUTO_ANSWER_DELAY_MS - 100);
    expect(session.getSnapshot().phase).toBe('ringing');
    clock.advance(100);
    await flush();
    expect(signalling.sent).toContainEqual({ type: 'call.answer', callId: 'c9' });
  });

  it('is declined, with the reason, when the microphone is refused', async () => {
    const { session, signalling, deps, last } = setUp();
    deps.media.openMicrophone.mockRejectedValueOnce(Object.assign(new Error('No microphone was found. Connect one and try again.'), { name: 'MicrophoneError' }));
    session.startReceiving();
    signalling.deliver(incoming);
    await session.answer();
    expect(signalling.sent).toContainEqual({ type: 'call.reject', callId: 'c9' });
    expect(signalling.types()).not.toContain('call.answer');
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'error', title: 'Call rejected', description: 'No microphone was found. Connect one and try again.' });
  });

  it('is declined when the answer cannot be sent', async () => {
    const { session, signalling, track, last } = setUp();
    session.startReceiving();
    signalling.deliver(incoming);
    signalling.open = false;
    await session.answer();
    expect(track.stop).toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()?.title).toBe('Call failed');
  });

  it('is declined, and listening stops, when the page is left', () => {
    const { session, signalling } = setUp();
    session.startReceiving();
    signalling.deliver(incoming);
    session.leave();
    expect(signalling.sent).toEqual([{ type: 'receiver.start' }, { type: 'call.reject', callId: 'c9' }, { type: 'receiver.stop' }]);
    expect(session.getSnapshot()).toMatchObject({ phase: 'idle', listening: false });
  });
});

describe('answer in two tabs', () => {
  it('the other tab answered first: this one stops ringing and says so', () => {
    const { session, signalling, last } = setUp();
    session.startReceiving();
    signalling.deliver(incoming);
    expect(session.getSnapshot().phase).toBe('ringing');
    signalling.deliver({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 0, reason: 'Answered in another tab' });
    expect(session.getSnapshot()).toMatchObject({ phase: 'idle', listening: true });
    expect(last()).toEqual({ kind: 'info', title: 'Answered in another tab' });
    expect(signalling.types()).toEqual(['receiver.start']);
  });

  it('both answered, the other first: this answer is refused and nothing is held open', async () => {
    const { session, signalling, deps, track, last } = setUp();
    session.startReceiving();
    signalling.deliver(incoming);
    await session.answer();
    signalling.deliver({ type: 'error', code: 'failed', message: 'No such call in progress', callId: 'another-call' });
    expect(session.getSnapshot().phase).toBe('answering');
    signalling.deliver({ type: 'error', code: 'failed', message: 'This call is no longer ringing', callId: 'c9' });
    expect(session.getSnapshot().phase).toBe('idle');
    expect(track.stop).toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'This call is no longer ringing' });
    expect(signalling.types()).not.toContain('call.hangup');
    expect(deps.media.connect).not.toHaveBeenCalled();
  });

  it('the other tab answered while this one asked for the microphone: the microphone is let go', async () => {
    const setup = setUp();
    const { signalling, track, last } = setup;
    const grantMicrophone = answerAwaitingMicrophone(setup);
    signalling.deliver({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 0, reason: 'Answered in another tab' });
    expect(last()).toEqual({ kind: 'info', title: 'Answered in another tab' });
    const lateTrack = await grantMicrophone();
    expect(lateTrack.stop).toHaveBeenCalled();
    expect(track.stop).not.toHaveBeenCalled();
    expect(signalling.types()).toEqual(['receiver.start']);
  });
});

describe('the socket dropping mid-call', () => {
  it('a placed call whose audio drops takes the outcome the server recorded', async () => {
    const { session, signalling, deps, onDrop, last } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered' });
    deps.server.getCall.mockResolvedValueOnce(record({ state: 'ended', outcome: 'completed', durationSec: 12 }));
    onDrop()(false);
    await flush();
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'Duration: 0:12' });
  });

  it('a placed call whose audio drops and whose record cannot be read was cut off', async () => {
    const { session, deps, onDrop, last } = setUp();
    await session.place(dial);
    deps.server.getCall.mockRejectedValueOnce(ApiError.network());
    onDrop()(false);
    await flush();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'The call was cut off' });
  });

  it('a call ended by something other than a hang-up says why, on either side', async () => {
    const placed = setUp();
    await placed.session.place(dial);
    placed.signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered' });
    placed.signalling.deliver({ type: 'call.ended', callId: 'c1', outcome: 'completed', durationSec: 75, reason: 'The call was ended by an administrator' });
    expect(placed.last()).toEqual({ kind: 'info', title: 'Call ended', description: 'The call was ended by an administrator. Duration: 1:15' });

    const received = setUp();
    await answered(received);
    received.signalling.deliver({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 7, reason: 'The call was ended by an administrator' });
    await flush();
    expect(received.last()).toEqual({ kind: 'info', title: 'Call ended', description: 'The call was ended by an administrator. Duration: 0:07' });
  });

  it('a received call whose audio drops waits for call.ended before it calls it a failure', async () => {
    const setup = setUp();
    const { signalling, deps, clock, onDrop, last } = setup;
    await answered(setup);
    onDrop()(false);
    clock.advance(MEDIA_DROP_GRACE_MS - 1);
    signalling.deliver({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 7 });
    clock.advance(1);
    await flush();
    expect(deps.server.getCall).not.toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'Duration: 0:07' });
  });

  it('a received call whose audio drops with no call.ended is hung up and shown cut off', async () => {
    const setup = setUp();
    const { session, signalling, deps, clock, onDrop, last } = setup;
    await answered(setup);
    deps.server.getCall.mockResolvedValueOnce(record({ id: 'c9', direction: 'inbound', state: 'answered' }));
    onDrop()(false);
    clock.advance(MEDIA_DROP_GRACE_MS);
    await flush();
    expect(signalling.sent.at(-1)).toEqual({ type: 'call.hangup', callId: 'c9' });
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'error', title: 'Call failed', description: 'The call was cut off' });
  });

  it('a call that ended while the signalling socket was away ends on reconnection', async () => {
    const { session, signalling, deps, link, last } = setUp();
    await session.place(dial);
    deps.server.getCall.mockResolvedValueOnce(record({ state: 'ended', outcome: 'no-answer', durationSec: 0 }));
    signalling.reconnect();
    await flush();
    expect(link.close).toHaveBeenCalled();
    expect(last()).toEqual({ kind: 'error', title: 'No answer', description: 'Nobody answered' });
  });

  it('signed out: the call ends as a hang-up and the server is not asked', async () => {
    const { session, signalling, deps, clock, onDrop, last } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString() });
    clock.advance(9_000);
    onDrop()(true);
    expect(deps.server.getCall).not.toHaveBeenCalled();
    expect(session.getSnapshot().phase).toBe('idle');
    expect(last()).toEqual({ kind: 'info', title: 'Call ended', description: 'You were signed out. Duration: 0:09' });
  });
});

describe('touch-tones', () => {
  it('go out only once the call is up, in the order pressed, keys pressed meanwhile gathered into the next request', async () => {
    const { session, signalling, deps, clock } = setUp();
    await session.place(dial);
    expect(session.pressKey('1')).toBe(false);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString() });
    const first = deferred<{ digits: string; via: 'tones' }>();
    deps.server.sendDtmf.mockReturnValueOnce(first.promise);
    expect(session.pressKey('1')).toBe(true);
    session.pressKey('2');
    session.pressKey('#');
    expect(deps.server.sendDtmf.mock.calls).toEqual([['c1', '1']]);
    first.resolve({ digits: '1', via: 'tones' });
    await flush();
    expect(deps.server.sendDtmf.mock.calls).toEqual([['c1', '1'], ['c1', '2#']]);
  });

  it('say why keys were refused, and drop those waiting', async () => {
    const { session, signalling, deps, clock, last } = setUp();
    await session.place(dial);
    signalling.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date(clock.now()).toISOString() });
    deps.server.sendDtmf.mockRejectedValueOnce(new ApiError(409, 'no_call_up', 'No call is up: touch-tones can be sent once the call is answered and connected'));
    session.pressKey('5');
    session.pressKey('6');
    await flush();
    expect(last()).toEqual({ kind: 'error', title: 'Touch-tones not sent', description: 'No call is up: touch-tones can be sent once the call is answered and connected' });
    expect(deps.server.sendDtmf).toHaveBeenCalledTimes(1);
  });

  it('pressed by the other side show on the call, oldest first', async () => {
    const setup = setUp();
    await answered(setup);
    setup.signalling.deliver({ type: 'call.dtmf', callId: 'c9', digits: '12' });
    setup.signalling.deliver({ type: 'call.dtmf', callId: 'other', digits: '9' });
    setup.signalling.deliver({ type: 'call.dtmf', callId: 'c9', digits: '#' });
    expect(setup.session.getSnapshot().keysHeard).toBe('12#');
  });
});

describe('recording a call', () => {
  it('asks the server to record and to stop, and follows what it says: its own recording and the other side’s', async () => {
    const setup = setUp();
    await answered(setup);
    const { session, signalling, clock } = setup;
    session.toggleRecording();
    expect(signalling.sent.at(-1)).toEqual({ type: 'call.record', callId: 'c9', recording: true });
    const startedAt = clock.now() + 2_000;
    signalling.deliver({ type: 'call.recording', callId: 'c9', recording: true, byYou: true, startedAt: new Date(startedAt).toISOString() });
    expect(session.getSnapshot()).toMatchObject({ recordingSince: startedAt, recordedByOther: false });

    session.toggleRecording();
    expect(signalling.sent.at(-1)).toEqual({ type: 'call.record', callId: 'c9', recording: false });
    signalling.deliver({ type: 'call.recording', callId: 'c9', recording: false, byYou: true });
    expect(session.getSnapshot().recordingSince).toBeNull();

    signalling.deliver({ type: 'call.recording', callId: 'c9', recording: true, byYou: false, startedAt: new Date(startedAt).toISOString() });
    expect(session.getSnapshot()).toMatchObject({ recordingSince: null, recordedByOther: true });
  });

  it('shows a refusal (a Free plan) as a notice, and the call goes on', async () => {
    const setup = setUp();
    await answered(setup);
    setup.session.toggleRecording();
    setup.signalling.deliver({ type: 'error', code: 'plan_required', message: 'Call recording is part of Premium and Platinum.', callId: 'c9' });
    expect(setup.last()).toEqual({ kind: 'error', title: 'Recording not started', description: 'Call recording is part of Premium and Platinum.' });
    expect(setup.session.getSnapshot().phase).toBe('active');
  });
});
