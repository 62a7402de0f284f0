import { randomUUID } from 'node:crypto';
import { RECORDING_PLAN_REQUIRED_MESSAGE, recordingRefusalCodes } from '../../common/api/recordings';
import { plans } from '../../common/plans';
import type { ServerMessage } from '../../common/realtime';
import type { CallLog } from '../calls/call-log';
import type { LiveCall, LiveCalls } from '../calls/live-calls';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import type { BridgeSide } from '../media/media-bridge';
import { currentPlan } from '../plans/service';
import { getPreferences } from '../preferences/service';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { announcementSound, RecordingAnnouncement } from './recording-announcement';
import { RecordingFile, type SpooledFile, type StereoEncoderFactory } from './recording-file';
import { finishRecording, insertRecording, markStored, RECORDING_CONTENT_TYPE, recordingKey } from './recording-rows';

const NOT_ANSWERED_MESSAGE = 'Only a call that has been answered can be recorded';
const NOT_SAVED_MESSAGE = 'The recording could not be saved. Your call goes on.';

/** Where recordings are written as the call goes (storage/audio-spool.ts). */
interface RecordingSpool {
  open(key: string, contentType: string): SpooledFile | Promise<SpooledFile>;
  /** Called with each key the object store has taken from the spool (voicemail's too). */
  onStored(listener: (key: string) => void): void;
}

export interface CallRecorderDependencies {
  db: Database;
  hub: RealtimeHub;
  live: LiveCalls;
  spool: RecordingSpool;
  /** Makes a stereo Ogg Opus encoder at RECORDING_RATE writing into `sink`. */
  encoder: StereoEncoderFactory;
  instanceId: string;
  log: CallLog;
}

/** A participant's side of a live call: their user id and their own record of it. */
interface Participant {
  call: LiveCall;
  side: BridgeSide;
  userId: string;
  recordId: string;
}

/** A recording asked for on a call this instance holds: its file once the call's audio is joined. */
interface ActiveRecording extends Participant {
  id: string;
  startedAt: Date;
  file: RecordingFile | null;
  /** Stopped, or being stopped: a file still being opened is closed at once. */
  stopping: boolean;
  /** Its user has been told that it could not be saved (once is enough). */
  toldNotSaved: boolean;
}

/**
 * Records calls this instance holds for the participants who ask (docs/calls.md#recording): either
 * Voxline user on a call may record it for themselves, by `call.record` or by their "Record calls"
 * preference once it is answered. Both sides are told, the far side hears the announcement, and
 * the recording ends when its user stops it or the call ends. A failure stops the recording, tells
 * its user, and never touches the call.
 */
export class CallRecorder {
  /** By the recording user's own record id. */
  private readonly active = new Map<string, ActiveRecording>();

  constructor(private readonly deps: CallRecorderDependencies) {
    const { live, db, log } = deps;
    deps.spool.onStored((key) => {
      if (key.startsWith('recordings/')) markStored(db, key).catch((error: unknown) => log.warn({ err: error, objectKey: key }, 'a stored recording could not be marked saved'));
    });
    live.onAnswered((call) => void this.recordByPreference(call));
    live.onJoined((call) => {
      for (const recording of this.active.values()) if (recording.call === call) void this.begin(recording);
    });
    live.onEnding((call) => {
      for (const recording of [...this.active.values()]) if (recording.call === call) void this.stop(recording);
    });
  }

  /**
   * The user starts or stops recording their call `recordId` (their own record, as caller or
   * callee) when this instance holds it: false when it does not. Throws for a Free plan or a call not answered.
   */
  async set(userId: string, recordId: string, recording: boolean): Promise<boolean> {
    const participant = this.participant(userId, recordId);
    if (!participant) return false;
    const current = this.active.get(recordId);
    if (!recording) {
      if (current) await this.stop(current);
      return true;
    }
    if (current) return true;
    const { tier } = await currentPlan(this.deps.db, userId);
    if (!plans[tier].recording) throw new AppError(403, recordingRefusalCodes.planRequired, RECORDING_PLAN_REQUIRED_MESSAGE);
    if (!participant.call.answeredAt || participant.call.ending) throw new AppError(409, recordingRefusalCodes.notAnswered, NOT_ANSWERED_MESSAGE);
    this.start(participant);
    return true;
  }

  /** Recordings being written here now. */
  get count(): number {
    return this.active.size;
  }

  private participant(userId: string, recordId: string): Participant | null {
    const inbound = this.deps.live.getInbound(recordId);
    if (inbound) {
      if (inbound.userId !== userId) throw AppError.notFound('No such call in progress');
      return { call: inbound.outbound, side: 'callee', userId, recordId };
    }
    const call = this.deps.live.get(recordId);
    if (!call) return null;
    if (call.userId !== userId) throw AppError.notFound('No such call in progress');
    return { call, side: 'caller', userId, recordId };
  }

  /** Each Voxline participant whose "Record calls" preference is on records the call from its answer. */
  private async recordByPreference(call: LiveCall) {
    const participants: Participant[] = [];
    if (call.userId) participants.push({ call, side: 'caller', userId: call.userId, recordId: call.id });
    if (call.inbound) participants.push({ call, side: 'callee', userId: call.inbound.userId, recordId: call.inbound.id });
    for (const participant of participants) {
      try {
        if (!(await getPreferences(this.deps.db, participant.userId)).recordCalls) continue;
        const { tier } = await currentPlan(this.deps.db, participant.userId);
        if (plans[tier].recording && !call.ending && !this.active.has(participant.recordId)) this.start(participant);
      } catch (error) {
        call.log.warn({ err: error, userId: participant.userId }, 'could not start recording by preference');
      }
    }
  }

  private start(participant: Participant) {
    const recording: ActiveRecording = { ...participant, id: randomUUID(), startedAt: new Date(), file: null, stopping: false, toldNotSaved: false };
    this.active.set(participant.recordId, recording);
    if (participant.call.bridge) void this.begin(recording);
  }

  /** Opens the file and starts writing, once the call's audio is joined; tells both sides. */
  private async begin(recording: ActiveRecording) {
    const { call, side, userId } = recording;
    const bridge = call.bridge;
    if (!bridge || recording.file || recording.stopping) return;
    try {
      const { tier } = await currentPlan(this.deps.db, userId);
      recording.startedAt = new Date();
      await insertRecording(this.deps.db, { id: recording.id, userId, callId: recording.recordId, tier, instanceId: this.deps.instanceId, startedAt: recording.startedAt });
      const spooled = await this.deps.spool.open(recordingKey(userId, recording.id), RECORDING_CONTENT_TYPE);
      recording.file = new RecordingFile({ bridge, side, file: spooled, encoder: this.deps.encoder, onFailure: (error) => this.failed(recording, error) });
    } catch (error) {
      this.failed(recording, error);
      return;
    }
    if (recording.stopping || call.ending) {
      await this.finish(recording);
      return;
    }
    const far: BridgeSide = side === 'caller' ? 'callee' : 'caller';
    const mine = side === 'caller' ? bridge.caller : bridge.callee;
    bridge.setOverlay(far, new RecordingAnnouncement(announcementSound(mine.sampleRate, this.farIsOutside(recording))));
    call.log.info({ recordingId: recording.id, userId }, 'recording started');
    this.tellBoth(recording, true);
  }

  /** The far side is a phone outside Voxline (it then also hears the spoken notice), not a person on Voxline or the sound test. */
  private farIsOutside({ call, side }: Participant): boolean {
    return side === 'caller' ? call.metered : call.userId === null;
  }

  private async stop(recording: ActiveRecording) {
    if (recording.stopping) return;
    recording.stopping = true;
    this.active.delete(recording.recordId);
    if (recording.file) {
      if (!recording.call.ending) this.tellBoth(recording, false);
      await this.finish(recording);
    }
  }

  /** Ends the file and records what it came to; a file the spool could not keep is reported to its user. */
  private async finish(recording: ActiveRecording) {
    const { call } = recording;
    try {
      const file = await recording.file!.stop();
      await finishRecording(this.deps.db, recording.id, file, new Date());
      call.log.info({ recordingId: recording.id, state: file.state, durationMs: Math.round(file.durationMs), bytes: file.bytes }, 'recording finished');
      if (file.state === 'failed') this.notSaved(recording);
    } catch (error) {
      call.log.warn({ err: error, recordingId: recording.id }, 'could not finish the recording');
      this.notSaved(recording);
    }
  }

  private failed(recording: ActiveRecording, error: unknown) {
    recording.call.log.warn({ err: error, recordingId: recording.id }, 'the recording failed; the call goes on');
    this.notSaved(recording);
    if (recording.stopping) return;
    recording.stopping = true;
    this.active.delete(recording.recordId);
    if (!recording.call.ending) this.tellBoth(recording, false);
    if (recording.file) void this.finish(recording);
    else void this.markFailed(recording);
  }

  /** A recording that never got its file: its row, if written, says it failed. */
  private async markFailed(recording: ActiveRecording) {
    try {
      await finishRecording(this.deps.db, recording.id, { state: 'failed', durationMs: 0, bytes: 0 }, new Date());
    } catch (error) {
      recording.call.log.warn({ err: error, recordingId: recording.id }, 'could not mark the recording as failed');
    }
  }

  private notSaved(recording: ActiveRecording) {
    if (recording.toldNotSaved) return;
    recording.toldNotSaved = true;
    this.deps.hub.send(recording.userId, { type: 'notice', code: 'recording_failed', message: NOT_SAVED_MESSAGE });
  }

  /** `call.recording` to each Voxline participant, on their own record of the call. */
  private tellBoth(recording: ActiveRecording, on: boolean) {
    const { call } = recording;
    const startedAt = recording.startedAt.toISOString();
    const message = (recordId: string, byYou: boolean): ServerMessage => ({ type: 'call.recording', callId: recordId, recording: on, byYou, ...(on ? { startedAt } : {}) });
    if (call.userId) this.deps.hub.send(call.userId, message(call.id, recording.side === 'caller'));
    if (call.inbound) this.deps.hub.send(call.inbound.userId, message(call.inbound.id, recording.side === 'callee'));
  }
}
