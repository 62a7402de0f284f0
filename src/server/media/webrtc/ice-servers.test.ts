import { describe, expect, it } from 'vitest';
import { iceServersFor } from './ice-servers';

const newYear = new Date('2025-01-01T00:00:00Z');
const secret = 'north-wind-secret-0123';

describe('the ICE servers a browser gets', () => {
  it('are none when the deployment names none', () => {
    expect(iceServersFor('user-1', { stunUrls: [], turnUrls: [], turnSecret: null }, newYear)).toEqual([]);
  });

  it('carry STUN URLs as configured, without credentials', () => {
    const stunUrls = ['stun:stun.example.net:3478', 'stun:stun2.example.net'];
    expect(iceServersFor('user-1', { stunUrls, turnUrls: [], turnSecret: null }, newYear)).toEqual([{ urls: stunUrls }]);
  });

  it("give TURN credentials in coturn's TURN REST API form, valid for 12 hours", () => {
    const turnUrls = ['turn:turn.example.net:3478', 'turns:turn.example.net:443?transport=tcp'];
    const servers = iceServersFor('user-1', { stunUrls: ['stun:turn.example.net'], turnUrls, turnSecret: secret }, newYear);
    // The credential as `openssl dgst -sha1 -hmac <secret> -binary | base64` makes it from the username.
    expect(servers).toEqual([
      { urls: ['stun:turn.example.net'] },
      { urls: turnUrls, username: '1735732800:user-1', credential: 'C3lgNg8SGKPYY3rOUa0sZqmc6Kc=' },
    ]);
    expect(new Date(Number(servers[1]!.username!.split(':')[0]) * 1000).toISOString()).toBe('2025-01-01T12:00:00.000Z');
  });

  it('give each user and each moment credentials of their own', () => {
    const settings = { stunUrls: [], turnUrls: ['turn:turn.example.net'], turnSecret: secret };
    const first = iceServersFor('user-1', settings, newYear)[0]!;
    const otherUser = iceServersFor('user-2', settings, newYear)[0]!;
    const later = iceServersFor('user-1', settings, new Date(newYear.getTime() + 60_000))[0]!;
    expect(new Set([first.credential, otherUser.credential, later.credential]).size).toBe(3);
    expect(later.username).toBe('1735732860:user-1');
  });

  it('refuse TURN URLs without a secret', () => {
    expect(() => iceServersFor('user-1', { stunUrls: [], turnUrls: ['turn:turn.example.net'], turnSecret: null }, newYear)).toThrow(/TURN secret/);
  });
});
