import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { WIDEBAND_RATE } from '../../common/calls';
import type { VoicemailGreeting } from '../../common/api/voicemail';
import type { Database } from '../db/client';
import type { ObjectStore } from '../storage/object-store';
import { decodeGreeting } from './greeting-audio';
import { decodeOggOpus } from './ogg-opus-audio';
import { encodeOggOpus } from './ogg-opus-encode';
import { voicemailGreetings } from './schema';

/** The greeting callers hear when the owner has recorded none, made by scripts/generate-default-greeting.sh. */
const DEFAULT_GREETING_FILE = fileURLToPath(new URL('./assets/default-greeting.ogg', import.meta.url));
export const GREETING_CONTENT_TYPE = 'audio/ogg';

let defaultGreeting: { bytes: Buffer; samples: Int16Array } | null = null;

/** The default greeting's file and samples, read and decoded once. */
function defaultGreetingAudio(): { bytes: Buffer; samples: Int16Array } {
  if (!defaultGreeting) {
    const bytes = fs.readFileSync(DEFAULT_GREETING_FILE);
    defaultGreeting = { bytes, samples: decodeOggOpus(bytes) };
  }
  return defaultGreeting;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The owners' voicemail greetings (docs/calls.md#voicemail): one each, recorded in the browser and
 * kept in the object store as mono Ogg Opus, or the default shipped with the app.
 */
export class Greetings {
  constructor(
    private readonly db: Database,
    private readonly store: ObjectStore,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  private async row(userId: string) {
    const [row] = await this.db.select().from(voicemailGreetings).where(eq(voicemailGreetings.userId, userId));
    return row;
  }

  async describe(userId: string): Promise<VoicemailGreeting> {
    const row = await this.row(userId);
    if (row) return { custom: true, durationSec: row.durationMs / 1000, updatedAt: row.updatedAt.toISOString() };
    return { custom: false, durationSec: defaultGreetingAudio().samples.length / WIDEBAND_RATE, updatedAt: null };
  }

  /** Where the owner's greeting file is: their own object, or the default file. */
  async file(userId: string): Promise<{ key: string; bytes: number } | { defaultFile: Buffer }> {
    const row = await this.row(userId);
    return row ? { key: row.objectKey, bytes: row.bytes } : { defaultFile: defaultGreetingAudio().bytes };
  }

  /**
   * What a caller hears before the beep, mono at 16 kHz: the owner's greeting, or the default when
   * they have none or the store cannot give it now (a call never waits on a broken store).
   */
  async samplesFor(userId: string): Promise<Int16Array> {
    try {
      const row = await this.row(userId);
      const stream = row ? await this.store.read(row.objectKey) : null;
      if (stream) return decodeOggOpus(await readAll(stream));
    } catch (error) {
      this.log.warn({ err: error, userId }, 'the voicemail greeting could not be read; the default plays');
    }
    return defaultGreetingAudio().samples;
  }

  /** Replaces the owner's greeting with an uploaded WAV or Ogg Opus file (checked by decodeGreeting). */
  async replace(userId: string, upload: Buffer): Promise<VoicemailGreeting> {
    const samples = decodeGreeting(upload);
    const ogg = encodeOggOpus(samples);
    const objectKey = `greetings/${userId}/${randomUUID()}.ogg`;
    await this.store.put(objectKey, ogg, GREETING_CONTENT_TYPE);
    const previous = await this.row(userId);
    const values = { objectKey, contentType: GREETING_CONTENT_TYPE, durationMs: Math.round((samples.length * 1000) / WIDEBAND_RATE), bytes: ogg.length, updatedAt: new Date() };
    await this.db
      .insert(voicemailGreetings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: voicemailGreetings.userId, set: values });
    if (previous) await this.forget(previous.objectKey);
    return this.describe(userId);
  }

  /** Back to the default greeting. */
  async reset(userId: string): Promise<VoicemailGreeting> {
    const [removed] = await this.db.delete(voicemailGreetings).where(eq(voicemailGreetings.userId, userId)).returning();
    if (removed) await this.forget(removed.objectKey);
    return this.describe(userId);
  }

  /** An old greeting's object; one the store cannot delete now is left for later, not an error to the user. */
  private async forget(objectKey: string) {
    await this.store.delete(objectKey).catch((error: unknown) => this.log.warn({ err: error, objectKey }, 'an old voicemail greeting could not be deleted'));
  }
}
