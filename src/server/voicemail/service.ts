import { and, eq } from 'drizzle-orm';
import type { Voicemail, VoicemailList } from '../../common/api/voicemail';
import type { Database } from '../db/client';
import type { AudioSource, ObjectStore } from '../storage/object-store';
import type { Greetings } from './greetings';
import { findVoicemail, listVoicemail, markVoicemail } from './messages';
import { voicemails } from './schema';

export interface VoicemailServiceDependencies {
  db: Database;
  store: ObjectStore;
  /** A message wherever it is: still in this instance's spool, else in the store (storage/audio-spool.ts). */
  messageAudio: AudioSource & { delete(key: string): Promise<void> };
  greetings: Greetings;
}

/**
 * The owner's side of voicemail (docs/api.md, Voicemail): their messages, heard or not, and their
 * greeting. Its routes tell the owner's other tabs of a change (`sync` of the voicemail topic).
 */
export class VoicemailService {
  readonly greetings: Greetings;
  readonly store: ObjectStore;

  constructor(private readonly deps: VoicemailServiceDependencies) {
    this.greetings = deps.greetings;
    this.store = deps.store;
  }

  list(userId: string): Promise<VoicemailList> {
    return listVoicemail(this.deps.db, userId);
  }

  find(userId: string, id: string) {
    return findVoicemail(this.deps.db, userId, id);
  }

  /** Where messages are read from: the spool while one waits for the store, then the store. */
  get messageAudio(): AudioSource {
    return this.deps.messageAudio;
  }

  mark(userId: string, id: string, heard: boolean): Promise<Voicemail> {
    return markVoicemail(this.deps.db, userId, id, heard);
  }

  /** Deletes the message: its file first (store and spool), so that a failure leaves the row to try again. */
  async delete(userId: string, id: string) {
    const message = await findVoicemail(this.deps.db, userId, id);
    await this.deps.messageAudio.delete(message.objectKey);
    await this.deps.db.delete(voicemails).where(and(eq(voicemails.id, message.id), eq(voicemails.userId, userId)));
  }
}
