import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newSignedInUser } from '../../../tests/support/accounts';
import { cookieHeader } from '../../../tests/support/media-client';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';

let testApp: TestApp;
let url: string;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
  url = `${(await testApp.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/api/v1/realtime`;
});
afterAll(() => testApp.close());

function open(cookie: string) {
  const socket = new WebSocket(url, { headers: { cookie, origin: 'http://localhost:3000' } });
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
  });
}

const nextMessage = (socket: WebSocket) => new Promise<unknown>((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));

describe('/api/v1/realtime', () => {
  it('refuses a signed-out upgrade with 401', async () => {
    await expect(open('')).rejects.toThrow('upgrade refused: 401');
  });

  it('answers a message it does not understand with an error, and keeps the socket open', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const socket = await open(cookieHeader(browser.cookies));
    socket.send('not json');
    expect(await nextMessage(socket)).toEqual({ type: 'error', code: 'bad_message', message: 'That message is not one Voxline understands' });
    socket.send(JSON.stringify({ type: 'call.hangup' }));
    expect(await nextMessage(socket)).toMatchObject({ type: 'error', code: 'bad_message' });
    socket.send(JSON.stringify({ type: 'call.mute', callId: '6f1c1c9e-0000-4000-8000-000000000000', muted: true }));
    expect(await nextMessage(socket)).toEqual({ type: 'error', code: 'failed', message: 'No such call in progress', callId: '6f1c1c9e-0000-4000-8000-000000000000' });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
