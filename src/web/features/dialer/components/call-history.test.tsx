import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRoute } from '../../../../../tests/support/render-web';
import { stubApi } from '../../../../../tests/support/web-fetch';
import { CallHistory } from './call-history';

const ended = {
  state: 'ended',
  reason: null,
  startedAt: '2026-11-20T10:00:00.000Z',
  answeredAt: '2026-11-20T10:00:01.000Z',
  endedAt: '2026-11-20T10:00:08.000Z',
  mediaTransport: null,
  mediaFigures: null,
};
const outbound = { ...ended, id: 'c1', direction: 'outbound', from: '+14155550123', to: '+19175550177', outcome: 'completed', durationSec: 7 };
const inbound = { ...ended, id: 'c2', direction: 'inbound', from: '+17185550188', to: '+14155550123', outcome: 'rejected', answeredAt: null, durationSec: 0 };

afterEach(() => vi.unstubAllGlobals());

describe('CallHistory', () => {
  it('names each entry with the way the call went, the other number, its status and duration', async () => {
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [outbound, inbound] } } }).fetchStub);
    const onRedial = vi.fn();
    renderWithRoute(<CallHistory onRedial={onRedial} />);

    const outgoing = await screen.findByRole('button', { name: 'Outgoing call to +1 (917) 555-0177, Completed, 0:07' });
    const incoming = screen.getByRole('button', { name: 'Incoming call from +1 (718) 555-0188, Missed, 0:00' });
    expect(incoming).toHaveTextContent('Missed');

    await userEvent.click(outgoing);
    expect(onRedial).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Redial +1 (718) 555-0188' }));
    expect(onRedial).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'c2' }));
  });

  it('links a missed call the caller left a message on to that message', async () => {
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [{ ...inbound, voicemailId: 'vm1' }, outbound] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);
    expect(await screen.findByRole('link', { name: 'Voicemail from +1 (718) 555-0188' })).toHaveAttribute('href', '/voicemail#voicemail-vm1');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('says Voicemail for a placed call the callee’s voicemail took', async () => {
    const toVoicemail = { ...outbound, id: 'c4', to: '+19175550144', reason: 'Voicemail' };
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [toVoicemail, outbound] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Outgoing call to +1 (917) 555-0144, Voicemail, 0:07' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Outgoing call to +1 (917) 555-0177, Completed, 0:07' })).toBeVisible();
  });

  it('says which way a call’s audio travelled, for calls whose audio connected', async () => {
    const overSocket = { ...outbound, id: 'c3', to: '+19175550199', mediaTransport: 'websocket-opus' };
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [{ ...outbound, mediaTransport: 'webrtc' }, overSocket, inbound] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const webrtc = await screen.findByRole('button', { name: 'Outgoing call to +1 (917) 555-0177, Completed, 0:07, Audio: WebRTC (Opus)' });
    expect(webrtc).toHaveTextContent('0:07 · Audio: WebRTC (Opus)');
    expect(screen.getByRole('button', { name: 'Outgoing call to +1 (917) 555-0199, Completed, 0:07, Audio: WebSocket (Opus)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Incoming call from +1 (718) 555-0188, Missed, 0:00' })).not.toHaveTextContent('Audio');
  });

  it('shows the audio figures the browser kept for a call: its quality, averages and worst', async () => {
    const mediaFigures = {
      readings: 8,
      codec: 'Opus',
      roundTripMs: { average: 20, worst: 35 },
      jitterMs: { average: 2, worst: 4 },
      lossShare: { average: 0, worst: 0 },
      concealedShare: { average: 0.01, worst: 0.03 },
      voiceDelayMs: { average: 0, worst: 0 },
      quality: 'good',
      worstQuality: 'fair',
    };
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [{ ...outbound, mediaTransport: 'webrtc', mediaFigures }] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const entry = await screen.findByRole('button', { name: /^Outgoing call to \+1 \(917\) 555-0177, Completed, 0:07, Audio: WebRTC \(Opus\), Quality: Good \(at worst Fair\)/ });
    expect(entry).toHaveTextContent('Quality: Good (at worst Fair) · Opus · round trip 20 ms (worst 35 ms) · jitter 2 ms (worst 4 ms)');
  });

  it('says which voice a past call used and whose preset it was, and nothing for the normal voice', async () => {
    const voice = { settings: { voiceType: 'normal' as const, pitch: 1.5, speed: 1 }, contactName: 'Echo line' };
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [{ ...outbound, voice }, { ...outbound, id: 'plain', voice: null }] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const [withVoice, plain] = await screen.findAllByRole('button', { name: /^Outgoing call to/ });
    expect(withVoice).toHaveTextContent('Voice: Normal Accent, pitch 1.50x, speed 1.00x (from contact Echo line)');
    expect(withVoice).toHaveAccessibleName(/, Voice: Normal Accent, pitch 1\.50x, speed 1\.00x \(from contact Echo line\)$/);
    expect(plain).not.toHaveTextContent('Voice:');
  });

  it('shows a call’s own number as Inactive once it is released or no longer routed to Voxline, and nothing for a number still in use', async () => {
    const owned = (phoneNumber: string, active: boolean) => ({ id: phoneNumber, phoneNumber, friendlyName: null, active, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' });
    const fromReleased = { ...outbound, id: 'c3', from: '+14155550999', to: '+19175550199' };
    const toUnrouted = { ...inbound, id: 'c4', from: '+17185550111', to: '+16465550100' };
    vi.stubGlobal(
      'fetch',
      stubApi({
        '/api/v1/calls': { status: 200, body: { calls: [outbound, fromReleased, toUnrouted] } },
        '/api/v1/numbers': { status: 200, body: { numbers: [owned('+14155550123', true), owned('+16465550100', false)] } },
      }).fetchStub,
    );
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const released = await screen.findByRole('button', { name: 'Outgoing call to +1 (917) 555-0199, Completed, 0:07, line +1 (415) 555-0999 Inactive' });
    expect(released).toHaveTextContent('Line +1 (415) 555-0999Inactive');
    expect(screen.getByRole('button', { name: 'Incoming call from +1 (718) 555-0111, Missed, 0:00, line +1 (646) 555-0100 Inactive' })).toHaveTextContent('Inactive');
    const inUse = screen.getByRole('button', { name: 'Outgoing call to +1 (917) 555-0177, Completed, 0:07' });
    expect(inUse).not.toHaveTextContent('Inactive');
    expect(inUse).not.toHaveTextContent('Line');
  });
});
