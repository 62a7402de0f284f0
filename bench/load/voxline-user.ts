import WebSocket from 'ws';
import type { PlaceCallResult } from '../../src/common/api/calls';
import { WIDEBAND_RATE } from '../../src/common/calls';
import type { SocketCodec } from '../../src/common/media';
import type { ServerMessage } from '../../src/common/realtime';
import { mediaSocketUrl, type MediaTarget } from '../media/load';
import { BENCH_ORIGIN, type BenchUser } from '../media/protocol';

const RENT_ATTEMPTS = 5;
const SIGNALLING_TIMEOUT_MS = 20_000;
// Without a pattern the virtual carrier offers every user the same few hundred US numbers; these
// spread the renters over 12 area codes × 8 exchanges, far more than the benches rent at once.
const US_AREA_CODES = ['212', '213', '312', '415', '617', '202', '305', '404', '512', '646', '702', '206'];
const NUMBER_PATTERNS = US_AREA_CODES.flatMap((areaCode) => ['2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => `${areaCode}${digit}`));

/** What the `index`-th renter of a run asks the virtual carrier for (rentNumber's `pattern`). */
export function numberPattern(index: number): string {
  return NUMBER_PATTERNS[index % NUMBER_PATTERNS.length]!;
}

/** A bench user's side of the HTTP API on one instance, as the web app calls it. */
export class VoxlineUser {
  phoneNumber: string | null = null;

  constructor(readonly user: BenchUser) {}

  get headers() {
    return { cookie: this.user.cookie, origin: BENCH_ORIGIN };
  }

  private async request<T>(baseUrl: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new HttpError(`${method} ${path} as ${this.user.email}: ${response.status} ${text}`, response.status);
    return JSON.parse(text) as T;
  }

  /**
   * Rents the first US number the virtual carrier offers starting with `pattern` (users renting at
   * the same time give different ones); another try with a fresh list when it was taken meanwhile.
   */
  async rentNumber(baseUrl: string, pattern: string) {
    for (let attempt = 0; ; attempt += 1) {
      const { numbers } = await this.request<{ numbers: { phoneNumber: string }[] }>(baseUrl, 'GET', `/api/v1/numbers/available?country=US&pattern=${pattern}`);
      const offer = numbers[0];
      if (!offer) throw new Error(`the virtual carrier offered no US number starting with ${pattern}`);
      try {
        const rented = await this.request<{ phoneNumber: string }>(baseUrl, 'POST', '/api/v1/numbers', { country: 'US', phoneNumber: offer.phoneNumber });
        this.phoneNumber = rented.phoneNumber;
        return;
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 409 || attempt + 1 >= RENT_ATTEMPTS) throw error;
      }
    }
  }

  /** Turns the "Record calls" preference on, as Settings does: the user's calls are recorded from their answer. */
  async recordEveryCall(baseUrl: string) {
    const saved = await this.request<{ recordCalls: boolean }>(baseUrl, 'PATCH', '/api/v1/preferences', { recordCalls: true });
    if (!saved.recordCalls) throw new Error(`${this.user.email}: "Record calls" did not stay on`);
  }

  /**
   * Calls `to` from this user's number; answers the call's id and where to connect its audio in
   * `codec`. A voice notice means the saved voice was set aside, so the voice changer would not be
   * measured.
   */
  async placeCall(baseUrl: string, to: string, codec: SocketCodec): Promise<{ callId: string; media: MediaTarget }> {
    if (!this.phoneNumber) throw new Error(`${this.user.email} has no number`);
    const placed = await this.request<PlaceCallResult>(baseUrl, 'POST', '/api/v1/calls', { from: this.phoneNumber, to });
    // The callee's tab may have answered before the call's record was read back for the reply.
    if (!['ringing', 'answered'].includes(placed.call.state) || placed.sampleRate !== WIDEBAND_RATE || placed.voiceNotice !== undefined) {
      throw new Error(`the call to ${to} was not put through as asked: ${JSON.stringify(placed)}`);
    }
    return { callId: placed.call.id, media: this.mediaTarget(baseUrl, placed.mediaPath, codec) };
  }

  mediaTarget(baseUrl: string, mediaPath: string, codec: SocketCodec): MediaTarget {
    return { url: mediaSocketUrl(baseUrl, mediaPath, codec), headers: this.headers };
  }
}

class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * A signed-in tab with the Call Receiver on (/api/v1/realtime, receiver.start). It answers the
 * calls it is told to expect, as a person clicking Answer would.
 */
export class ListeningTab {
  /** The socket closed before the bench closed it. */
  dropped = false;
  private closing = false;
  private expected: { resolve: (callId: string) => void; reject: (error: Error) => void; callId: string | null; timer: NodeJS.Timeout } | null = null;

  private constructor(
    private readonly socket: WebSocket,
    readonly owner: VoxlineUser,
  ) {
    socket.on('message', (data) => this.receive(JSON.parse(data.toString()) as ServerMessage));
    socket.on('close', () => {
      if (this.closing) return;
      this.dropped = true;
      this.fail(new Error(`${owner.user.email}'s listening tab was closed by the server`));
    });
  }

  /** Opens the tab's signalling socket and turns the receiver on; resolves once the server says it listens. */
  static open(baseUrl: string, owner: VoxlineUser): Promise<ListeningTab> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/v1/realtime`, { headers: owner.headers, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${owner.user.email}: the receiver did not start`)), SIGNALLING_TIMEOUT_MS);
      const started = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as ServerMessage;
        if (message.type === 'error') reject(new Error(`${owner.user.email}: receiver.start failed: ${message.message}`));
        if (message.type !== 'receiver.state' || !message.listening) return;
        clearTimeout(timer);
        socket.off('message', started);
        resolve(new ListeningTab(socket, owner));
      };
      socket.on('message', started);
      socket.once('open', () => {
        socket.on('error', () => {});
        socket.send(JSON.stringify({ type: 'receiver.start' }));
      });
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`${owner.user.email}: signalling upgrade refused with ${response.statusCode}`)));
    });
  }

  /** Waits for the next incoming call, answers it, and resolves with its id once the server says it is answered. */
  answerNextCall(): Promise<string> {
    if (this.expected) return Promise.reject(new Error('already waiting for a call'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`${this.owner.user.email}: no call rang and was answered in time`)), SIGNALLING_TIMEOUT_MS);
      this.expected = { resolve, reject, callId: null, timer };
    });
  }

  close() {
    this.closing = true;
    this.socket.close(1000, 'bench done');
  }

  private receive(message: ServerMessage) {
    const expected = this.expected;
    if (!expected) return;
    if (message.type === 'call.incoming' && expected.callId === null) {
      expected.callId = message.callId;
      this.socket.send(JSON.stringify({ type: 'call.answer', callId: message.callId }));
    } else if (message.type === 'call.state' && message.callId === expected.callId && message.state === 'answered') {
      clearTimeout(expected.timer);
      this.expected = null;
      expected.resolve(message.callId);
    } else if ((message.type === 'error' && (!message.callId || message.callId === expected.callId)) || (message.type === 'call.ended' && message.callId === expected.callId)) {
      this.fail(new Error(`${this.owner.user.email}: answering failed: ${JSON.stringify(message)}`));
    }
  }

  private fail(error: Error) {
    const expected = this.expected;
    if (!expected) return;
    clearTimeout(expected.timer);
    this.expected = null;
    expected.reject(error);
  }
}
