import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../src/common/api/recordings';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import { signedUpWithNumber } from '../support/http-browser';
import { cookieHeader, MediaClient } from '../support/media-client';
import { decodeOggOpus } from '../support/ogg-opus-decode';
import { payForPremium } from '../support/premium-over-http';
import { RealtimeTab } from '../support/realtime-tab';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { until } from '../support/until';

/** Decision 030: the writer emits an Ogg page a second, so a crash loses the page being filled. */
const PAGE_MS = 1_000;
/** The frames the user's channel may hold waiting for the other's (stereo-frames.ts, MAX_AHEAD), not yet encoded at the kill. */
const PAIRING_MS = 200;
/** The frames waiting to go to the encoder process together (encoder-process.ts, BATCH_FRAMES). */
const BATCH_MS = 200;
/** The sound-test line plays back after this long (calls/timing.ts echoDelayMs). */
const ECHO_DELAY_MS = 300;
const RECORDED_FRAMES = 250;

/**
 * Issue 19's crash case (docs/calls.md#recording): Voxline as `npm start` runs it, killed with
 * SIGKILL while it records a call; the file it left plays up to the kill, and the next start on
 * the same DATA_DIR finishes the recording so that its owner lists and plays it.
 */
describe('a recording when its server is killed mid-call', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-recording-crash-'));
  const servers: ServerProcess[] = [];
  const tabs: RealtimeTab[] = [];
  const media: MediaClient[] = [];

  const start = async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3000', WEBRTC: 'false' });
    servers.push(server);
    return server;
  };

  afterAll(async () => {
    for (const tab of tabs) tab.socket.close();
    for (const client of media) client.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The spool's file for the recording `id` (recordings/<userId>/<id>.ogg), wherever under DATA_DIR/spool. */
  const spooled = (id: string) => {
    const spool = path.join(dataDir, 'spool');
    const found = fs.readdirSync(spool, { recursive: true, encoding: 'utf8' }).filter((entry) => path.basename(entry) === `${id}.ogg`);
    expect(found).toHaveLength(1);
    return path.join(spool, found[0]!);
  };

  it('leaves a file that plays up to the kill, which the next start finishes and its owner plays', async () => {
    const killed = await start();
    const owner = await signedUpWithNumber(killed.url, 'Crash Test');
    await payForPremium(killed.url, owner.browser);

    const { soundTestNumber } = (await owner.browser.get(`${killed.url}/api/v1/calls/lines`)).body as { soundTestNumber: string };
    const placed = await owner.browser.post(`${killed.url}/api/v1/calls`, { from: owner.number, to: soundTestNumber });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const callId = placed.body.call.id as string;
    const audio = await MediaClient.connect(`${killed.wsUrl}/api/v1/calls/${callId}/media`, cookieHeader(owner.browser.cookies));
    media.push(audio);
    audio.sendTone(440, 16_000);
    await until(() => audio.received.length > 25);

    const tab = await RealtimeTab.open(killed.wsUrl, owner.browser);
    tabs.push(tab);
    tab.send({ type: 'call.record', callId, recording: true });
    const started = await tab.next('call.recording');
    expect(started).toMatchObject({ callId, recording: true, byYou: true });
    // Five seconds of the call go by, counted in the echo: each frame of it came back after the
    // server had handed the user's frame to the recording, however slow a loaded machine is.
    const from = audio.received.length;
    await until(() => audio.received.length >= from + RECORDED_FRAMES, 15_000);
    const listed = (await owner.browser.get(`${killed.url}/api/v1/recordings`)).body.recordings as Recording[];
    expect(listed).toEqual([expect.objectContaining({ callId, state: 'recording' })]);
    const recording = listed[0]!;

    const killedAt = Date.now();
    const carriedMs = (audio.received.length - from) * 20;
    await killed.stop('SIGKILL');

    // What the killed server left in its spool: whole pages of two channels, the user's tone in the first.
    const left = fs.readFileSync(spooled(recording.id));
    const decoded = decodeOggOpus(left);
    expect(decoded.channels).toHaveLength(2);
    expect(decoded.durationMs).toBeGreaterThanOrEqual(carriedMs - PAGE_MS - PAIRING_MS - BATCH_MS);
    // No more than the time it ran, with the echo the line held from before the start.
    expect(decoded.durationMs).toBeLessThanOrEqual(killedAt - Date.parse(started.startedAt!) + ECHO_DELAY_MS);
    // After the announcement's beeps (the first second), the user's voice: 440 Hz, loud.
    const { sampleRate } = decoded;
    const voice = Array.from(decoded.channels[0]!.subarray(sampleRate, 3 * sampleRate), (sample) => sample / 32768);
    expect(dominantFrequency(voice, sampleRate)).toBeCloseTo(440, 0);
    expect(rms(voice)).toBeGreaterThan(0.2);

    // The next start on this DATA_DIR finishes the recording the killed one left: the embedded
    // database is locked to one process, so its first sweep takes every earlier instance as stopped,
    // with no heartbeat to wait out (instance-registry.ts, `sole`).
    const restarted = await start();
    const finished = async () => {
      const answer = await owner.browser.get(`${restarted.url}/api/v1/recordings`);
      return (answer.body.recordings as Recording[]).find((row) => row.id === recording.id);
    };
    await until(async () => (await finished())?.state === 'saved', 15_000);
    expect(await finished()).toMatchObject({ callId, durationSec: Math.round(decoded.durationMs / 1000), bytes: left.length });

    const played = await fetch(`${restarted.url}/api/v1/recordings/${recording.id}/audio`, { headers: { cookie: cookieHeader(owner.browser.cookies) } });
    expect(played.status).toBe(200);
    expect(played.headers.get('content-type')).toBe('audio/ogg');
    const served = Buffer.from(await played.arrayBuffer());
    expect(served.equals(left)).toBe(true);
    expect(decodeOggOpus(served).durationMs).toBe(decoded.durationMs);
  }, 120_000);
});
