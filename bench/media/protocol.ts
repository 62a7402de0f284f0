import type { VoiceSettings } from '../../src/common/voice';

/** Messages between the bench (parent) and a server under test (child), over the fork's IPC channel. */

/**
 * The Voxline server's PUBLIC_URL, sent as the Origin of the bench's requests. https, as production
 * requires; the bench itself reaches the server over plain http on the loopback interface.
 */
export const BENCH_ORIGIN = 'https://voxline.bench.example';

/**
 * The voice changer's effect for the Opus benches: pitch 1.5, the live subject of bench/voice.
 * Pitch needs a paid plan, which the server under test grants the users it creates for it.
 */
export const EFFECT_VOICE: VoiceSettings = { voiceType: 'normal', pitch: 1.5, speed: 1 };

export interface BenchUser {
  id: string;
  email: string;
  /** The session cookies, as a Cookie header. */
  cookie: string;
}

/** The child's own resource use, read inside the child so the load generator's is not mixed in. */
export interface ServerUsage {
  /** process.hrtime in ms, to turn CPU time into a share of the wall clock. */
  atMs: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Buffers and typed arrays, which live outside the JS heap. */
  arrayBuffersBytes: number;
  /** Event-loop delay since the previous usage request, in ms. */
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Garbage-collection pauses since the previous usage request: their sum and the longest, in ms. */
  gcTotalMs: number;
  gcLongestMs: number;
  /** Full (mark-compact) collections since the previous usage request. */
  gcMajorCount: number;
}

export type ServerRequest =
  | { id: number; type: 'usage'; collectGarbage: boolean }
  /**
   * `voice`: the users' saved voice settings, with the plan they need; null keeps the normal voice.
   * `premium`: the users are granted Premium even without a voice (bench/load's --record).
   */
  | { id: number; type: 'create-users'; count: number; voice: VoiceSettings | null; premium: boolean }
  | { id: number; type: 'stop' };

export type ServerReply =
  | { type: 'ready'; port: number }
  | { id: number; type: 'usage'; usage: ServerUsage }
  | { id: number; type: 'users'; users: BenchUser[] }
  | { id: number; type: 'stopped' }
  | { id: number; type: 'failed'; message: string };
