import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, eq, inArray, isNull, notInArray, or } from 'drizzle-orm';
import { retainUntil } from '../../common/plans';
import type { CallLog } from '../calls/call-log';
import type { Database } from '../db/client';
import { oggOpusDurationMs } from '../media/ogg/ogg-duration';
import { VoicemailParty } from '../media/voicemail-party';
import { currentPlan } from '../plans/service';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { announceChange } from '../sync/announce-change';
import type { StoredAudioState } from '../storage/object-store';
import type { Greetings } from './greetings';
import { voicemailWriter } from './ogg-opus-encode';
import { voicemails } from './schema';
import type { UnansweredCall, VoicemailAnswering } from './voicemail-answering';

/** A message shorter than this holds no words (a caller who hung up at the beep): it is dropped. */
const MIN_MESSAGE_MS = 1_000;
const MESSAGE_CONTENT_TYPE = 'audio/ogg';
/** Past a message's longest time and then some, no machine is still going to adopt its file. */
const LEFT_BEHIND_GRACE_MS = 10 * 60_000;

/** A file the audio spool (storage/) writes as the caller speaks, then hands to the object store. */
export interface SpooledFile {
  write(bytes: Uint8Array): unknown;
  finish(): Promise<StoredAudioState>;
  readonly bytes: number;
}

export interface MessageSpool {
  open(key: string, contentType: string): SpooledFile;
  /** Stores a file a stopped instance left in the spool as it is (cut at a page: playable), and says where it stands. */
  adopt(key: string, contentType: string): Promise<StoredAudioState>;
  /** A stored or spooled file's bytes, wherever it is now; null when there is none. */
  read(key: string): Promise<Readable | null>;
}

export interface VoicemailTakerDependencies {
  db: Database;
  hub: RealtimeHub;
  greetings: Greetings;
  spool: MessageSpool;
  instanceId: string;
  maxMessageMs: number;
}

/**
 * Takes the calls nobody answered (docs/calls.md#voicemail): a VoicemailParty plays the owner's
 * greeting and a beep, and what the caller says is written as mono Ogg Opus to the spool as it
 * comes, its row saying where it stands; when the message ends it is kept, and the owner's tabs,
 * on every instance, hear of it.
 */
export class VoicemailTaker implements VoicemailAnswering {
  constructor(private readonly deps: VoicemailTakerDependencies) {}

  async answer(call: UnansweredCall): Promise<VoicemailParty> {
    const { db, greetings, spool, instanceId } = this.deps;
    const greeting = await greetings.samplesFor(call.ownerId);
    const id = randomUUID();
    const objectKey = `voicemail/${call.ownerId}/${id}.ogg`;
    const createdAt = new Date();
    const { tier } = await currentPlan(db, call.ownerId);
    await db.insert(voicemails).values({
      id,
      userId: call.ownerId,
      callId: call.callRecordId,
      fromNumber: call.from,
      toNumber: call.to,
      objectKey,
      state: 'recording',
      instanceId,
      createdAt,
      retainUntil: retainUntil(tier, 'voicemail', createdAt),
    });
    // The first second waits in memory: a caller who hangs up at the beep leaves no file behind.
    const early: Buffer[] = [];
    let file: SpooledFile | null = null;
    const writer = voicemailWriter((bytes) => {
      if (file) file.write(bytes);
      else early.push(bytes);
    });
    const party = new VoicemailParty({
      greeting,
      maxMessageMs: this.deps.maxMessageMs,
      record: (frame) => {
        writer.writeFrame(frame);
        if (!file && writer.durationMs >= MIN_MESSAGE_MS) {
          file = spool.open(objectKey, MESSAGE_CONTENT_TYPE);
          for (const bytes of early.splice(0)) file.write(bytes);
        }
      },
    });
    party.onClose(() => {
      writer.finish();
      this.keep({ id, ownerId: call.ownerId, from: call.from, createdAt }, file, Math.round(writer.durationMs), call.log).catch((error: unknown) =>
        call.log.warn({ err: error, voicemailId: id }, 'the voicemail message could not be finished'),
      );
    });
    return party;
  }

  /**
   * Messages an instance was taking when it stopped without finishing them (a crash, a kill): what
   * this machine's spool kept of each is stored as it is and its owner told. One with nothing here
   * may be on another machine's disk for a while; past LEFT_BEHIND_GRACE_MS it is 'failed'.
   * `running`: the instances alive now (the instance registry's sweep).
   */
  async adoptLeftBehind(running: ReadonlySet<string>, now = new Date()) {
    const { db, hub, spool, instanceId } = this.deps;
    const left = await db
      .select()
      .from(voicemails)
      .where(and(eq(voicemails.state, 'recording'), or(isNull(voicemails.instanceId), notInArray(voicemails.instanceId, [...running]))));
    for (const row of left) {
      const state = await spool.adopt(row.objectKey, MESSAGE_CONTENT_TYPE);
      if (state === 'failed' && now.getTime() - row.createdAt.getTime() < LEFT_BEHIND_GRACE_MS) continue;
      // Its length is read from the file: what the stopped instance wrote of it, to its last whole page.
      const file = state === 'failed' ? null : await spool.read(row.objectKey);
      const bytes = file ? await buffer(file) : Buffer.alloc(0);
      const [adopted] = await db
        .update(voicemails)
        .set({ state, instanceId, bytes: bytes.length, durationMs: Math.round(oggOpusDurationMs(bytes)) })
        .where(and(eq(voicemails.id, row.id), eq(voicemails.state, 'recording')))
        .returning();
      if (adopted && state !== 'failed') hub.send(row.userId, { type: 'voicemail.new', voicemailId: row.id, from: row.fromNumber, at: row.createdAt.toISOString() });
    }
  }

  /** The store took a spooled message: its row says it is kept. */
  async stored(objectKey: string) {
    await this.deps.db
      .update(voicemails)
      .set({ state: 'saved' })
      .where(and(eq(voicemails.objectKey, objectKey), inArray(voicemails.state, ['recording', 'pending_upload'])));
  }

  /** Ends a message: dropped when it holds no words (no file was opened), else kept and its owner told. */
  private async keep(message: { id: string; ownerId: string; from: string; createdAt: Date }, file: SpooledFile | null, durationMs: number, log: CallLog) {
    const { db, hub } = this.deps;
    if (!file) {
      await db.delete(voicemails).where(eq(voicemails.id, message.id));
      return;
    }
    // Its length before the store may take it: a row marked 'saved' is listed with its duration at once.
    await db.update(voicemails).set({ durationMs }).where(eq(voicemails.id, message.id));
    const state = await file.finish();
    await db.update(voicemails).set({ bytes: file.bytes }).where(eq(voicemails.id, message.id));
    // The store may have taken it already (onStored ran first): 'saved' stays.
    await db
      .update(voicemails)
      .set({ state })
      .where(and(eq(voicemails.id, message.id), eq(voicemails.state, 'recording')));
    hub.send(message.ownerId, { type: 'voicemail.new', voicemailId: message.id, from: message.from, at: message.createdAt.toISOString() });
    // The missed call in the owner's history now links to the message.
    await announceChange({ hub, db, log }, message.ownerId, ['history']);
  }
}
