import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../../common/realtime';
import { joinTab, type FakeRealtimeSocket } from '../../../tests/support/fake-realtime-socket';
import { LocalBus } from '../bus/local-bus';
import { MemoryPresence } from './presence';
import { RealtimeHub } from './realtime-hub';

const log = { warn: () => {} };
const notice = (message: string): ServerMessage => ({ type: 'notice', code: 'test', message });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const notices = (tab: FakeRealtimeSocket) => tab.of('notice');

/** The id the hub gives the tab, as a handler of its messages sees it. */
async function tabIdOf(hub: RealtimeHub, tab: FakeRealtimeSocket) {
  let seen = '';
  hub.on('call.mute', (_user, _message, tabId) => {
    seen = tabId;
  });
  tab.say({ type: 'call.mute', callId: 'c', muted: true });
  await settle();
  return seen;
}

/** Two instances in one process: two hubs on one bus. */
function twoInstances() {
  const bus = new LocalBus();
  const hubs = [new RealtimeHub({ log, bus, presence: new MemoryPresence() }), new RealtimeHub({ log, bus, presence: new MemoryPresence() })] as const;
  opened.push(...hubs);
  return { bus, hubs };
}

const opened: RealtimeHub[] = [];
afterEach(() => {
  for (const hub of opened.splice(0)) hub.close();
});

describe('RealtimeHub across instances', () => {
  it('sends a user message once to each of the user\'s tabs, whichever instance holds it', async () => {
    const { hubs: [one, two] } = twoInstances();
    const here = joinTab(one, 'ada');
    const there = joinTab(two, 'ada');
    const someoneElse = joinTab(two, 'bob');
    await settle();
    one.send('ada', notice('hello'));
    expect(here.sent).toEqual([notice('hello')]);
    expect(there.sent).toEqual([notice('hello')]);
    expect(someoneElse.sent).toEqual([]);
  });

  it('rings only listening tabs, leaving out the one named, and counts listeners per instance', async () => {
    const { hubs: [one, two] } = twoInstances();
    const answering = joinTab(one, 'ada');
    const idle = joinTab(one, 'ada');
    const otherListener = joinTab(two, 'ada');
    answering.say({ type: 'receiver.start' });
    otherListener.say({ type: 'receiver.start' });
    await settle();
    expect(answering.sent).toEqual([{ type: 'receiver.state', listening: true }]);
    expect(await one.isListening('ada')).toBe(true);
    expect(await one.listeningUsers()).toEqual(['ada']);
    one.sendToListeners('ada', notice('answered elsewhere'), await tabIdOf(one, answering));
    expect(notices(answering)).toEqual([]);
    expect(notices(idle)).toEqual([]);
    expect(notices(otherListener)).toEqual([notice('answered elsewhere')]);
    otherListener.say({ type: 'receiver.stop' });
    await settle();
    expect(otherListener.sent.at(-1)).toEqual({ type: 'receiver.state', listening: false });
    expect(await two.isListening('ada')).toBe(false);
  });

  it('sends to the one tab named, on whichever instance holds it', async () => {
    const { hubs: [one, two] } = twoInstances();
    const first = joinTab(two, 'ada');
    const second = joinTab(two, 'ada');
    const local = joinTab(one, 'ada');
    await settle();
    const firstId = await tabIdOf(two, first);
    expect(firstId).not.toBe(await tabIdOf(two, second));
    one.sendToTab('ada', firstId, notice('you answered'));
    expect(notices(first)).toEqual([notice('you answered')]);
    expect(notices(second)).toEqual([]);
    expect(notices(local)).toEqual([]);
  });

  it('stops following a user on the bus when their last tab on the instance closes', async () => {
    const { hubs: [one, two] } = twoInstances();
    const first = joinTab(two, 'ada');
    const second = joinTab(two, 'ada');
    await settle();
    first.close();
    one.send('ada', notice('still here'));
    expect(second.sent).toEqual([notice('still here')]);
    second.close();
    await settle();
    const late = joinTab(two, 'ada');
    await settle();
    one.send('ada', notice('once'));
    // A subscription left behind would deliver twice.
    expect(late.sent).toEqual([notice('once')]);
  });

  it('no longer hears a tab whose socket is closing (its session was revoked), whatever its peer still sends', async () => {
    const { hubs: [one] } = twoInstances();
    const tab = joinTab(one, 'ada');
    const heard: string[] = [];
    one.on('call.hangup', (_user, message) => void heard.push(message.callId));
    tab.readyState = 2;
    tab.say({ type: 'call.hangup', callId: 'c' });
    await settle();
    expect(heard).toEqual([]);
    expect(tab.sent).toEqual([]);
  });
});

describe('RealtimeHub draining', () => {
  it('tells every tab here to reconnect elsewhere, stops ringing them here, and sends a tab that starts listening elsewhere', async () => {
    const { hubs: [draining, ready] } = twoInstances();
    const listener = joinTab(draining, 'ada');
    const idle = joinTab(draining, 'bob');
    const elsewhere = joinTab(ready, 'ada');
    listener.say({ type: 'receiver.start' });
    await settle();
    expect(await draining.listeningUsers()).toEqual(['ada']);

    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      draining.drain();
      expect(listener.sent.at(-1)).toEqual({ type: 'server.draining' });
      expect(idle.sent).toEqual([{ type: 'server.draining' }]);
      expect(elsewhere.of('server.draining'), 'only this instance’s tabs').toEqual([]);
      // Presence vouches for the moving tabs a few seconds, so that a call placed meanwhile rings.
      expect(await draining.isListening('ada')).toBe(true);
      vi.advanceTimersByTime(5_000);
    } finally {
      vi.useRealTimers();
    }
    await settle();
    expect(await draining.listeningUsers()).toEqual([]);
    expect(await draining.isListening('ada')).toBe(false);
    draining.sendToListeners('ada', notice('a call rings'));
    expect(notices(listener)).toEqual([]);

    // A tab that reconnected here anyway (the only instance) is sent on again, without listening.
    idle.say({ type: 'receiver.start' });
    await settle();
    expect(idle.sent).toEqual([{ type: 'server.draining' }, { type: 'server.draining' }]);
    expect(await draining.isListening('bob')).toBe(false);
    // Messages to the user still reach every tab: a call here ends on the tab that holds it.
    draining.send('bob', notice('your call ended'));
    expect(notices(idle)).toEqual([notice('your call ended')]);
  });

  it('tells of a tab that begins to listen, once, wherever it comes from', async () => {
    const { hubs: [hub] } = twoInstances();
    const started: string[] = [];
    hub.onStartedListening((userId, tabId) => started.push(`${userId} ${tabId}`));
    const tab = joinTab(hub, 'ada');
    const tabId = await tabIdOf(hub, tab);
    tab.say({ type: 'receiver.start' });
    tab.say({ type: 'receiver.start' });
    await settle();
    expect(started).toEqual([`ada ${tabId}`]);
    tab.say({ type: 'receiver.stop' });
    tab.say({ type: 'receiver.start' });
    await settle();
    expect(started).toEqual([`ada ${tabId}`, `ada ${tabId}`]);
  });
});
