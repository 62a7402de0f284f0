import { createHash, createHmac, randomUUID, verify, type KeyObject } from 'node:crypto';
import type http from 'node:http';
import WebSocket from 'ws';
import { FRAME_MS } from '../../../src/common/calls';
import { sine } from '../../support/dsp/analysis';
import { float32ToInt16 } from '../../../src/dsp/pcm';
import { FAKE_API_KEY } from './vonage-numbers-fake';
import { startFakeHttpServer, type FakeHttpServer } from '../fake-http-server';

/**
 * A fake of Vonage's Voice API (https://api.nexmo.com) for calls that connect to a websocket
 * (docs/providers.md#vonage-voice): POST /v1/calls with a JWT bearer (RS256, the application's key) and an
 * NCCO, signed event webhooks (HS256 with the signature secret, payload_hash of the body) to the
 * call's event_url, the websocket opened to the NCCO's uri once the far side answers (a first JSON
 * text message, then 20 ms binary frames both ways at real-time pace: the far side speaks a tone
 * and everything it hears is kept), PUT /v1/calls/{uuid} {action:'hangup'}, and touch-tones both
 * ways: PUT /v1/calls/{uuid}/dtmf {digits} (kept in `dtmfReceived`), and the far side's key presses
 * as `websocket:dtmf` text messages (`pressKeys`). Tests script the far side through the
 * FakeVoiceCall that `nextCall()` gives them.
 */

export const FAKE_SIGNATURE_SECRET = 'fake-signature-secret-of-the-account';

export interface VonageVoiceFakeOptions {
  applicationId: string;
  /** The application's public key: each request's JWT must be signed with its private key. */
  publicKey: string | KeyObject;
  apiKey?: string;
  signatureSecret?: string;
}

export interface WebhookClaims {
  iat?: number;
  jti?: string;
  apiKey?: string;
  applicationId?: string;
  /** Overrides the SHA-256 of the body (a tampered body). */
  payloadHash?: string;
}

const base64url = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

/** Signs a webhook body as Vonage does: `Authorization: Bearer <this>`. */
export function signWebhook(body: string, secret: string, claims: WebhookClaims = {}): string {
  const header = base64url({ alg: 'HS256', typ: 'JWT' });
  const payload = base64url({
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    jti: claims.jti ?? randomUUID(),
    iss: 'Vonage',
    api_key: claims.apiKey ?? FAKE_API_KEY,
    application_id: claims.applicationId,
    payload_hash: claims.payloadHash ?? createHash('sha256').update(body).digest('hex'),
  });
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64url(signature)}`;
}

export type FakeCallStatus = 'started' | 'ringing' | 'answered' | 'completed' | 'busy' | 'cancelled' | 'unanswered' | 'rejected' | 'failed' | 'timeout';
const FINAL_STATUSES = new Set<FakeCallStatus>(['completed', 'busy', 'cancelled', 'unanswered', 'rejected', 'failed', 'timeout']);

export interface WebsocketEndpoint {
  type: 'websocket';
  uri: string;
  'content-type'?: string;
  headers?: Record<string, unknown>;
}

export interface NccoAction {
  action: string;
  endpoint?: WebsocketEndpoint[];
  text?: string;
  eventUrl?: string[];
}

export interface CreateCallBody {
  to: { type: string; number?: string }[];
  from?: { type: string; number?: string };
  ncco?: NccoAction[];
  answer_url?: string[];
  event_url?: string[];
  ringing_timer?: number;
  [field: string]: unknown;
}

export interface SentEvent {
  status: FakeCallStatus;
  detail?: string;
  /** The HTTP status our server answered (0: no answer). */
  answeredWith: number;
}

export interface RecordedVoiceRequest {
  method: string;
  path: string;
  body: unknown;
  /** What was wrong with the bearer token, or null when it was a valid one for the application. */
  authProblem: string | null;
}

interface FakeAnswer {
  status: number;
  body?: unknown;
}

const problem = (status: number, title: string, detail: string, extra: object = {}): FakeAnswer => ({
  status,
  body: { type: `https://developer.nexmo.com/api-errors#${title.toLowerCase().replace(/\s+/g, '-')}`, title, detail, instance: randomUUID(), ...extra },
});

/** One call the fake is carrying: the far side a test scripts. */
export class FakeVoiceCall {
  readonly uuid = randomUUID();
  readonly conversationUuid = `CON-${randomUUID()}`;
  status: FakeCallStatus = 'started';
  readonly events: SentEvent[] = [];
  /** Binary frames our server sent down the websocket, of the right size. */
  readonly received: Int16Array[] = [];
  wrongSizeFrames = 0;
  /** Text messages our server sent down the websocket. */
  readonly textReceived: string[] = [];
  socket: WebSocket | null = null;
  /** The HTTP status with which our server refused the websocket upgrade, if it did. */
  mediaRefusedWith: number | null = null;
  /** What was said to this side through `talk` actions (an answer NCCO, a transfer). */
  readonly spoken: string[] = [];
  /** The digits of each PUT /v1/calls/{uuid}/dtmf, as played to this side. */
  readonly dtmfReceived: string[] = [];
  direction: 'outbound' | 'inbound' = 'outbound';
  private answeredAt: Date | null = null;
  private ringTimer: NodeJS.Timeout | null = null;
  private toneTimer: NodeJS.Timeout | null = null;
  private delivery: Promise<void> = Promise.resolve();

  constructor(
    private readonly fake: VonageVoiceFake,
    readonly request: CreateCallBody,
  ) {}

  get websocketEndpoint(): WebsocketEndpoint {
    const endpoint = this.request.ncco?.find((action) => action.action === 'connect')?.endpoint?.find((candidate) => candidate.type === 'websocket');
    if (!endpoint) throw new Error('the NCCO connects no websocket');
    return endpoint;
  }

  get isOver() {
    return FINAL_STATUSES.has(this.status);
  }

  /** The far side picks up: `answered`, then the websocket opens and the far side speaks `toneHz`. */
  async answer(toneHz = 600) {
    if (this.status !== 'ringing' && this.status !== 'started') throw new Error(`cannot answer a call that is ${this.status}`);
    this.clearRingTimer();
    this.status = 'answered';
    this.answeredAt = new Date();
    await this.emit('answered');
    await this.connectMedia(toneHz);
  }

  busy() {
    return this.finish('busy');
  }

  reject(detail: 'declined' | 'invalid_number' | 'restricted' = 'declined') {
    return this.finish('rejected', detail);
  }

  fail(detail: 'cannot_route' | 'number_out_of_service' | 'internal_error' = 'cannot_route') {
    return this.finish('failed', detail);
  }

  unanswered(detail: 'timeout' | 'unavailable' = 'unavailable') {
    return this.finish('unanswered', detail);
  }

  /** The far side presses keys: one `websocket:dtmf` text message per key, as Vonage sends them. */
  pressKeys(digits: string) {
    if (this.socket?.readyState !== WebSocket.OPEN) throw new Error('the call has no open websocket');
    for (const digit of digits) this.socket.send(JSON.stringify({ event: 'websocket:dtmf', digit, duration: 260 }));
  }

  /** The far side hangs up. */
  hangUp() {
    return this.finish('completed');
  }

  /** Resolves once every event so far has been delivered. */
  delivered() {
    return this.delivery;
  }

  /** The audio our server sent, from frame `from` on, as Float32 samples. */
  audio(from = 0): Float32Array {
    const frames = this.received.slice(from);
    const out = new Float32Array(frames.reduce((n, frame) => n + frame.length, 0));
    let offset = 0;
    for (const frame of frames) {
      for (let i = 0; i < frame.length; i += 1) out[offset + i] = frame[i]! / 32768;
      offset += frame.length;
    }
    return out;
  }

  /**
   * @internal An inbound call runs the NCCO our answer webhook gave: `talk` is said and ends the
   * call; `connect` answers it and opens the websocket, over which this side speaks `toneHz`.
   */
  async runAnswerNcco(ncco: NccoAction[], toneHz: number) {
    this.request.ncco = ncco;
    const talk = ncco.find((action) => action.action === 'talk');
    if (talk) {
      this.spoken.push(talk.text ?? '');
      await this.finish('completed');
      return;
    }
    this.status = 'answered';
    this.answeredAt = new Date();
    await this.emit('answered');
    await this.connectMedia(toneHz);
  }

  /** @internal Starts ringing, as Vonage does right after accepting the call. */
  start() {
    void this.emit('started');
    this.status = 'ringing';
    void this.emit('ringing');
    if (this.fake.ringsForever) return;
    const ringingSec = typeof this.request.ringing_timer === 'number' ? this.request.ringing_timer : 60;
    this.ringTimer = setTimeout(() => void this.finish('timeout'), ringingSec * 1000);
  }

  /** @internal Ends the call with a final status: the socket closes and the event is sent. */
  finish(status: FakeCallStatus, detail?: string): Promise<void> {
    if (this.isOver) return this.delivery;
    this.status = status;
    this.clearRingTimer();
    this.stopTone();
    if (this.socket && (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)) this.socket.close(1000, 'call ended');
    return this.emit(status, detail);
  }

  /** @internal */
  stop() {
    this.clearRingTimer();
    this.stopTone();
    this.socket?.terminate();
  }

  private emit(status: FakeCallStatus, detail?: string): Promise<void> {
    const now = new Date();
    const body: Record<string, unknown> = {
      from: this.request.from?.number,
      to: this.request.to[0]?.number,
      uuid: this.uuid,
      conversation_uuid: this.conversationUuid,
      status,
      direction: this.direction,
      timestamp: now.toISOString(),
      ...(detail ? { detail } : {}),
    };
    if (status === 'completed') {
      const started = this.answeredAt ?? now;
      Object.assign(body, {
        start_time: started.toISOString(),
        end_time: now.toISOString(),
        duration: String(Math.round((now.getTime() - started.getTime()) / 1000)),
        rate: '0.01270000',
        price: '0.00021167',
        network: '310260',
      });
    }
    const sent: SentEvent = { status, ...(detail ? { detail } : {}), answeredWith: 0 };
    this.events.push(sent);
    this.delivery = this.delivery.then(async () => {
      sent.answeredWith = await this.fake.deliverEvent(this.request.event_url?.[0], JSON.stringify(body));
    });
    return this.delivery;
  }

  private async connectMedia(toneHz: number) {
    const endpoint = this.websocketEndpoint;
    const contentType = endpoint['content-type'] ?? 'audio/l16;rate=16000';
    const sampleRate = Number(/rate=(\d+)/.exec(contentType)?.[1] ?? 16_000);
    const socket = new WebSocket(endpoint.uri);
    this.socket = socket;
    const frameBytes = (sampleRate / 1000) * FRAME_MS * 2;
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) {
        this.textReceived.push(data.toString('utf8'));
        return;
      }
      if (data.length !== frameBytes) {
        this.wrongSizeFrames += 1;
        return;
      }
      const frame = new Int16Array(data.length / 2);
      new Uint8Array(frame.buffer).set(data);
      this.received.push(frame);
    });
    // Our NCCO has nothing after `connect`: when the socket goes, the call is over.
    socket.on('close', () => void this.finish('completed'));
    socket.on('error', () => {});
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('unexpected-response', (_request, response) => {
        this.mediaRefusedWith = response.statusCode ?? 0;
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });
    if (!opened) {
      await this.finish('completed');
      return;
    }
    socket.send(JSON.stringify({ event: 'websocket:connected', 'content-type': contentType, ...endpoint.headers }));
    const samples = (sampleRate / 1000) * FRAME_MS;
    let index = 0;
    this.toneTimer = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      const tone = sine(toneHz, sampleRate, samples, 0.5, (2 * Math.PI * toneHz * index * samples) / sampleRate);
      index += 1;
      socket.send(Buffer.from(float32ToInt16(tone).buffer), { binary: true });
    }, FRAME_MS);
  }

  private clearRingTimer() {
    if (this.ringTimer) clearTimeout(this.ringTimer);
    this.ringTimer = null;
  }

  private stopTone() {
    if (this.toneTimer) clearInterval(this.toneTimer);
    this.toneTimer = null;
  }
}

export class VonageVoiceFake {
  readonly requests: RecordedVoiceRequest[] = [];
  readonly calls: FakeVoiceCall[] = [];
  url = '';
  /** Calls created while this is set never send their ringing-timer `timeout` (as if that webhook were lost). */
  ringsForever = false;
  private readonly interceptors: { method: string; path: string; answer: FakeAnswer }[] = [];
  private readonly waiting: ((call: FakeVoiceCall) => void)[] = [];
  private handedOut = 0;
  private server?: FakeHttpServer;

  constructor(private readonly options: VonageVoiceFakeOptions) {}

  static async start(options: VonageVoiceFakeOptions): Promise<VonageVoiceFake> {
    const fake = new VonageVoiceFake(options);
    await fake.listen();
    return fake;
  }

  get signatureSecret() {
    return this.options.signatureSecret ?? FAKE_SIGNATURE_SECRET;
  }

  /** The next call created that a test has not taken yet. */
  nextCall(timeoutMs = 5_000): Promise<FakeVoiceCall> {
    const ready = this.calls[this.handedOut];
    if (ready) {
      this.handedOut += 1;
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no call was created')), timeoutMs);
      this.waiting.push((call) => {
        clearTimeout(timer);
        resolve(call);
      });
    });
  }

  /**
   * Someone calls one of our numbers: the call starts, our answer webhook is asked (signed, GET
   * with query parameters unless `method` is POST) and its NCCO is run; the application's events
   * go to `eventUrl`. Resolves with the call once the NCCO has run.
   */
  async callIn({ answerUrl, eventUrl, from, to, method = 'GET', toneHz = 500 }: { answerUrl: string; eventUrl: string; from: string; to: string; method?: 'GET' | 'POST'; toneHz?: number }) {
    const call = new FakeVoiceCall(this, { to: [{ type: 'phone', number: to }], from: { type: 'phone', number: from }, event_url: [eventUrl] });
    call.direction = 'inbound';
    this.calls.push(call);
    this.handedOut += 1;
    call.status = 'ringing';
    const fields = { to, from, uuid: call.uuid, conversation_uuid: call.conversationUuid };
    const body = method === 'POST' ? JSON.stringify(fields) : '';
    const url = method === 'POST' ? answerUrl : `${answerUrl}?${new URLSearchParams(fields).toString()}`;
    const response = await fetch(url, {
      method,
      headers: {
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        authorization: `Bearer ${signWebhook(body, this.signatureSecret, { apiKey: this.options.apiKey, applicationId: this.options.applicationId })}`,
      },
      ...(method === 'POST' ? { body } : {}),
    });
    if (!response.ok) throw new Error(`our answer webhook answered ${response.status}: ${await response.text()}`);
    await call.runAnswerNcco((await response.json()) as NccoAction[], toneHz);
    return call;
  }

  /** The next request to method and path answers this instead. */
  failNext(method: string, path: string, answer: FakeAnswer) {
    this.interceptors.push({ method, path, answer });
  }

  requestsTo(method: string, path: string) {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  /** @internal Posts one signed event; answers the HTTP status our server gave (0: none). */
  async deliverEvent(eventUrl: string | undefined, body: string): Promise<number> {
    if (!eventUrl) return 0;
    try {
      const response = await fetch(eventUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${signWebhook(body, this.signatureSecret, { apiKey: this.options.apiKey, applicationId: this.options.applicationId })}`,
        },
        body,
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }

  async close() {
    for (const call of this.calls) call.stop();
    await this.server?.close();
  }

  private async listen() {
    this.server = await startFakeHttpServer((request, rawBody) => {
      const { answer, after } = this.handle(request, rawBody);
      return { ...answer, after };
    });
    this.url = this.server.url;
  }

  private handle(request: http.IncomingMessage, rawBody: string): { answer: FakeAnswer; after?: () => void } {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const method = request.method ?? 'GET';
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : null;
    } catch {
      return { answer: problem(400, 'Bad Request', 'The body is not JSON') };
    }
    const recorded: RecordedVoiceRequest = { method, path, body, authProblem: this.checkBearer(request.headers.authorization) };
    this.requests.push(recorded);

    const index = this.interceptors.findIndex((entry) => entry.method === method && entry.path === path);
    if (index >= 0) return { answer: this.interceptors.splice(index, 1)[0]!.answer };
    if (recorded.authProblem) return { answer: problem(401, 'Unauthorized', 'You did not provide correct credentials.') };

    if (method === 'POST' && path === '/v1/calls') return this.createCall(body);
    const callPath = /^\/v1\/calls\/([^/]+)$/.exec(path);
    if (method === 'PUT' && callPath) return { answer: this.modifyCall(decodeURIComponent(callPath[1]!), body) };
    const dtmfPath = /^\/v1\/calls\/([^/]+)\/dtmf$/.exec(path);
    if (method === 'PUT' && dtmfPath) return { answer: this.playDtmf(decodeURIComponent(dtmfPath[1]!), body) };
    return { answer: problem(404, 'Not Found', `No route ${method} ${path}`) };
  }

  /** The JWT the SDK makes from the application's private key: RS256, application_id, iat, exp, jti. */
  private checkBearer(header: string | undefined): string | null {
    const match = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header ?? '');
    if (!match) return 'no bearer token';
    const [, headerPart, claimsPart, signaturePart] = match as unknown as [string, string, string, string];
    let jwtHeader: { alg?: unknown };
    let claims: { application_id?: unknown; iat?: unknown; exp?: unknown; jti?: unknown };
    try {
      jwtHeader = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as typeof jwtHeader;
      claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return 'unreadable token';
    }
    if (jwtHeader.alg !== 'RS256') return `alg ${String(jwtHeader.alg)}, not RS256`;
    if (!verify('RSA-SHA256', Buffer.from(`${headerPart}.${claimsPart}`), this.options.publicKey, Buffer.from(signaturePart, 'base64url'))) return 'bad signature';
    if (claims.application_id !== this.options.applicationId) return 'another application';
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.iat !== 'number' || claims.iat > now + 60) return 'bad iat';
    if (typeof claims.exp === 'number' && claims.exp <= now) return 'expired';
    if (typeof claims.jti !== 'string' || !claims.jti) return 'no jti';
    return null;
  }

  private createCall(body: unknown): { answer: FakeAnswer; after?: () => void } {
    const invalid = (name: string, reason: string) => ({ answer: problem(400, 'Bad Request', 'Invalid Content', { invalid_parameters: [{ name, reason }] }) });
    const request = body as CreateCallBody | null;
    if (!request || typeof request !== 'object') return invalid('body', 'is required');
    const [to] = Array.isArray(request.to) ? request.to : [];
    if (!to || to.type !== 'phone' || !/^\d{6,15}$/.test(to.number ?? '')) return invalid('to', 'must be [{type:"phone", number:<digits>}]');
    if (request.from?.type !== 'phone' || !/^\d{6,15}$/.test(request.from.number ?? '')) return invalid('from', 'must be {type:"phone", number:<digits>}');
    if ((request.ncco === undefined) === (request.answer_url === undefined)) return invalid('ncco', 'give exactly one of ncco and answer_url');
    if (!Array.isArray(request.ncco)) return invalid('ncco', 'this fake carries NCCO calls only');
    if (!Array.isArray(request.event_url) || typeof request.event_url[0] !== 'string') return invalid('event_url', 'must be an array of URLs');
    if (request.ringing_timer !== undefined && (typeof request.ringing_timer !== 'number' || request.ringing_timer < 1 || request.ringing_timer > 120)) {
      return invalid('ringing_timer', 'must be 1 to 120');
    }
    const call = new FakeVoiceCall(this, request);
    try {
      void call.websocketEndpoint;
    } catch {
      return invalid('ncco', 'connect to a websocket endpoint');
    }
    this.calls.push(call);
    return {
      answer: { status: 201, body: { uuid: call.uuid, status: 'started', direction: 'outbound', conversation_uuid: call.conversationUuid } },
      after: () => {
        call.start();
        const waiter = this.waiting.shift();
        if (waiter) {
          this.handedOut += 1;
          waiter(call);
        }
      },
    };
  }

  /** Vonage's "Send DTMF to an active call": digits 0-9, *, # (and p for a pause) to an answered call. */
  private playDtmf(uuid: string, body: unknown): FakeAnswer {
    const call = this.calls.find((candidate) => candidate.uuid === uuid);
    if (!call || call.isOver) return problem(404, 'Not Found', `Call ${uuid} was not found or has ended`);
    const digits = (body as { digits?: unknown } | null)?.digits;
    if (typeof digits !== 'string' || !/^[0-9*#p]+$/.test(digits)) {
      return problem(400, 'Bad Request', 'Invalid Content', { invalid_parameters: [{ name: 'digits', reason: 'must be 0-9, *, # or p' }] });
    }
    if (call.status !== 'answered') return problem(400, 'Bad Request', 'The call is not answered');
    call.dtmfReceived.push(digits);
    return { status: 200, body: { message: 'DTMF sent', uuid } };
  }

  private modifyCall(uuid: string, body: unknown): FakeAnswer {
    const call = this.calls.find((candidate) => candidate.uuid === uuid);
    if (!call || call.isOver) return problem(404, 'Not Found', `Call ${uuid} was not found or has ended`);
    const action = (body as { action?: unknown } | null)?.action;
    switch (action) {
      case 'hangup':
        // Hanging up before the answer cancels the call; after it, completes it.
        void call.finish(call.status === 'answered' ? 'completed' : 'cancelled');
        return { status: 204 };
      case 'transfer': {
        const ncco = (body as { destination?: { type?: unknown; ncco?: NccoAction[] } }).destination?.ncco;
        if (!Array.isArray(ncco)) return problem(400, 'Bad Request', 'This fake transfers to an inline NCCO only');
        for (const action of ncco) if (action.action === 'talk') call.spoken.push(action.text ?? '');
        // The talk is the last action: once it has been said, the call is over.
        void call.finish('completed');
        return { status: 204 };
      }
      case 'mute':
      case 'unmute':
      case 'earmuff':
      case 'unearmuff':
        return { status: 204 };
      default:
        return problem(400, 'Bad Request', `Unknown action ${String(action)}`);
    }
  }
}
