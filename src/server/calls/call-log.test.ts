import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { cookieHeader, MediaClient } from '../../../tests/support/media-client';
import { RealtimeTab } from '../../../tests/support/realtime-tab';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { until } from '../../../tests/support/until';

interface LogLine {
  msg: string;
  req?: unknown;
  [field: string]: unknown;
}

const lines: string[] = [];
let testApp: TestApp;
let wsBase: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), env: { LOG_LEVEL: 'trace' }, logStream: { write: (line) => void lines.push(line) } });
  wsBase = (await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(() => testApp.close());

async function person() {
  const user = await newSignedInUser(testApp.app);
  return { ...user, number: await rentANumber(user.browser) };
}

/**
 * The lines that mention any of `ids`, but for the request lines whose URL names the call (its
 * media socket's path): those carry the request id, and the call's own lines say what it did.
 */
function linesAbout(ids: string[]): LogLine[] {
  return lines.filter((line) => ids.some((id) => line.includes(id))).map((line) => JSON.parse(line) as LogLine).filter((line) => line.req === undefined);
}

describe("a call's log lines", () => {
  it('carry the call id and the users’ ids, from placing to the end, on both sides', async () => {
    const ada = await person();
    const bob = await person();
    const bobTab = await RealtimeTab.listening(wsBase, bob.browser);
    const placed = (await ada.browser.post('/api/v1/calls', { from: ada.number, to: bob.number })).json();
    const incoming = await bobTab.next('call.incoming');
    bobTab.send({ type: 'call.answer', callId: incoming.callId });
    await bobTab.next('call.state');
    const adaMedia = await MediaClient.connect(`${wsBase}${placed.mediaPath}`, cookieHeader(ada.browser.cookies));
    const bobMedia = await MediaClient.connect(`${wsBase}/api/v1/calls/${incoming.callId}/media`, cookieHeader(bob.browser.cookies));
    adaMedia.sendTone(440, 16_000);
    await until(() => bobMedia.received.length > 5);
    await ada.browser.post(`/api/v1/calls/${placed.call.id}/hangup`);
    await Promise.all([adaMedia.closed, bobMedia.closed]);
    await until(() => linesAbout([placed.call.id]).some((line) => line.msg === 'call ended'));
    bobTab.socket.close();

    const story = linesAbout([placed.call.id, incoming.callId]);
    for (const line of story) {
      expect(line, JSON.stringify(line)).toMatchObject({ callId: placed.call.id, userId: ada.userId });
    }
    // Once the call rings Bob, its lines name him and his own record of it.
    const fromRinging = story.slice(story.findIndex((line) => line.msg === 'ringing the callee'));
    for (const line of fromRinging) {
      expect(line, JSON.stringify(line)).toMatchObject({ calleeUserId: bob.userId, calleeCallId: incoming.callId });
    }
    expect(story.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['call placed', 'ringing the callee', 'call answered', 'browser audio connected', 'call audio joined', 'call ended']),
    );
    expect(story.find((line) => line.msg === 'call ended')).toMatchObject({ outcome: 'completed' });
  });

  it('carry them for a failure too: a realtime message about the call that fails names the user and the call', async () => {
    const ada = await person();
    const adaTab = await RealtimeTab.open(wsBase, ada.browser);
    const unknownCall = crypto.randomUUID();
    adaTab.send({ type: 'call.mute', callId: unknownCall, muted: true });
    await adaTab.next('error');
    adaTab.socket.close();
    const [failed] = linesAbout([unknownCall]);
    expect(failed).toMatchObject({ msg: 'realtime message failed', callId: unknownCall, userId: ada.userId });
  });
});
