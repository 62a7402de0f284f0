import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { openMediaSocket, sleep } from '../media/load';
import type { VoxlineUser } from '../load/voxline-user';
import { CallAudio } from './call-audio';
import { placeCall } from './call-placement';
import type { CallObservation, DirectionFrames } from './call-tally';
import type { MovingTab } from './moving-tab';

/** How often the stream looks for a free caller and callee when it is short of calls. */
const FILL_EVERY_MS = 250;
/** Between both media sockets opening and the first frame: the server joins the second leg to the first. */
const SETTLE_MS = 500;
/** How long the frames still on their way get before the caller hangs up. */
const IN_FLIGHT_MS = 1_000;
/** A call the run's end catches before its audio began still carries this much, so that its audio is checked. */
const LAST_CALL_MS = 1_000;

interface CallStreamOptions {
  /** The balancer's address: every request and socket goes through it. */
  baseUrl: string;
  /** Calls to keep up. */
  calls: number;
  /** Each call lasts a random time in this range. */
  minCallMs: number;
  maxCallMs: number;
  random?: () => number;
}

const noFrames = (): DirectionFrames => ({ sent: 0, received: 0, foreign: 0, longestGapMs: 0, longestGapEndedAt: null });

/**
 * A steady stream of calls between Voxline users through the balancer: `calls` are kept up, each
 * from a free caller to a listening tab, answered, audio both ways for a random length, then hung
 * up by the caller; a new one is placed as each ends. Everything seen of each call is kept for
 * call-tally.ts.
 */
export class CallStream {
  readonly observations: CallObservation[] = [];
  private active = 0;
  private running = false;
  private placedCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly idleCallers: VoxlineUser[];
  private readonly ringing = new Set<MovingTab>();
  private readonly audios = new Set<CallAudio>();
  private readonly calls = new Set<Promise<void>>();
  private readonly random: () => number;

  constructor(
    private readonly options: CallStreamOptions,
    callers: VoxlineUser[],
    private readonly tabs: MovingTab[],
  ) {
    this.idleCallers = [...callers];
    this.random = options.random ?? Math.random;
  }

  /** Calls under way: being placed, ringing, or up. */
  get up(): number {
    return this.active;
  }

  start() {
    this.running = true;
    this.timer = setInterval(() => this.fill(), FILL_EVERY_MS);
    this.fill();
  }

  /** Places no new call; the calls up end now (their callers hang up), and resolves once all have. */
  async stop() {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    for (const audio of this.audios) audio.stop();
    while (this.calls.size > 0) await Promise.all([...this.calls]);
  }

  private fill() {
    while (this.running && this.active < this.options.calls) {
      const free = this.tabs.filter((tab) => tab.available && !this.ringing.has(tab));
      const caller = this.idleCallers.shift();
      if (!caller) return;
      if (free.length === 0) {
        this.idleCallers.unshift(caller);
        return;
      }
      const callee = free[Math.floor(this.random() * free.length)]!;
      const { minCallMs, maxCallMs } = this.options;
      const durationMs = minCallMs + this.random() * (maxCallMs - minCallMs);
      this.active += 1;
      this.ringing.add(callee);
      const call = this.runCall(this.placedCount++, caller, callee, durationMs).finally(() => {
        this.active -= 1;
        this.ringing.delete(callee);
        this.idleCallers.push(caller);
        this.calls.delete(call);
      });
      this.calls.add(call);
    }
  }

  private async runCall(number: number, caller: VoxlineUser, tab: MovingTab, durationMs: number) {
    const { baseUrl } = this.options;
    const observation: CallObservation = {
      refusals: 0,
      heldBy: null,
      placedAt: null,
      hungUpAt: null,
      notPlaced: null,
      notConnected: null,
      endedByServer: null,
      hangup: null,
      callerToCallee: noFrames(),
      calleeToCaller: noFrames(),
    };
    this.observations.push(observation);
    const answered = tab.expectCall();
    // A call not put through leaves the tab waiting: its rejection is handled here, not left unhandled.
    answered.catch(() => {});
    const placement = await placeCall(baseUrl, caller, tab.owner.phoneNumber!).catch((error: unknown) => ({ placed: null, heldBy: null, refusals: 0, problem: String(error) }));
    observation.refusals = placement.refusals;
    observation.heldBy = placement.heldBy;
    const placed = placement.placed;
    if (!placed || placed.call.state === 'ended') {
      tab.cancelExpectation();
      observation.notPlaced = placed ? `put through but ended at once: ${placed.call.outcome}, "${placed.call.reason}"` : placement.problem;
      return;
    }
    observation.placedAt = performance.now();

    let hangingUp = false;
    const endedByServer = (why: string) => {
      if (!hangingUp) observation.endedByServer ??= why;
    };
    const sockets: WebSocket[] = [];
    const watch = (socket: WebSocket, side: string) => {
      sockets.push(socket);
      socket.on('close', (code, reason) => endedByServer(`the ${side}'s media socket was closed by the server (${code} ${reason.toString()})`));
      return socket;
    };
    let release: (() => void) | null = null;
    let audio: CallAudio | null = null;
    try {
      const callerSocket = watch(await openMediaSocket(caller.mediaTarget(baseUrl, placed.mediaPath, 'pcm')), 'caller');
      const calleeCallId = await answered;
      release = tab.holdForCall();
      tab.onCallEnded = (message) => endedByServer(`call.ended on the callee's tab before the hang-up (${message.outcome}, "${message.reason ?? ''}")`);
      const calleeSocket = watch(await openMediaSocket(tab.owner.mediaTarget(baseUrl, `/api/v1/calls/${calleeCallId}/media`, 'pcm')), 'callee');
      await sleep(SETTLE_MS);
      audio = new CallAudio(callerSocket, calleeSocket, number, this.running ? durationMs : LAST_CALL_MS);
      this.audios.add(audio);
      await audio.run();
      const frames = await audio.finish(IN_FLIGHT_MS);
      observation.callerToCallee = frames.callerToCallee;
      observation.calleeToCaller = frames.calleeToCaller;
    } catch (error) {
      tab.cancelExpectation();
      observation.notConnected = error instanceof Error ? error.message : String(error);
    } finally {
      if (audio) this.audios.delete(audio);
    }
    hangingUp = true;
    observation.hangup = await this.hangUp(caller, placed.call.id);
    observation.hungUpAt = performance.now();
    for (const socket of sockets) socket.close(1000, 'hung up');
    release?.();
  }

  private async hangUp(caller: VoxlineUser, callId: string): Promise<CallObservation['hangup']> {
    try {
      const response = await fetch(`${this.options.baseUrl}/api/v1/calls/${callId}/hangup`, { method: 'POST', headers: caller.headers });
      const record = (await response.json()) as { outcome?: string | null; reason?: string | null };
      return { status: response.status, outcome: record.outcome ?? null, reason: record.reason ?? null };
    } catch (error) {
      return { status: 0, outcome: null, reason: `the hang-up failed: ${String(error)}` };
    }
  }
}
