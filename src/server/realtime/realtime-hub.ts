import type { WebSocket } from 'ws';
import { clientMessageSchema, type ClientMessage, type ServerMessage } from '../../common/realtime';
import type { SessionUser } from '../../common/api/session';

type Handler<T extends ClientMessage['type']> = (user: SessionUser, message: Extract<ClientMessage, { type: T }>, socket: WebSocket) => void | Promise<void>;
type AnyHandler = (user: SessionUser, message: ClientMessage, socket: WebSocket) => void | Promise<void>;

const HEARTBEAT_MS = 30_000;

/**
 * The signalling sockets of signed-in tabs (/api/v1/realtime): sends server messages to every tab
 * of a user, and hands each valid client message to the domain that registered for its type.
 */
export class RealtimeHub {
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly handlers = new Map<ClientMessage['type'], AnyHandler>();
  private readonly alive = new WeakSet<WebSocket>();
  /** Tabs with the Call Receiver on (receiver.start), per user: the ones an incoming call rings. */
  private readonly listening = new Map<string, Set<WebSocket>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly log: { warn(obj: object, msg: string): void }) {
    // A tab that stopped answering pings (a laptop lid closed) is dropped within a minute.
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.on('receiver.start', (user, _message, socket) => this.listen(user.id, socket));
    this.on('receiver.stop', (user, _message, socket) => this.stopListening(user.id, socket));
  }

  on<T extends ClientMessage['type']>(type: T, handler: Handler<T>) {
    this.handlers.set(type, handler as unknown as AnyHandler);
  }

  join(user: SessionUser, socket: WebSocket) {
    let userSockets = this.sockets.get(user.id);
    if (!userSockets) {
      userSockets = new Set();
      this.sockets.set(user.id, userSockets);
    }
    userSockets.add(socket);
    this.alive.add(socket);
    socket.on('pong', () => this.alive.add(socket));
    socket.on('message', (data, isBinary) => void this.receive(user, socket, isBinary ? null : data.toString()));
    socket.on('close', () => {
      userSockets.delete(socket);
      if (userSockets.size === 0) this.sockets.delete(user.id);
      this.stopListening(user.id, socket);
    });
  }

  send(userId: string, message: ServerMessage) {
    const payload = JSON.stringify(message);
    for (const socket of this.sockets.get(userId) ?? []) {
      if (socket.readyState === socket.OPEN) socket.send(payload);
    }
  }

  /** Sends to one tab (the one that answered a call). */
  sendTo(socket: WebSocket, message: ServerMessage) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }

  /** Sends to the user's listening tabs, leaving out `except`. */
  sendToListeners(userId: string, message: ServerMessage, except?: WebSocket) {
    for (const socket of this.listening.get(userId) ?? []) if (socket !== except) this.sendTo(socket, message);
  }

  /** Users with at least one listening tab. */
  listeningUsers(): string[] {
    return [...this.listening.keys()];
  }

  isListening(userId: string): boolean {
    return (this.listening.get(userId)?.size ?? 0) > 0;
  }

  private listen(userId: string, socket: WebSocket) {
    let sockets = this.listening.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.listening.set(userId, sockets);
    }
    sockets.add(socket);
  }

  private stopListening(userId: string, socket: WebSocket) {
    const sockets = this.listening.get(userId);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.listening.delete(userId);
  }

  close() {
    clearInterval(this.heartbeat);
    for (const userSockets of this.sockets.values()) for (const socket of userSockets) socket.close(1001, 'Server shutting down');
    this.sockets.clear();
  }

  private async receive(user: SessionUser, socket: WebSocket, text: string | null) {
    let parsed: ReturnType<typeof clientMessageSchema.safeParse> | null;
    try {
      parsed = text === null ? null : clientMessageSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      socket.send(JSON.stringify({ type: 'error', code: 'bad_message', message: 'That message is not one Voxline understands' } satisfies ServerMessage));
      return;
    }
    const handler = this.handlers.get(parsed.data.type);
    if (!handler) return;
    try {
      await handler(user, parsed.data, socket);
    } catch (error) {
      this.log.warn({ err: error, type: parsed.data.type }, 'realtime message failed');
      const message = error instanceof Error && 'statusCode' in error ? error.message : 'Something went wrong on our side. Please try again.';
      const callId = 'callId' in parsed.data ? parsed.data.callId : undefined;
      socket.send(JSON.stringify({ type: 'error', code: 'failed', message, ...(callId ? { callId } : {}) } satisfies ServerMessage));
    }
  }

  private checkAlive() {
    for (const userSockets of this.sockets.values()) {
      for (const socket of userSockets) {
        if (!this.alive.has(socket)) {
          socket.terminate();
          continue;
        }
        this.alive.delete(socket);
        socket.ping();
      }
    }
  }
}
