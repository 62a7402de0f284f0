import type { CallSampleRate } from '../../common/calls';
import { CallAudio } from '../audio/call-audio';
import { SIGNED_OUT_CLOSE_CODE } from '../lib/realtime';

export interface CallMediaOptions {
  /** Path of the call's media websocket, `/api/v1/calls/:id/media`. */
  mediaPath: string;
  /** A microphone stream from openMicrophone(); it is stopped when the media stops or fails to start. */
  stream: MediaStream;
  sampleRate: CallSampleRate;
  /**
   * The socket closed without close() being called: the server ended the call or the network
   * dropped. `signedOut`: the server closed it because the session ended, which ended the call.
   */
  onDrop(signedOut: boolean): void;
}

/**
 * The audio of one call on the wire, the same for calls made and calls received: the microphone's
 * 20 ms frames go out on the call's media websocket and the frames that come back are played.
 */
export class CallMedia {
  private constructor(
    private readonly socket: WebSocket,
    private readonly audio: CallAudio,
  ) {}

  static async connect({ mediaPath, stream, sampleRate, onDrop }: CallMediaOptions): Promise<CallMedia> {
    const socket = new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${mediaPath}`);
    socket.binaryType = 'arraybuffer';
    let dropped = false;
    socket.onclose = () => {
      dropped = true;
    };
    let audio: CallAudio;
    try {
      audio = await CallAudio.start(stream, sampleRate, {
        onFrame: (frame) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(frame);
        },
      });
    } catch (error) {
      socket.onclose = null;
      socket.close();
      throw error;
    }
    if (dropped) {
      await audio.stop();
      throw new Error('The call was cut off');
    }
    socket.onmessage = (event: MessageEvent<ArrayBuffer>) => audio.play(event.data);
    socket.onclose = (event: CloseEvent) => onDrop(event.code === SIGNED_OUT_CLOSE_CODE);
    return new CallMedia(socket, audio);
  }

  setMuted(muted: boolean) {
    this.audio.setMuted(muted);
  }

  /** Stops the audio and closes the socket; onDrop is not called. */
  close() {
    this.socket.onclose = null;
    this.socket.onmessage = null;
    this.socket.close();
    void this.audio.stop();
  }
}
