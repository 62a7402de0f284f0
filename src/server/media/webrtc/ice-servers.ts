import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IceServer } from '../../../common/media';

/** The STUN and TURN servers of a deployment (STUN_URLS, TURN_URLS, TURN_SECRET; docs/deploy.md#webrtc-media). */
export interface IceServerSettings {
  stunUrls: string[];
  turnUrls: string[];
  /** The TURN server's static-auth-secret, shared with it and never with a browser. */
  turnSecret: string | null;
}

/** Long enough for any one call; short enough that credentials seen by a stranger soon lapse. */
const TURN_CREDENTIAL_LIFETIME_S = 12 * 60 * 60;

/**
 * The ICE servers one user's browser gets: STUN as configured; TURN with short-lived credentials
 * in the "TURN REST API" form that coturn checks with use-auth-secret, so the TURN server needs
 * no list of users and a browser never learns the secret.
 */
export function iceServersFor(userId: string, settings: IceServerSettings, now: Date): IceServer[] {
  const servers: IceServer[] = [];
  if (settings.stunUrls.length > 0) servers.push({ urls: settings.stunUrls });
  if (settings.turnUrls.length > 0) {
    assert(settings.turnSecret, 'TURN URLs need a TURN secret (the configuration reports its absence)');
    const expiry = Math.floor(now.getTime() / 1000) + TURN_CREDENTIAL_LIFETIME_S;
    const username = `${expiry}:${userId}`;
    const credential = createHmac('sha1', settings.turnSecret).update(username).digest('base64');
    servers.push({ urls: settings.turnUrls, username, credential });
  }
  return servers;
}
