import type { CallRecord, DtmfResult, PlaceCallBody, PlaceCallResult } from '../../common/api/calls';
import type { Preferences } from '../../common/api/preferences';
import type { CallMediaFigures } from '../../common/call-quality';
import type { CallMediaOptions } from './call-media';
import type { CallMediaLink } from './call-media-link';

/** The microphone and the call's audio connection. */
interface CallMediaPort {
  /** Throws a MicrophoneError saying what to do when the microphone is refused or missing. */
  openMicrophone(): Promise<MediaStream>;
  connect(options: CallMediaOptions): Promise<CallMediaLink>;
}

/** The REST side of a call. */
export interface CallServer {
  placeCall(body: PlaceCallBody): Promise<PlaceCallResult>;
  getCall(callId: string): Promise<CallRecord>;
  hangUpCall(callId: string): Promise<CallRecord>;
  /** Touch-tones on the call in progress (docs/calls.md#touch-tones). */
  sendDtmf(callId: string, digits: string): Promise<DtmfResult>;
  /** What the browser measured of the call's audio, kept on its record (docs/calls.md#call-details). */
  saveMediaFigures(callId: string, figures: CallMediaFigures): Promise<void>;
}

export interface Clock {
  now(): number;
  /** Runs `run` once after `ms`; answers a function that cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Runs `run` every `ms`; answers a function that stops it. */
  every(ms: number, run: () => void): () => void;
}

export interface NoticeOptions {
  id?: string;
  description?: string;
  duration?: number;
  action?: { label: string; onClick(): void };
}

/** The page's notices (toasts). */
export interface Notices {
  info(title: string, options?: NoticeOptions): void;
  success(title: string, options?: NoticeOptions): void;
  warning(title: string, options?: NoticeOptions): void;
  error(title: string, options?: NoticeOptions): void;
  dismiss(id: string): void;
}

/** The system notification of a call ringing in a hidden tab. */
interface IncomingCallAlerts {
  askPermission(): void;
  /** Answers a function that closes what was shown, or null when nothing was. */
  notify(callId: string, from: string): (() => void) | null;
}

/** Everything a CallSession reaches outside itself, so that tests can stand in for each part. */
export interface CallSessionDeps {
  server: CallServer;
  media: CallMediaPort;
  clock: Clock;
  notices: Notices;
  alerts: IncomingCallAlerts;
  /** The user's preferences as last loaded (Auto-Answer, notifications, Low Data Mode). */
  preferences(): Preferences;
  /** A call ended: the call history is read again. */
  onCallEnded(): void;
  /** Opens the plans, from the notice that the month's minutes are used up. */
  openPlans(): void;
}
