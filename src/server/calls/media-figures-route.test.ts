import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallMediaFigures } from '../../common/call-quality';
import { newSignedInUser, rentANumber } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';

const SOUND_TEST = '+14155550100';
let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer(), callTiming: { outsideAnswerDelayMs: 200, echoDelayMs: 100, mediaConnectTimeoutMs: 3_000 } });
});
afterAll(() => testApp.close());

const figures: CallMediaFigures = {
  readings: 12,
  codec: 'Opus',
  roundTripMs: { average: 42, worst: 90 },
  jitterMs: { average: 3, worst: 8 },
  lossShare: { average: 0, worst: 0.02 },
  concealedShare: { average: 0.001, worst: 0.01 },
  voiceDelayMs: { average: 29, worst: 29 },
  quality: 'good',
  worstQuality: 'fair',
};

async function endedCall() {
  const user = await newSignedInUser(testApp.app);
  const from = await rentANumber(user.browser);
  const placed = await user.browser.post('/api/v1/calls', { from, to: SOUND_TEST });
  const callId: string = placed.json().call.id;
  await user.browser.post(`/api/v1/calls/${callId}/hangup`);
  return { ...user, callId };
}

describe('PUT /api/v1/calls/:id/media-figures', () => {
  it('keeps the figures on the call record, for the history', async () => {
    const { browser, callId } = await endedCall();
    expect((await browser.get(`/api/v1/calls/${callId}`)).json().mediaFigures).toBeNull();
    const saved = await browser.request('PUT', `/api/v1/calls/${callId}/media-figures`, figures);
    expect(saved.statusCode, saved.body).toBe(204);
    expect((await browser.get(`/api/v1/calls/${callId}`)).json().mediaFigures).toEqual(figures);
    expect((await browser.get('/api/v1/calls')).json().calls[0].mediaFigures).toEqual(figures);
  });

  it('answers 404 for another user’s call, leaving it alone', async () => {
    const owner = await endedCall();
    const other = await newSignedInUser(testApp.app);
    const refused = await other.browser.request('PUT', `/api/v1/calls/${owner.callId}/media-figures`, figures);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toBe('No such call');
    expect((await owner.browser.get(`/api/v1/calls/${owner.callId}`)).json().mediaFigures).toBeNull();
  });

  it.each([
    ['a quality that is not a word of the scale', { quality: 'great' }, 'quality'],
    ['no readings', { readings: 0 }, 'readings'],
    ['a negative round trip', { roundTripMs: { average: -1, worst: 2 } }, 'roundTripMs.average'],
    ['an unknown field', { extra: true }, undefined],
  ])('refuses %s with 400 naming it', async (_label, change, field) => {
    const { browser, callId } = await endedCall();
    const refused = await browser.request('PUT', `/api/v1/calls/${callId}/media-figures`, { ...figures, ...change });
    expect(refused.statusCode, refused.body).toBe(400);
    if (field) expect(refused.json().error.field).toBe(field);
  });
});
