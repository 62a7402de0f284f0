import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/** Whether Debian's coturn (`turnserver`) is on this machine; CI installs it (scripts/ensure-coturn.mjs). */
export function turnserverInstalled(): boolean {
  return spawnSync('turnserver', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface Coturn {
  /** turn:127.0.0.1:<port> (UDP), and with ?transport=tcp the same port over TCP. */
  turnUrl: string;
  turnTcpUrl: string;
  /** turns:127.0.0.1:<tlsPort>?transport=tcp when started with tls, else null. */
  turnsUrl: string | null;
  /** The self-signed certificate of the TLS listener (PEM), for the client to trust; null without tls. */
  certificate: string | null;
  /** What turnserver printed, for a failing test's message. */
  output: string[];
  stop(): Promise<void>;
}

const REALM = 'voxline.test';
const STARTUP_LIMIT_MS = 10_000;
const STOP_LIMIT_MS = 5_000;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A throwaway certificate for 127.0.0.1, so that turns: can be tried without a real name. */
function selfSignedCertificate(dir: string) {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { cert, key };
}

/**
 * Starts coturn as docs/deploy.md#webrtc-media runs it (TURN REST API credentials from a shared secret,
 * one realm), but on 127.0.0.1 only, on free ports, with its files in a temporary directory and
 * loopback peers allowed, since the Voxline leg a test calls sits on this machine.
 */
export async function startCoturn({ secret, tls = false }: { secret: string; tls?: boolean }): Promise<Coturn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-coturn-'));
  const port = await freePort();
  const tlsPort = tls ? await freePort() : null;
  const certificate = tls ? selfSignedCertificate(dir) : null;
  const args = [
    '-n',
    '--log-file=stdout',
    // Logs each session and each refused request (a 401 for wrong credentials): a failing test's clue.
    '--verbose',
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--listening-port=${port}`,
    '--allow-loopback-peers',
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    `--realm=${REALM}`,
    '--fingerprint',
    '--no-cli',
    '--no-rfc5780',
    '--no-dtls',
    `--userdb=${path.join(dir, 'turndb')}`,
    `--pidfile=${path.join(dir, 'turnserver.pid')}`,
    ...(certificate && tlsPort ? [`--tls-listening-port=${tlsPort}`, `--cert=${certificate.cert}`, `--pkey=${certificate.key}`] : ['--no-tls']),
  ];
  const child = spawn('turnserver', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  const stop = async () => {
    if (running) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + STARTUP_LIMIT_MS;
  while (!((await listening(port)) && (tlsPort === null || (await listening(tlsPort))))) {
    if (!running || Date.now() > deadline) {
      await stop();
      throw new Error(`turnserver did not start listening on 127.0.0.1:${port}:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    turnUrl: `turn:127.0.0.1:${port}`,
    turnTcpUrl: `turn:127.0.0.1:${port}?transport=tcp`,
    turnsUrl: tlsPort ? `turns:127.0.0.1:${tlsPort}?transport=tcp` : null,
    certificate: certificate ? fs.readFileSync(certificate.cert, 'utf8') : null,
    output,
    stop,
  };
}
