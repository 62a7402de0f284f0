/** Enough of the browser's WebSocket for the realtime client: the test opens it, speaks for the server, and drops it. */
export class FakeBrowserWebSocket {
  static readonly OPEN = 1;
  static instances: FakeBrowserWebSocket[] = [];
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeBrowserWebSocket.instances.push(this);
  }

  /** The socket the client opened last. */
  static latest(): FakeBrowserWebSocket {
    return FakeBrowserWebSocket.instances.at(-1)!;
  }

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.readyState = 3;
  }

  open() {
    this.readyState = FakeBrowserWebSocket.OPEN;
    this.onopen?.();
  }

  /** The server sends a message on this socket. */
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  /** The connection goes away: 1006 when the network drops or an upgrade is refused, or the server's close code. */
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}
