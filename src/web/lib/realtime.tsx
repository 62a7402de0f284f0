import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { toast } from './toast';
import { sessionAnswerSchema } from '../../common/api/session';
import { serverMessageSchema, type ServerMessage } from '../../common/realtime';
import type { ClientMessage } from '../../common/realtime-client-messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from './api-client';
import { ReconnectPolicy } from './reconnect-policy';
import { sessionQuery } from './session';
import { SIGNED_OUT_TOAST_ID } from './sign-out';

/** The server closes a websocket with this code when its session has ended (signed out, password changed or reset). */
export const SIGNED_OUT_CLOSE_CODE = 4401;

type Listener = (message: ServerMessage) => void;

export interface RealtimeClientEvents {
  /** The server closed the socket because the session ended: the client has stopped for good. */
  onSignedOut?(): void;
  /** A connection failed before it opened (the server refuses a signed-out upgrade, or is away); the client keeps trying. */
  onRefused?(): void;
}

/** What the call engines need of the signalling socket; a test provides a fake through RealtimeClientProvider. */
export interface Signalling {
  /** Sends a message; answers false when the socket is not open (the caller decides what to do). */
  send(message: ClientMessage): boolean;
  subscribe(listener: Listener): () => void;
  /** Called after every (re)connection, so state missed while away can be fetched again; `again`: not the tab's first. */
  onConnect(listener: (again: boolean) => void): () => void;
  /**
   * Called once the server closed the socket because the session ended. A call's WebRTC audio is
   * not a socket the server can close: this is how it learns that the sign-out ended its call.
   */
  onSignedOut(listener: () => void): () => void;
  /**
   * A call in this tab holds the socket: the reconnection a draining server asks for waits until
   * every hold is released, so that the call's signalling stays where the call is. Answers the release.
   */
  holdForCall(): () => void;
}

/** The tab's signalling socket (/api/v1/realtime): typed messages both ways, reconnecting by itself. */
export class RealtimeClient implements Signalling {
  private socket: WebSocket | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly connectListeners = new Set<(again: boolean) => void>();
  private readonly signedOutListeners = new Set<() => void>();
  private readonly reconnection = new ReconnectPolicy();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** The server forgets a tab's listening with its socket: remembered here and resumed on reconnection. */
  private receiving = false;
  /** Calls in this tab holding the socket (holdForCall). */
  private holds = 0;
  /** The server is draining: this socket goes once no call holds it. */
  private drainPending = false;
  /** A socket opened before: the next one may have missed messages sent meanwhile. */
  private everOpened = false;

  constructor(
    private readonly url: string,
    private readonly events: RealtimeClientEvents = {},
  ) {}

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = null;
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Tries again at once rather than at the next back-off step ("Reconnect" in the readiness check). */
  reconnectNow() {
    if (this.stopped || this.connected || this.socket?.readyState === WebSocket.CONNECTING) return;
    if (this.timer) clearTimeout(this.timer);
    this.connect();
  }

  send(message: ClientMessage): boolean {
    if (message.type === 'receiver.start') this.receiving = true;
    if (message.type === 'receiver.stop') this.receiving = false;
    if (!this.connected) return false;
    this.socket!.send(JSON.stringify(message));
    return true;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onConnect(listener: (again: boolean) => void): () => void {
    this.connectListeners.add(listener);
    return () => this.connectListeners.delete(listener);
  }

  onSignedOut(listener: () => void): () => void {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  holdForCall(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      this.reconnectIfDrained();
    };
  }

  /** The server is draining: reconnect, through the same address, which a balancer sends to a ready instance. */
  private drained() {
    this.reconnection.drained(this.receiving);
    this.drainPending = true;
    this.reconnectIfDrained();
  }

  /** Nothing the page shows changes meanwhile: listening is resumed on the next socket, as after any reconnection. */
  private reconnectIfDrained() {
    const socket = this.socket;
    if (!this.drainPending || this.holds > 0 || this.stopped || !socket) return;
    this.drainPending = false;
    this.socket = null;
    socket.close(1000);
    this.timer = setTimeout(() => this.connect(), this.reconnection.afterDrain());
  }

  private connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.reconnection.opened();
      this.drainPending = false;
      if (this.receiving) socket.send(JSON.stringify({ type: 'receiver.start' } satisfies ClientMessage));
      const again = this.everOpened;
      this.everOpened = true;
      for (const listener of this.connectListeners) listener(again);
    };
    socket.onmessage = (event: MessageEvent<string>) => {
      let parsed;
      try {
        parsed = serverMessageSchema.safeParse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      // Only for the socket in use: one already let go of may still deliver what was on its way.
      if (parsed.data.type === 'server.draining') return this.socket === socket ? this.drained() : undefined;
      if (parsed.data.type === 'receiver.state' && parsed.data.listening && this.socket === socket) this.reconnection.listening();
      for (const listener of this.listeners) listener(parsed.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket || this.stopped) return;
      // Reconnecting would be refused: the session is gone until the person signs in again.
      if (event.code === SIGNED_OUT_CLOSE_CODE) {
        this.stop();
        for (const listener of this.signedOutListeners) listener();
        this.events.onSignedOut?.();
        return;
      }
      if (!opened) this.events.onRefused?.();
      this.timer = setTimeout(() => this.connect(), this.reconnection.afterDrop());
    };
  }
}

function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/v1/realtime`;
}

const RealtimeContext = createContext<Signalling | null>(null);

/** Provides a given signalling client to the call engines (the app's socket, or a test's fake). */
export function RealtimeClientProvider({ client, children }: { client: Signalling | null; children: ReactNode }) {
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** Whether the server still knows this browser's session; undefined when it cannot say (unreachable). */
async function stillSignedIn(): Promise<boolean | undefined> {
  try {
    return (await api.get('/session', sessionAnswerSchema)) !== null;
  } catch (error) {
    return error instanceof ApiError && error.status === 401 ? false : undefined;
  }
}

/**
 * Keeps the signalling socket open while someone is signed in (it reads the session; it asks the
 * server again only when a connection is refused). When the session ends elsewhere (sign-out in
 * another tab, a password change or reset) the page forgets it, so that the signed-in pages send
 * the person to sign in, rather than reconnecting forever.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data: session } = useQuery({ ...sessionQuery, enabled: false });
  const userId = session?.user.id;
  const client = useMemo(() => {
    if (!userId) return null;
    const signedOut = () => {
      // This tab signed out itself and already knows: its own notice says so.
      if (queryClient.getQueryData(sessionQuery.queryKey) === null) return;
      queryClient.setQueryData(sessionQuery.queryKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
      toast('Signed out', { id: SIGNED_OUT_TOAST_ID, description: 'This session was signed out, from another tab or by a password change. Log in again to go on.' });
    };
    return new RealtimeClient(realtimeUrl(), {
      onSignedOut: signedOut,
      onRefused: () => void stillSignedIn().then((signedIn) => (signedIn === false ? signedOut() : undefined)),
    });
  }, [userId, queryClient]);

  useEffect(() => {
    if (!client) return;
    client.start();
    return () => client.stop();
  }, [client]);

  return <RealtimeClientProvider client={client}>{children}</RealtimeClientProvider>;
}

export function useRealtime(): Signalling | null {
  return useContext(RealtimeContext);
}
