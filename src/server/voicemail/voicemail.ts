import type { Database } from '../db/client';
import type { RealtimeHub } from '../realtime/realtime-hub';
import type { ObjectStore } from '../storage/object-store';
import { Greetings } from './greetings';
import type { AudioSource } from '../storage/object-store';
import { VoicemailService } from './service';
import { VoicemailTaker, type MessageSpool } from './voicemail-taker';

export interface VoicemailDependencies {
  db: Database;
  hub: RealtimeHub;
  store: ObjectStore;
  /** Writes messages as they are spoken, and tells when the store has taken one. */
  spool: MessageSpool & { onStored(listener: (key: string) => void): void };
  /** Reads (and deletes) a message still in this instance's spool, else in the store. */
  messageAudio: AudioSource & { delete(key: string): Promise<void> };
  instanceId: string;
  maxMessageMs: number;
  log: { warn(obj: object, msg: string): void };
}

/** Voicemail's two sides, assembled: the taker the call core hands unanswered calls to, and the owner's service. */
export function createVoicemail(deps: VoicemailDependencies): { taker: VoicemailTaker; service: VoicemailService } {
  const greetings = new Greetings(deps.db, deps.store, deps.log);
  const taker = new VoicemailTaker({ db: deps.db, hub: deps.hub, greetings, spool: deps.spool, instanceId: deps.instanceId, maxMessageMs: deps.maxMessageMs });
  deps.spool.onStored((key) => {
    if (key.startsWith('voicemail/')) taker.stored(key).catch((error: unknown) => deps.log.warn({ err: error, objectKey: key }, 'a stored voicemail message could not be marked saved'));
  });
  const service = new VoicemailService({ db: deps.db, store: deps.store, messageAudio: deps.messageAudio, greetings });
  return { taker, service };
}
