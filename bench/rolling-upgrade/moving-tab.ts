import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/common/realtime';
import type { VoxlineUser } from '../load/voxline-user';
import { ReconnectPolicy } from '../../src/web/lib/reconnect-policy';
import { UnreachableTime } from './unreachable-time';

const SIGNALLING_TIMEOUT_MS = 20_000;

type CallEnded = Extract<ServerMessage, { type: 'call.ended' }>;

/**
 * A signed-in tab with the Call Receiver on, through the balancer, that moves as the web app's
 * does (src/web/lib/realtime.tsx): told `server.draining`, it closes its signalling socket (once
 * no call holds it) and connects again through the same address after the browser's wait, sending
 * receiver.start again; a socket the server drops is reconnected after the browser's back-off. It
 * answers the call it is told to expect, as a person clicking Answer would.
 */
export class MovingTab {
  readonly unreachable = new UnreachableTime();
  /**
   * `server.draining` messages acted on; of those, the ones within a minute of the one before
   * (the browser then backs off), and the answers to a receiver.start on a socket that had not
   * listened yet (it reached an instance draining before the balancer's poll saw it).
   */
  drains = 0;
  drainedAgain = 0;
  refusedListening = 0;
  /** Open sockets the server closed without a word, and connections that never opened. */
  cutOff = 0;
  failedConnections = 0;
  /** The call this tab answered ended on the server's side (call.ended); the bench's caller decides whether that was the hang-up. */
  onCallEnded: ((message: CallEnded) => void) | null = null;
  private listening = false;
  /** The socket in use has listened. */
  private listened = false;
  private holds = 0;
  private drainPending = false;
  private stopped = false;
  private socket: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private callId: string | null = null;
  private lastDrainAt: number | null = null;
  private firstListen: (() => void) | null = null;
  private readonly reconnection = new ReconnectPolicy();
  private expected: { resolve: (callId: string) => void; reject: (error: Error) => void; callId: string | null; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly url: string,
    readonly owner: VoxlineUser,
  ) {}

  /** Connects and turns the receiver on; resolves once the server first says it listens. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.owner.user.email}: the receiver did not start within ${SIGNALLING_TIMEOUT_MS / 1000} s`)), SIGNALLING_TIMEOUT_MS);
      this.firstListen = () => {
        clearTimeout(timer);
        resolve();
      };
      this.connect();
    });
  }

  /** Listening, and free to take a call: the bench rings only such tabs. */
  get available(): boolean {
    return this.listening && this.holds === 0 && !this.expected && !this.drainPending && !this.stopped;
  }

  /** Waits for the next incoming call, answers it, and resolves with its id once the server says it is answered. */
  expectCall(): Promise<string> {
    if (this.expected) return Promise.reject(new Error(`${this.owner.user.email}: already waiting for a call`));
    const since = performance.now();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const drainedAt = this.lastDrainAt !== null && this.lastDrainAt >= since ? this.lastDrainAt - since : null;
        const why = drainedAt === null ? '' : ` (the tab was told server.draining ${Math.round(drainedAt)} ms after the call was placed)`;
        this.failExpected(new Error(`${this.owner.user.email}: no call rang and was answered within ${SIGNALLING_TIMEOUT_MS / 1000} s${why}`));
      }, SIGNALLING_TIMEOUT_MS);
      this.expected = { resolve, reject, callId: null, timer };
    });
  }

  /** The call expected was not put through. */
  cancelExpectation() {
    this.failExpected(new Error('the call was not put through'));
  }

  /** A call in this tab holds its socket: a drain's reconnection waits for the release, as the browser's does. */
  holdForCall(): () => void {
    this.holds += 1;
    this.note();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      this.callId = null;
      this.onCallEnded = null;
      this.note();
      this.reconnectIfDrained();
    };
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.failExpected(new Error('the bench closed the tab'));
    this.socket?.close(1000, 'bench done');
    this.socket = null;
  }

  /** Reachable: listening, or busy on a call (its listening resumes when the call ends). */
  private note() {
    this.unreachable.update(this.listening || this.holds > 0, performance.now());
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.connect(), delayMs);
  }

  private connect() {
    this.timer = null;
    if (this.stopped) return;
    const socket = new WebSocket(this.url, { headers: this.owner.headers, perMessageDeflate: false });
    this.socket = socket;
    this.listened = false;
    let opened = false;
    socket.on('open', () => {
      opened = true;
      this.reconnection.opened();
      this.drainPending = false;
      socket.send(JSON.stringify({ type: 'receiver.start' }));
    });
    socket.on('message', (data) => this.receive(socket, JSON.parse(data.toString()) as ServerMessage));
    // A close follows every error, and the close is what counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      if (opened) this.cutOff += 1;
      else this.failedConnections += 1;
      this.listening = false;
      this.note();
      this.schedule(this.reconnection.afterDrop());
    });
  }

  private receive(socket: WebSocket, message: ServerMessage) {
    // Only for the socket in use: one already let go of may still deliver what was on its way.
    if (message.type === 'server.draining') {
      if (socket === this.socket) this.drained();
    } else if (message.type === 'receiver.state') {
      if (socket !== this.socket) return;
      this.listening = message.listening;
      this.listened ||= message.listening;
      this.note();
      if (message.listening) {
        this.reconnection.listening();
        this.firstListen?.();
        this.firstListen = null;
      }
    } else {
      this.followCall(message);
    }
  }

  /** The instance drains: it stopped this tab's listening, and the tab moves once no call holds it. */
  private drained() {
    this.drains += 1;
    this.lastDrainAt = performance.now();
    if (this.reconnection.drained(true)) this.drainedAgain += 1;
    if (!this.listened) this.refusedListening += 1;
    this.drainPending = true;
    this.listening = false;
    this.note();
    this.reconnectIfDrained();
  }

  private reconnectIfDrained() {
    const socket = this.socket;
    if (!this.drainPending || this.holds > 0 || this.stopped || !socket) return;
    this.drainPending = false;
    this.socket = null;
    socket.close(1000);
    this.schedule(this.reconnection.afterDrain());
  }

  private followCall(message: ServerMessage) {
    const expected = this.expected;
    if (message.type === 'call.ended' && message.callId === this.callId) {
      this.onCallEnded?.(message);
      return;
    }
    if (!expected) return;
    if (message.type === 'call.incoming' && expected.callId === null) {
      expected.callId = message.callId;
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return this.failExpected(new Error(`${this.owner.user.email}: the call rang while the tab was reconnecting`));
      this.socket.send(JSON.stringify({ type: 'call.answer', callId: message.callId }));
    } else if (message.type === 'call.state' && message.callId === expected.callId && message.state === 'answered') {
      clearTimeout(expected.timer);
      this.expected = null;
      this.callId = message.callId;
      expected.resolve(message.callId);
    } else if ((message.type === 'error' && (!message.callId || message.callId === expected.callId)) || (message.type === 'call.ended' && message.callId === expected.callId)) {
      this.failExpected(new Error(`${this.owner.user.email}: answering failed: ${JSON.stringify(message)}`));
    }
  }

  private failExpected(error: Error) {
    const expected = this.expected;
    if (!expected) return;
    clearTimeout(expected.timer);
    this.expected = null;
    expected.reject(error);
  }
}
