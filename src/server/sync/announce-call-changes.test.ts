import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/realtime';
import type { InboundCall } from '../calls/live-calls';
import { announceCallEnded } from './announce-call-changes';

function recordingHub() {
  const sent: { userId: string; message: ServerMessage }[] = [];
  return { sent, send: (userId: string, message: ServerMessage) => void sent.push({ userId, message }) };
}

const inbound = (userId: string) => ({ userId }) as InboundCall;

describe('announceCallEnded', () => {
  it('reloads the history of the caller and of the Voxline user the call rang', () => {
    const hub = recordingHub();
    announceCallEnded(hub, { userId: 'caller', inbound: inbound('callee') });
    expect(hub.sent).toEqual([
      { userId: 'caller', message: { type: 'sync', topics: ['history'] } },
      { userId: 'callee', message: { type: 'sync', topics: ['history'] } },
    ]);
  });

  it('tells only the callee of a call from outside Voxline, and a user who called themselves once', () => {
    const fromOutside = recordingHub();
    announceCallEnded(fromOutside, { userId: null, inbound: inbound('callee') });
    expect(fromOutside.sent.map((one) => one.userId)).toEqual(['callee']);
    const toThemselves = recordingHub();
    announceCallEnded(toThemselves, { userId: 'same', inbound: inbound('same') });
    expect(toThemselves.sent.map((one) => one.userId)).toEqual(['same']);
  });
});
