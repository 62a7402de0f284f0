import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type StartedServer } from '../../tests/e2e/support/server';
import { freePort } from '../../tests/support/free-port';
import type { RelayMapping } from './audio-probes';
import type { LinkProfile } from './impairment';
import { profiles } from './profiles';
import { TcpImpairmentProxy } from './tcp-impairment-proxy';
import { UdpImpairmentRelay } from './udp-impairment-relay';

export type Transport = 'webrtc' | 'websocket';

/** Bytes that crossed the impaired link each way: browsers to server (up) and back (down). */
interface LinkBytes {
  up: number;
  down: number;
}

/** A running Voxline and the impaired links the browsers reach it through. */
export interface VoxlineUnderTest {
  /** The TCP proxy's URL, on the host's address so that a browser in a network namespace reaches it too: pages, API and websockets. */
  url: string;
  /** For the browsers' probes: where the relay stands in for the server's WebRTC ports; null without WebRTC. */
  relay: RelayMapping | null;
  setProfile(profile: LinkProfile): void;
  /** Browsers' datagrams to the server's WebRTC ports that `matches` picks are lost; null stops it. Only with WebRTC. */
  dropUpstreamWhen(matches: ((datagram: Buffer) => boolean) | null): void;
  /** The call audio's link: the UDP relay with WebRTC, the TCP proxy without. */
  mediaBytes(): LinkBytes;
  /** CPU time the server process has used (user and system), ms. */
  cpuMs(): number;
  /** What the server has logged so far (its JSON lines). */
  serverLog(): string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The host's own address (docs/machine-notes.md): the proxy, the server's WebRTC candidates and the relay are on it. */
const HOST_ADDRESS = '192.0.2.2';
const WEBRTC_PORTS = 20;
const RELAY_PORT_OFFSET = 1_000;
// USER_HZ: the unit of /proc/<pid>/stat's times on every Linux the bench runs on.
const TICKS_PER_SECOND = 100;

function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The name sits in parentheses and may hold spaces; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/**
 * Starts Voxline as the E2E suite does (main.ts on a fresh embedded database), WebRTC on or off,
 * behind a TCP impairment proxy for HTTP and websockets and, with WebRTC, a UDP impairment relay
 * for its media ports. The server announces HOST_ADDRESS and holds its ports there (werift binds
 * every address); the relay listens on the same address RELAY_PORT_OFFSET ports higher, which the
 * probes' relay mapping makes the browsers use. Both links start on the clean profile.
 */
export async function startVoxline(transport: Transport, seed: number): Promise<VoxlineUnderTest> {
  if (!fs.existsSync(path.join(ROOT, 'dist/web/index.html'))) throw new Error('the web app is not built: run `npm run build` first');
  const proxyPort = await freePort();
  const url = `http://${HOST_ADDRESS}:${proxyPort}`;
  // A range of its own per run, so that a bench beside the test suite does not meet its ports.
  const firstPort = 40_000 + 2 * WEBRTC_PORTS * (process.pid % 200);
  const lastPort = firstPort + WEBRTC_PORTS - 1;
  const server: StartedServer = await startServer({
    root: ROOT,
    env: {
      PUBLIC_URL: url,
      WEBRTC: String(transport === 'webrtc'),
      WEBRTC_PORTS: `${firstPort}-${lastPort}`,
      WEBRTC_PUBLIC_ADDRESS: HOST_ADDRESS,
    },
  });
  const serverPort = Number(new URL(server.url).port);
  const proxy = new TcpImpairmentProxy({ listenAddress: HOST_ADDRESS, listenPort: proxyPort, targetAddress: '127.0.0.1', targetPort: serverPort, profile: profiles.clean, seed });
  const relay =
    transport === 'webrtc'
      ? new UdpImpairmentRelay({
          listenAddress: HOST_ADDRESS,
          firstPort: firstPort + RELAY_PORT_OFFSET,
          lastPort: lastPort + RELAY_PORT_OFFSET,
          targetAddress: HOST_ADDRESS,
          targetPortOffset: -RELAY_PORT_OFFSET,
          profile: profiles.clean,
          seed: seed + 1,
        })
      : null;
  try {
    await proxy.start();
    await relay?.start();
  } catch (error) {
    await Promise.all([proxy.stop().catch(() => {}), server.stop()]);
    throw error;
  }
  return {
    url,
    relay: relay ? { address: HOST_ADDRESS, portOffset: RELAY_PORT_OFFSET } : null,
    setProfile(profile) {
      proxy.setProfile(profile);
      relay?.setProfile(profile);
    },
    dropUpstreamWhen(matches) {
      if (!relay) throw new Error('only a WebRTC run has a UDP relay to drop datagrams in');
      relay.dropUpstreamWhen(matches);
    },
    mediaBytes() {
      if (relay) return { up: relay.counters.upstream.forwardedBytes, down: relay.counters.downstream.forwardedBytes };
      return { up: proxy.counters.upstream.forwardedBytes, down: proxy.counters.downstream.forwardedBytes };
    },
    cpuMs: () => processCpuMs(server.pid),
    serverLog: () => fs.readFileSync(server.logFile, 'utf8'),
    async stop() {
      await Promise.all([relay?.stop(), proxy.stop()]);
      await server.stop();
    },
  };
}
