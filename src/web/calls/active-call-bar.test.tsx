import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ActiveCallBar } from './active-call-bar';
import type { CallFiguresStore } from './call-figures-watch';
import type { CallSnapshot } from './call-snapshot';
import { answeredCall } from './call-snapshot.test-support';
import type { ElapsedSecondsStore } from './elapsed-seconds';

const elapsed: ElapsedSecondsStore = { subscribe: () => () => {}, getSnapshot: () => 65 };
const figures: CallFiguresStore = { subscribe: () => () => {}, getSnapshot: () => null };

function renderBar(fields: Partial<CallSnapshot>) {
  // The plan is not loaded here: the record control waits for it (record-control.test.tsx).
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  render(
    <QueryClientProvider client={client}>
      <ActiveCallBar call={{ ...answeredCall, ...fields }} elapsed={elapsed} figures={figures} onToggleMute={() => {}} onToggleRecording={() => {}} onHangUp={() => {}} />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'Active call' });
}

describe('ActiveCallBar', () => {
  it.each([
    ['webrtc', 'Audio: WebRTC (Opus)'],
    ['websocket-opus', 'Audio: WebSocket (Opus)'],
    ['websocket-pcm', 'Audio: WebSocket (PCM)'],
  ] as const)('says which way the call’s audio travels (%s)', (mediaTransport, text) => {
    renderBar({ mediaTransport });
    expect(screen.getByRole('note', { name: 'Audio path' })).toHaveTextContent(text);
  });

  it('says when the call uses the called contact’s voice preset, and nothing otherwise', () => {
    renderBar({ contactVoice: { contactName: 'Ada', settings: { voiceType: 'normal', pitch: 1.5, speed: 1 } } });
    expect(screen.getByRole('note', { name: 'Voice' })).toHaveTextContent('Voice: Normal Accent, pitch 1.50x, speed 1.00x (from contact Ada)');
  });

  it('says when the callee’s voicemail answered, and nothing of it for a person', () => {
    renderBar({ voicemail: true });
    expect(screen.getByRole('note', { name: 'Answered by' })).toHaveTextContent('Voicemail: leave a message after the beep');
  });

  it('says nothing of voicemail on a call a person answered', () => {
    renderBar({});
    expect(screen.queryByRole('note', { name: 'Answered by' })).not.toBeInTheDocument();
  });

  it('says no voice of a call without a contact preset', () => {
    renderBar({});
    expect(screen.queryByRole('note', { name: 'Voice' })).not.toBeInTheDocument();
  });

  it('says nothing of it until the audio connects', () => {
    const bar = renderBar({ phase: 'connecting', callId: null, answeredAt: null });
    expect(screen.queryByRole('note', { name: 'Audio path' })).not.toBeInTheDocument();
    expect(bar).toHaveTextContent('Calling...');
  });
});
