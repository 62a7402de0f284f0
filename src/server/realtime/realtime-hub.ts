import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { ServerMessage } from '../../common/realtime';
import { clientMessageSchema, type ClientMessage } from '../../common/realtime-client-messages';
import type { SessionUser } from '../../common/api/session';
import type { Bus, Unsubscribe } from '../bus/bus';
import type { Presence } from './presence';

/** `tabId` names the tab that sent the message, on whichever instance holds it (see sendToTab). */
type Handler<T extends ClientMessage['type']> = (user: SessionUser, message: Extract<ClientMessage, { type: T }>, tabId: string) => void | Promise<void>;
type AnyHandler = (user: SessionUser, message: ClientMessage, tabId: string) => void | Promise<void>;

const HEARTBEAT_MS = 30_000;
/** How long a draining instance still vouches for the tabs it told to listen elsewhere: they move within a second or two. */
const DRAIN_HANDOVER_MS = 5_000;

/** A message for a user's tabs, as it travels on the bus to the other instances. */
interface UserMessage {
  /** The instance that sent it, which has already delivered it to its own tabs. */
  origin: string;
  listenersOnly: boolean;
  message: ServerMessage;
  /** Only this tab gets it. */
  tab?: string;
  /** Every tab but this one gets it. */
  except?: string;
}

interface Audience {
  listenersOnly: boolean;
  tab?: string;
  except?: string;
}

const userChannel = (userId: string) => `user:${userId}`;

export interface RealtimeHubOptions {
  log: { warn(obj: object, msg: string): void };
  /** Carries user-addressed messages to the user's tabs on other instances. */
  bus: Bus;
  presence: Presence;
  /** This instance's id among those sharing the bus (the instance registry's). */
  instanceId?: string;
}

/**
 * The signalling sockets of signed-in tabs (/api/v1/realtime): sends server messages to every tab
 * of a user, wherever the instance holding it, and hands each valid client message to the domain
 * that registered for its type.
 */
export class RealtimeHub {
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly handlers = new Map<ClientMessage['type'], AnyHandler>();
  private readonly alive = new WeakSet<WebSocket>();
  /** Tabs with the Call Receiver on (receiver.start), per user: the ones an incoming call rings. */
  private readonly listening = new Map<string, Set<WebSocket>>();
  /** The bus subscription to a user's channel, held while this instance has a tab of the user. */
  private readonly subscriptions = new Map<string, Promise<Unsubscribe>>();
  /** Each tab's id, unique across instances, so that another instance can address one tab. */
  private readonly tabIds = new WeakMap<WebSocket, string>();
  /** Tabs whose socket is closing because their session ended (signedOut). */
  private readonly signedOutTabs = new WeakSet<WebSocket>();
  private readonly tabClosedListeners: ((userId: string, tabId: string, signedOut: boolean) => void)[] = [];
  private readonly startedListeningListeners: ((userId: string, tabId: string) => void)[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly instanceId: string;
  private readonly log: RealtimeHubOptions['log'];
  private readonly bus: Bus;
  private readonly presence: Presence;
  private closed = false;
  private draining = false;

  constructor({ log, bus, presence, instanceId = randomUUID() }: RealtimeHubOptions) {
    this.instanceId = instanceId;
    this.log = log;
    this.bus = bus;
    this.presence = presence;
    // A tab that stopped answering pings (a laptop lid closed) is dropped within a minute.
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.on('receiver.start', (user, _message, tabId) => {
      const socket = this.findTab(user.id, tabId);
      // Listening here would last only until the drain ends: the tab is sent to listen elsewhere.
      if (this.draining) this.sendTo(socket, { type: 'server.draining' });
      else return this.listen(user.id, socket);
    });
    this.on('receiver.stop', (user, _message, tabId) => {
      const socket = this.findTab(user.id, tabId);
      this.stopListening(user.id, socket);
      this.sendTo(socket, { type: 'receiver.state', listening: false });
    });
  }

  on<T extends ClientMessage['type']>(type: T, handler: Handler<T>) {
    this.handlers.set(type, handler as unknown as AnyHandler);
  }

  /** Called when a tab's socket closes; `signedOut` when it closed because its session ended. */
  onTabClosed(listener: (userId: string, tabId: string, signedOut: boolean) => void) {
    this.tabClosedListeners.push(listener);
  }

  /** Called when a tab begins to listen here (a new tab, or one that moved from a draining instance). */
  onStartedListening(listener: (userId: string, tabId: string) => void) {
    this.startedListeningListeners.push(listener);
  }

  /** The tab's session ended and its socket is being closed for it (session-sockets.ts). */
  signedOut(socket: WebSocket) {
    this.signedOutTabs.add(socket);
  }

  join(user: SessionUser, socket: WebSocket) {
    let userSockets = this.sockets.get(user.id);
    if (!userSockets) {
      userSockets = new Set();
      this.sockets.set(user.id, userSockets);
    }
    userSockets.add(socket);
    this.tabIds.set(socket, randomUUID());
    this.subscribe(user.id).catch((error: unknown) => this.log.warn({ err: error, userId: user.id }, 'could not follow the user on the bus'));
    this.alive.add(socket);
    socket.on('pong', () => this.alive.add(socket));
    socket.on('message', (data, isBinary) => void this.receive(user, socket, isBinary ? null : data.toString()));
    socket.on('close', () => {
      const tabId = this.tabIds.get(socket) ?? '';
      for (const listener of this.tabClosedListeners) listener(user.id, tabId, this.signedOutTabs.has(socket));
      // After close() the bus and presence are closed too, and already forgot this instance.
      if (this.closed) return;
      userSockets.delete(socket);
      this.stopListening(user.id, socket);
      if (userSockets.size === 0) {
        this.sockets.delete(user.id);
        this.unsubscribe(user.id);
      }
    });
  }

  /** Sends to every tab of the user, on every instance. */
  send(userId: string, message: ServerMessage) {
    this.deliver(userId, message, { listenersOnly: false });
  }

  /** Sends to one tab of the user (the one that answered a call), whichever instance holds it. */
  sendToTab(userId: string, tabId: string, message: ServerMessage) {
    this.deliver(userId, message, { listenersOnly: false, tab: tabId });
  }

  /** Sends to the user's listening tabs on every instance, leaving out the tab `except`. */
  sendToListeners(userId: string, message: ServerMessage, except?: string) {
    this.deliver(userId, message, { listenersOnly: true, ...(except ? { except } : {}) });
  }

  /** Users with at least one listening tab on this instance. */
  listeningUsers(): Promise<string[]> {
    return this.presence.listeningUsers();
  }

  /** Whether the user has a listening tab on any instance. */
  isListening(userId: string): Promise<boolean> {
    return this.presence.isListening(userId);
  }

  /** The listening tabs this instance holds, of every user (voxline_listening_tabs). */
  get listeningTabs(): number {
    let tabs = 0;
    for (const sockets of this.listening.values()) tabs += sockets.size;
    return tabs;
  }

  /** This instance's tabs at once, so that they keep the order of sending; the other instances' through the bus. */
  private deliver(userId: string, message: ServerMessage, audience: Audience) {
    this.deliverHere(userId, message, audience);
    const envelope: UserMessage = { origin: this.instanceId, message, ...audience };
    this.bus.publish(userChannel(userId), JSON.stringify(envelope)).catch((error: unknown) => {
      this.log.warn({ err: error, userId, type: message.type }, 'could not reach the user\'s tabs on other instances');
    });
  }

  private deliverHere(userId: string, message: ServerMessage, { listenersOnly, tab, except }: Audience) {
    const payload = JSON.stringify(message);
    for (const socket of (listenersOnly ? this.listening : this.sockets).get(userId) ?? []) {
      const id = this.tabIds.get(socket);
      if ((tab && id !== tab) || (except && id === except)) continue;
      if (socket.readyState === socket.OPEN) socket.send(payload);
    }
  }

  private sendTo(socket: WebSocket, message: ServerMessage) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }

  /** The socket of a tab this instance holds: handlers get ids, the hub's own ones need the socket. */
  private findTab(userId: string, tabId: string): WebSocket {
    for (const socket of this.sockets.get(userId) ?? []) if (this.tabIds.get(socket) === tabId) return socket;
    throw new Error('The tab is gone');
  }

  private subscribe(userId: string): Promise<Unsubscribe> {
    const existing = this.subscriptions.get(userId);
    if (existing) return existing;
    const subscription = this.bus.subscribe(userChannel(userId), (payload) => {
      const { origin, message, ...audience } = JSON.parse(payload.toString()) as UserMessage;
      if (origin !== this.instanceId) this.deliverHere(userId, message, audience);
    });
    this.subscriptions.set(userId, subscription);
    // A failed subscription is forgotten, so that the user's next tab or receiver.start tries again.
    subscription.catch(() => {
      if (this.subscriptions.get(userId) === subscription) this.subscriptions.delete(userId);
    });
    return subscription;
  }

  private unsubscribe(userId: string) {
    const subscription = this.subscriptions.get(userId);
    this.subscriptions.delete(userId);
    subscription
      ?.then((unsubscribe) => unsubscribe())
      .catch((error: unknown) => this.log.warn({ err: error, userId }, 'could not stop following the user on the bus'));
  }

  /**
   * The tab is counted at once, so that a receiver.stop or a close arriving meanwhile wins; it is
   * announced only once this instance follows the user's channel, so that a call placed on another
   * instance as soon as the user is seen listening reaches the tab.
   */
  private async listen(userId: string, socket: WebSocket) {
    let sockets = this.listening.get(userId);
    if (!sockets) {
      sockets = new Set();
      this.listening.set(userId, sockets);
    }
    const already = sockets.has(socket);
    sockets.add(socket);
    try {
      await this.subscribe(userId);
    } catch (error) {
      this.stopListening(userId, socket);
      throw error;
    }
    await this.presence.setListening(userId, this.listening.get(userId)?.size ?? 0);
    if (!sockets.has(socket)) return;
    this.sendTo(socket, { type: 'receiver.state', listening: true });
    const tabId = this.tabIds.get(socket);
    if (already || !tabId) return;
    for (const listener of this.startedListeningListeners) listener(userId, tabId);
  }

  private stopListening(userId: string, socket: WebSocket) {
    const sockets = this.listening.get(userId);
    if (!sockets?.delete(socket)) return;
    if (sockets.size === 0) this.listening.delete(userId);
    this.presence.setListening(userId, sockets.size).catch((error: unknown) => this.log.warn({ err: error, userId }, 'could not record that the user stopped listening'));
  }

  /**
   * The instance drains (docs/deploy.md#draining): no tab listens here any longer, so that calls
   * ring the user's tabs elsewhere, and every tab is told to reconnect to another instance (a tab
   * holding a call keeps this socket until the call ends).
   */
  drain() {
    this.draining = true;
    // The tabs listen elsewhere within a second or two of their word. Meanwhile presence still
    // says they listen, so that a call placed in between rings (reaching them where they land:
    // user-ringing.ts rings a tab that begins to listen) instead of finding nobody there.
    const moving = [...this.listening.keys()];
    this.listening.clear();
    for (const userSockets of this.sockets.values()) for (const socket of userSockets) this.sendTo(socket, { type: 'server.draining' });
    setTimeout(() => {
      if (this.closed) return;
      for (const userId of moving) {
        this.presence.setListening(userId, 0).catch((error: unknown) => this.log.warn({ err: error, userId }, 'could not record that the user stopped listening'));
      }
    }, DRAIN_HANDOVER_MS).unref();
  }

  /** Closes every tab; the owner closes the bus and presence afterwards. */
  close() {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const userSockets of this.sockets.values()) for (const socket of userSockets) socket.close(1001, 'Server shutting down');
    this.sockets.clear();
    this.listening.clear();
    this.subscriptions.clear();
  }

  private async receive(user: SessionUser, socket: WebSocket, text: string | null) {
    // A socket being closed (its session revoked) is no longer heard, whatever its peer still sends.
    if (socket.readyState !== socket.OPEN) return;
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
      await handler(user, parsed.data, this.tabIds.get(socket) ?? '');
    } catch (error) {
      const callId = 'callId' in parsed.data ? parsed.data.callId : undefined;
      this.log.warn({ err: error, type: parsed.data.type, userId: user.id, ...(callId ? { callId } : {}) }, 'realtime message failed');
      const message = error instanceof Error && 'statusCode' in error ? error.message : 'Something went wrong on our side. Please try again.';
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
