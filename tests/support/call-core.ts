import { randomUUID } from 'node:crypto';
import { onTestFinished } from 'vitest';
import { LocalBus } from '../../src/server/bus/local-bus';
import type { CallLog } from '../../src/server/calls/call-log';
import { CallRouting } from '../../src/server/calls/call-routing';
import { LiveCalls } from '../../src/server/calls/live-calls';
import { ProviderSide } from '../../src/server/calls/provider-calls';
import { defaultCallTiming, type CallTiming } from '../../src/server/calls/timing';
import { UserRinging } from '../../src/server/calls/user-ringing';
import type { Database } from '../../src/server/db/client';
import { createLocalCarrier } from '../../src/server/providers/telephony/local/local-carrier';
import type { TelephonyProvider } from '../../src/server/providers/telephony/telephony-provider';
import { MemoryPresence } from '../../src/server/realtime/presence';
import { RealtimeHub } from '../../src/server/realtime/realtime-hub';
import type { VoicemailAnswering } from '../../src/server/voicemail/voicemail-answering';

const log: CallLog = { info: () => {}, warn: () => {}, child: () => log };

interface CallCoreOptions {
  timing?: CallTiming;
  /** The phone network: the virtual carrier unless the test fakes a provider. */
  telephony?: TelephonyProvider;
  /** Takes the calls nobody answers; without it they end as missed. */
  voicemail?: (hub: RealtimeHub) => VoicemailAnswering;
}

/**
 * One instance's call core on `db`, assembled as CallService does: the real hub on a bus of its
 * own, live calls, routing, user ringing and the provider side. Called inside a test: when the
 * test finishes, its calls end and its hub closes.
 */
export function callCore(db: Database, { timing = defaultCallTiming, telephony = createLocalCarrier(), voicemail }: CallCoreOptions = {}) {
  const bus = new LocalBus();
  const hub = new RealtimeHub({ log, bus, presence: new MemoryPresence() });
  const instanceId = randomUUID();
  const live = new LiveCalls({ db, hub, log });
  const routing = new CallRouting({ db, hub, bus, instanceId, live, log });
  const ringing = new UserRinging({ db, hub, timing, instanceId, live, routing, voicemail: voicemail?.(hub) });
  const provider = new ProviderSide({ db, telephony, timing, providerCallbackUrl: 'https://voxline.example', live, ringing, routing });
  onTestFinished(async () => {
    await live.endAll('The test is over');
    hub.close();
  });
  return { hub, instanceId, timing, live, routing, ringing, provider };
}
