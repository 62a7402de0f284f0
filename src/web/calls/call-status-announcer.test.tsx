import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPhoneLibrary } from '../lib/phone-library';
import { idleSnapshot, type CallSnapshot } from './call-snapshot';
import { CallStatusAnnouncer } from './call-status-announcer';

const ringing: CallSnapshot = { ...idleSnapshot, listening: true, phase: 'ringing', direction: 'inbound', callId: 'c1', peer: '+14155550100' };

beforeAll(() => loadPhoneLibrary());

describe('CallStatusAnnouncer', () => {
  it('is an empty live region before any call, so the first change is read out', () => {
    render(<CallStatusAnnouncer call={null} />);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
  });

  it('announces the ringing, the connection and the end of a call, and not the timer', () => {
    const { rerender } = render(<CallStatusAnnouncer call={null} />);
    const region = screen.getByRole('status');
    rerender(<CallStatusAnnouncer call={ringing} />);
    expect(region).toHaveTextContent('Incoming call from +1 (415) 555-0100');
    const active = { ...ringing, phase: 'active', answeredAt: 1 } as const;
    rerender(<CallStatusAnnouncer call={active} />);
    expect(region).toHaveTextContent('Connected to +1 (415) 555-0100');
    rerender(<CallStatusAnnouncer call={{ ...active, isMuted: true }} />);
    expect(region).toHaveTextContent('Connected to +1 (415) 555-0100');
    rerender(<CallStatusAnnouncer call={null} />);
    expect(region).toHaveTextContent('The call has ended');
  });
});
