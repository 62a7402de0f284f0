import { followCallSpeaker } from './devices/audio-output';

/** The far side of a WebRTC call, playing. */
export interface RemoteAudio {
  stop(): Promise<void>;
}

/**
 * Plays a WebRTC call's received track through an AudioContext to its destination, where all of a
 * call's sound goes (the E2E tests listen there).
 */
export async function playRemoteAudio(track: MediaStreamTrack): Promise<RemoteAudio> {
  const stream = new MediaStream([track]);
  // Chromium feeds a remote WebRTC stream into Web Audio only while a media element plays it too;
  // muted and never shown, the element adds nothing to what is heard.
  const element = new Audio();
  element.muted = true;
  element.srcObject = stream;
  const context = new AudioContext({ latencyHint: 'interactive' });
  const stopFollowingSpeaker = followCallSpeaker(context);
  const stop = async () => {
    stopFollowingSpeaker();
    element.pause();
    element.srcObject = null;
    await context.close().catch(() => {});
  };
  // Not awaited: play() settles only once audio arrives, which the connection does not promise; an
  // AbortError only says the call stopped first.
  element.play().catch((error: unknown) => (error instanceof DOMException && error.name === 'AbortError' ? undefined : console.warn('The call audio element could not play:', error)));
  try {
    context.createMediaStreamSource(stream).connect(context.destination);
    // Started from a click, but resume anyway: some browsers create the context suspended.
    await context.resume();
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}
