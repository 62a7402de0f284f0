import { execFileSync, spawnSync } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port';
import { createShapedLink } from './link-shaper';

const canShape = process.getuid?.() === 0 && spawnSync('ip', ['netns', 'list']).status === 0;

// 2 Mbit/s is 250 bytes a millisecond.
const RATE = { bitsPerSecond: 2_000_000, burstBytes: 3_000, queueBytes: 30_000 };
const BYTES = 150_000;
const LEAST_MS = (BYTES - RATE.burstBytes) / 250;

/** Runs in the namespace: sends BYTES to the host, then reads BYTES back. */
const CLIENT = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
let read = 0;
socket.write(Buffer.alloc(${BYTES}));
socket.on('data', (chunk) => { read += chunk.length; if (read === ${BYTES}) socket.end(); });
`;

describe.skipIf(!canShape)('createShapedLink', () => {
  it('holds both directions of a namespace to the rate, and deletes it all on close', async () => {
    const name = `vxt${process.pid}`;
    const subnet = `10.77.${50 + (process.pid % 200)}`;
    const link = await createShapedLink({ name, rateCap: RATE, hostAddress: `${subnet}.1`, namespaceAddress: `${subnet}.2` });
    try {
      expect(execFileSync('ip', ['netns', 'list']).toString()).toContain(name);
      expect(execFileSync('tc', ['qdisc', 'show', 'dev', `${name}h`]).toString()).toMatch(/tbf .*rate 2Mbit/);
      expect(execFileSync('ip', ['netns', 'exec', name, 'tc', 'qdisc', 'show', 'dev', `${name}n`]).toString()).toMatch(/tbf .*rate 2Mbit/);

      // Upward time counts from before the client starts: counted from the server's accept, a busy
      // event loop could accept late, after part of the bytes were already through (522 ms for 588
      // on a loaded CI run). Starting earlier only adds time, so the lower bound still holds.
      const phases = { startedAt: 0, upMs: 0, downMs: 0, from: '' };
      const port = await freePort();
      const server = net.createServer((socket) => {
        phases.from = socket.remoteAddress ?? '';
        let received = 0;
        socket.on('data', (chunk) => {
          received += chunk.length;
          if (received < BYTES) return;
          const sentAt = performance.now();
          phases.upMs = sentAt - phases.startedAt;
          socket.end(Buffer.alloc(BYTES));
          socket.on('close', () => (phases.downMs = performance.now() - sentAt));
        });
      });
      await new Promise<void>((resolve) => server.listen(port, link.hostAddress, resolve));
      try {
        phases.startedAt = performance.now();
        const client = link.spawn(process.execPath, ['-e', CLIENT, link.hostAddress, String(port)], { stdio: 'inherit' });
        expect(await new Promise((resolve) => client.once('exit', resolve))).toBe(0);
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
      expect(phases.from).toBe(link.namespaceAddress);
      expect(phases.upMs).toBeGreaterThanOrEqual(LEAST_MS);
      expect(phases.downMs).toBeGreaterThanOrEqual(LEAST_MS);
    } finally {
      await link.close();
    }
    expect(execFileSync('ip', ['netns', 'list']).toString()).not.toContain(name);
    expect(spawnSync('ip', ['link', 'show', `${name}h`]).status).not.toBe(0);
  });
});
