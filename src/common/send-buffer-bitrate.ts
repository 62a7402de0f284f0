import { FRAME_MS } from './calls';
import { OPUS_MIN_BITRATE } from './media';

/** More audio than this waiting in the socket's send buffer means the link carries less than the codec sends. */
const BACKLOG_MS = 100;
const STEP_DOWN = 0.75;
/** A step needs time to show in the buffer before the next one is judged. */
const FRAMES_BETWEEN_STEPS_DOWN = 500 / FRAME_MS;
/** How long the buffer stays empty before the rate steps back up. */
const EMPTY_FRAMES_BEFORE_STEP_UP = 3_000 / FRAME_MS;

/**
 * The websocket fallback's adaptation (issue 18, Deliver 3): the Opus bitrate steps down (×0.75,
 * not below OPUS_MIN_BITRATE) while the send buffer holds more than about 100 ms of audio, and
 * back up towards `ceiling` after a few seconds of it empty. Time is counted in frames sent.
 */
export class SendBufferBitrate {
  private current: number;
  private framesSinceStepDown = FRAMES_BETWEEN_STEPS_DOWN;
  private emptyFrames = 0;

  constructor(private readonly ceiling: number) {
    this.current = ceiling;
  }

  /** Called as each 20 ms packet goes out, with the socket's bufferedAmount; answers the bitrate to encode at. */
  observe(bufferedBytes: number): number {
    this.framesSinceStepDown += 1;
    this.emptyFrames = bufferedBytes === 0 ? this.emptyFrames + 1 : 0;
    const backlogBytes = (this.current / 8) * (BACKLOG_MS / 1000);
    if (bufferedBytes > backlogBytes && this.framesSinceStepDown >= FRAMES_BETWEEN_STEPS_DOWN && this.current > OPUS_MIN_BITRATE) {
      this.current = Math.max(OPUS_MIN_BITRATE, Math.round(this.current * STEP_DOWN));
      this.framesSinceStepDown = 0;
    } else if (this.emptyFrames >= EMPTY_FRAMES_BEFORE_STEP_UP && this.current < this.ceiling) {
      this.current = Math.min(this.ceiling, Math.round(this.current / STEP_DOWN));
      this.emptyFrames = 0;
    }
    return this.current;
  }
}
