import { and, eq } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { PlaceCallBody, PlaceCallResult } from '../../common/api/calls';
import type { SessionUser } from '../../common/api/session';
import { NARROWBAND_RATE, WIDEBAND_RATE, type CallOutcome, type CallSampleRate } from '../../common/calls';
import { toE164 } from '../../common/phone';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../http/app-error';
import { BrowserLeg } from '../media/browser-leg';
import { EchoParty } from '../media/echo-party';
import type { CallLeg } from '../media/leg';
import { MediaBridge } from '../media/media-bridge';
import { phoneNumbers } from '../numbers/schema';
import { getPreferences } from '../preferences/service';
import type { TelephonyProvider } from '../providers/telephony/telephony-provider';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { finaliseCall, markAnswered, markRinging, toCallRecord } from './call-records';
import { calls } from './schema';
import type { CallTiming } from './timing';

interface LiveCall {
  id: string;
  userId: string;
  sampleRate: CallSampleRate;
  answeredAt: Date | null;
  caller: BrowserLeg | null;
  callee: CallLeg | null;
  bridge: MediaBridge | null;
  muted: boolean;
  timers: Set<NodeJS.Timeout>;
  ending: boolean;
}

export interface CallServiceDependencies {
  db: Database;
  hub: RealtimeHub;
  telephony: TelephonyProvider;
  timing: CallTiming;
  soundTestNumber: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * The one call model (CALLS.md) for calls this server carries: places them, routes `to`, joins
 * the legs through the media bridge, and ends every call exactly once, finalising its record and
 * telling the caller's tabs.
 */
export class CallService {
  private readonly live = new Map<string, LiveCall>();

  constructor(private readonly deps: CallServiceDependencies) {
    deps.hub.on('call.hangup', (user, message) => this.hangup(user.id, message.callId));
    deps.hub.on('call.mute', (user, message) => this.setMuted(user.id, message.callId, message.muted));
  }

  async place(user: SessionUser, body: PlaceCallBody): Promise<PlaceCallResult> {
    const { db } = this.deps;
    const to = toE164(body.to.startsWith('+') ? body.to : `+${body.to}`);
    if (!to) throw AppError.badRequest('Enter a valid phone number to call', 'to');
    const [from] = await db
      .select({ phoneNumber: phoneNumbers.phoneNumber })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.userId, user.id), eq(phoneNumbers.phoneNumber, body.from), eq(phoneNumbers.status, 'rented')));
    if (!from) throw new AppError(400, 'no_phone_number', 'No phone number available', 'from');

    const preferences = await getPreferences(db, user.id);
    const soundTest = to === this.deps.soundTestNumber;
    const [owner] = soundTest ? [] : await db.select({ userId: phoneNumbers.userId }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, to));
    let row: typeof calls.$inferSelect;
    try {
      [row] = (await db
        .insert(calls)
        .values({
          conversationId: crypto.randomUUID(),
          userId: user.id,
          direction: 'outbound',
          fromNumber: from.phoneNumber,
          toNumber: to,
          state: 'dialing',
          metered: !soundTest && !owner,
          hiddenFromHistory: !preferences.callHistory,
        })
        .returning()) as [typeof calls.$inferSelect];
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'call_in_progress', 'Please end the current call before starting a new one');
      throw error;
    }

    const call: LiveCall = {
      id: row.id,
      userId: user.id,
      sampleRate: preferences.dataUsage ? NARROWBAND_RATE : WIDEBAND_RATE,
      answeredAt: null,
      caller: null,
      callee: null,
      bridge: null,
      muted: false,
      timers: new Set(),
      ending: false,
    };
    this.live.set(call.id, call);
    this.after(call, this.deps.timing.mediaConnectTimeoutMs, () => {
      if (!call.caller) void this.end(call, 'failed', 'Your browser did not connect the call audio');
    });

    if (soundTest) {
      await this.answer(call, new EchoParty(call.sampleRate, this.deps.timing.echoDelayMs));
    } else if (owner) {
      await this.end(call, 'unavailable', 'Nobody is taking calls on that number right now');
    } else {
      await this.routeOutside(call);
    }

    const [current] = await db.select().from(calls).where(eq(calls.id, call.id));
    return { call: toCallRecord(current ?? row), mediaPath: `/api/v1/calls/${call.id}/media`, sampleRate: call.sampleRate };
  }

  /** The caller's browser connects the call's audio. */
  async attachBrowser(user: SessionUser, callId: string, socket: WebSocket) {
    const call = this.live.get(callId);
    if (!call || call.userId !== user.id || call.ending) {
      socket.close(4404, 'No such call in progress');
      return;
    }
    if (call.caller) {
      socket.close(4409, 'This call already has its audio connected');
      return;
    }
    const leg = new BrowserLeg(socket, call.sampleRate);
    call.caller = leg;
    leg.onClose(() => void this.end(call, call.answeredAt ? 'completed' : 'cancelled', 'The connection to your browser was lost'));
    this.joinIfReady(call);
  }

  async hangup(userId: string, callId: string) {
    const call = this.live.get(callId);
    if (!call || call.userId !== userId) {
      const row = await this.deps.db.select({ id: calls.id }).from(calls).where(and(eq(calls.id, callId), eq(calls.userId, userId)));
      if (row.length === 0) throw AppError.notFound('No such call');
      return;
    }
    await this.end(call, call.answeredAt ? 'completed' : 'cancelled', null);
  }

  setMuted(userId: string, callId: string, muted: boolean) {
    const call = this.live.get(callId);
    if (!call || call.userId !== userId) throw AppError.notFound('No such call in progress');
    call.muted = muted;
    call.bridge?.setCallerMuted(muted);
  }

  /** Ends every call this server carries (shutdown): records finalised, callers told. */
  async endAll(reason: string) {
    await Promise.all([...this.live.values()].map((call) => this.end(call, call.answeredAt ? 'completed' : 'failed', reason)));
  }

  private async routeOutside(call: LiveCall) {
    if (this.deps.telephony.name !== 'local') {
      await this.end(call, 'failed', 'Calls to outside numbers are not available with this telephony provider yet');
      return;
    }
    await markRinging(this.deps.db, call.id);
    this.deps.hub.send(call.userId, { type: 'call.state', callId: call.id, state: 'ringing' });
    // The virtual carrier answers outside numbers after a moment with an echo.
    this.after(call, this.deps.timing.outsideAnswerDelayMs, () => void this.answer(call, new EchoParty(call.sampleRate, this.deps.timing.echoDelayMs)));
    this.after(call, this.deps.timing.ringTimeoutMs, () => {
      if (!call.answeredAt) void this.end(call, 'no-answer', 'Nobody answered');
    });
  }

  private async answer(call: LiveCall, callee: CallLeg) {
    if (call.ending) return;
    call.callee = callee;
    call.answeredAt = new Date();
    callee.onClose(() => void this.end(call, 'completed', null));
    await markAnswered(this.deps.db, call.id, call.answeredAt);
    this.deps.hub.send(call.userId, { type: 'call.state', callId: call.id, state: 'answered', answeredAt: call.answeredAt.toISOString() });
    this.joinIfReady(call);
  }

  private joinIfReady(call: LiveCall) {
    if (!call.caller || !call.callee || call.bridge) return;
    call.bridge = new MediaBridge(call.caller, call.callee);
    call.bridge.setCallerMuted(call.muted);
  }

  private async end(call: LiveCall, outcome: CallOutcome, reason: string | null) {
    if (call.ending) return;
    call.ending = true;
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
    this.live.delete(call.id);
    call.caller?.close(reason ?? 'Call ended');
    call.callee?.close(reason ?? 'Call ended');
    try {
      const row = await finaliseCall(this.deps.db, call.id, outcome, reason, new Date());
      this.deps.hub.send(call.userId, {
        type: 'call.ended',
        callId: call.id,
        outcome: row?.outcome ?? outcome,
        durationSec: row?.durationSec ?? 0,
        ...(reason ? { reason } : {}),
      });
      this.deps.log.info({ callId: call.id, outcome, durationSec: row?.durationSec }, 'call ended');
    } catch (error) {
      this.deps.log.warn({ err: error, callId: call.id }, 'call could not be finalised');
    }
  }

  private after(call: LiveCall, ms: number, run: () => void) {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      run();
    }, ms);
    call.timers.add(timer);
  }
}
