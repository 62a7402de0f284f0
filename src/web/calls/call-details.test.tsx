import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CallDetails } from './call-details';
import type { CallFigures } from './call-figures';
import type { CallFiguresStore } from './call-figures-watch';

function fakeStore() {
  let latest: CallFigures | null = null;
  const listeners = new Set<() => void>();
  const store: CallFiguresStore = {
    subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    getSnapshot: () => latest,
  };
  const publish = (figures: CallFigures) =>
    act(() => {
      latest = figures;
      for (const listener of listeners) listener();
    });
  return { store, publish };
}

const figure = (term: string) => document.querySelector(`[data-figure="${term}"]`);

describe('CallDetails', () => {
  it('opens from a disclosure button and shows the figures as they change', async () => {
    const { store, publish } = fakeStore();
    render(<CallDetails figures={store} />);
    const toggle = screen.getByRole('button', { name: 'Call details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'Call details' })).toHaveTextContent('Measuring once the call is connected...');

    publish({ transport: 'webrtc', codec: 'Opus', roundTripMs: 41.6, jitterMs: 3, packetsReceived: 1200, packetsLost: 2, lossShare: 0.001, concealedShare: 0.004, micLevel: 0.42, voiceDelayMs: 29, quality: 'good' });
    expect(figure('Quality')).toHaveTextContent('Good');
    expect(figure('Transport')).toHaveTextContent('WebRTC');
    expect(figure('Codec')).toHaveTextContent('Opus');
    expect(figure('Round trip')).toHaveTextContent('42 ms');
    expect(figure('Jitter')).toHaveTextContent('3 ms');
    expect(figure('Packets')).toHaveTextContent('1,200 received, 2 lost');
    expect(figure('Packet loss')).toHaveTextContent('0.1 %');
    expect(figure('Concealed')).toHaveTextContent('0.4 %');
    expect(figure('Voice changer delay')).toHaveTextContent('29 ms');
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toHaveAttribute('aria-valuenow', '42');

    publish({ transport: 'websocket-pcm', codec: 'PCM', packetsReceived: 1250, packetsLost: 0, lossShare: 0, concealedShare: 0.09, micLevel: 0.1, voiceDelayMs: 0, quality: 'poor' });
    expect(figure('Quality')).toHaveTextContent('Poor');
    expect(figure('Round trip')).toHaveTextContent('—');
    expect(figure('Packets')).toHaveTextContent('1,250 received, 0 lost');
    expect(figure('Voice changer delay')).toHaveTextContent('None');
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toHaveAttribute('aria-valuenow', '10');

    await userEvent.click(toggle);
    expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument();
  });
});
