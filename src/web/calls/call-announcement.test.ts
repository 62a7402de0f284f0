import { beforeAll, describe, expect, it } from 'vitest';
import { loadPhoneLibrary } from '../lib/phone-library';
import { callAnnouncement } from './call-announcement';

// Announcements name the number formatted, as they do once the page has loaded the phone library.
beforeAll(() => loadPhoneLibrary());

const idle = { phase: 'idle', direction: null, peer: '' } as const;
const peer = '+14155550100';

describe('callAnnouncement', () => {
  it('follows a placed call: calling, ringing, connected, ended', () => {
    const connecting = { phase: 'connecting', direction: 'outbound', peer } as const;
    const ringing = { ...connecting, phase: 'ringing' } as const;
    const active = { ...connecting, phase: 'active' } as const;
    expect(callAnnouncement(idle, connecting)).toBe('Calling +1 (415) 555-0100');
    expect(callAnnouncement(connecting, ringing)).toBe('Ringing +1 (415) 555-0100');
    expect(callAnnouncement(ringing, active)).toBe('Connected to +1 (415) 555-0100');
    expect(callAnnouncement(active, idle)).toBe('The call has ended');
  });

  it('follows a received call: incoming, answering, connected', () => {
    const ringing = { phase: 'ringing', direction: 'inbound', peer } as const;
    expect(callAnnouncement(idle, ringing)).toBe('Incoming call from +1 (415) 555-0100');
    expect(callAnnouncement(ringing, { ...ringing, phase: 'answering' })).toBe('Answering the call from +1 (415) 555-0100');
    expect(callAnnouncement({ ...ringing, phase: 'answering' }, { ...ringing, phase: 'active' })).toBe('Connected to +1 (415) 555-0100');
  });

  it('says nothing while the phase stays the same, so the ticking timer is never read out', () => {
    const active = { phase: 'active', direction: 'outbound', peer } as const;
    expect(callAnnouncement(active, active)).toBeNull();
    expect(callAnnouncement(idle, idle)).toBeNull();
  });
});
