import type { Page } from '@playwright/test';

/** What a page played through one AudioContext, or through its media elements' streams. */
interface PlayedAudio {
  /** `audio-context`: what the page's own context sent to its speakers; `media-element`: the streams its <audio> and <video> elements were given. */
  kind: 'audio-context' | 'media-element';
  sampleRate: number;
  /** When the first sample reached the speakers (Date.now() milliseconds), by the context's output timestamp; null before the context ran. */
  startEpochMs: number | null;
  /** Samples played since the start, all of which `samples` holds unless only the last seconds were read. */
  totalSamples: number;
  /** Mono, one sample per context frame, ending with the newest: silence where nothing played. */
  samples: Float32Array;
}

interface TappedRecording {
  kind: PlayedAudio['kind'];
  sampleRate: number;
  startEpochMs: number | null;
  totalSamples: number;
  base64: string;
}

/**
 * The tap, run in every document before its own scripts. A string, not a function: tsx (which
 * runs the bench) compiles functions with helpers that do not exist in the page.
 *
 * Whatever a node connects to an AudioDestinationNode is also connected to a recorder, a
 * ScriptProcessorNode that mixes it to mono and keeps its samples in blocks of 1,024 (so up to
 * ~21 ms of the newest audio may not have arrived when read). A MediaStream given to a media
 * element's srcObject (a remote WebRTC stream played by an <audio>) is recorded in a context of
 * the tap's own, through a MediaStreamAudioSourceNode. The tap never breaks the page: what it
 * could not record is kept, and reading the tap fails with it.
 */
const TAP_SCRIPT = `(() => {
  const connect = AudioNode.prototype.connect;
  const disconnect = AudioNode.prototype.disconnect;
  const recordings = [];
  const failures = [];
  const failed = (error) => failures.push(String(error && error.message || error));
  const recorders = new WeakMap();
  const readyRecorders = new WeakMap();
  const toSpeakers = new WeakMap();

  function recorderFor(context, kind) {
    if (!recorders.has(context)) {
      // A ScriptProcessorNode, not a worklet: a worklet's module would have to load past the app's
      // Content-Security-Policy, and page.route does not see worklet fetches.
      const node = context.createScriptProcessor(1024, 1, 1);
      node.channelCount = 1;
      node.channelCountMode = 'explicit';
      node.channelInterpretation = 'speakers';
      const recording = { kind, sampleRate: context.sampleRate, startTime: null, startEpochMs: null, chunks: [] };
      node.onaudioprocess = (event) => {
        if (recording.startTime === null) recording.startTime = event.playbackTime;
        recording.chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
        // The output timestamp reads zero until the first audio has reached the speakers.
        const { contextTime, performanceTime } = context.getOutputTimestamp();
        if (recording.startEpochMs === null && performanceTime > 0) recording.startEpochMs = performance.timeOrigin + performanceTime + (recording.startTime - contextTime) * 1000;
      };
      recorders.set(context, Promise.resolve().then(() => {
        // A processor runs only while something pulls it: a silent gain to the speakers does.
        const silent = new GainNode(context, { gain: 0 });
        connect.call(node, silent);
        connect.call(silent, context.destination);
        recordings.push(recording);
        readyRecorders.set(context, node);
        return node;
      }));
    }
    return recorders.get(context);
  }

  AudioNode.prototype.connect = function (destination, output, ...rest) {
    const result = connect.call(this, destination, output, ...rest);
    if (destination instanceof AudioDestinationNode && this.context instanceof AudioContext) {
      const source = this;
      toSpeakers.set(source, output ?? 0);
      try {
        recorderFor(this.context, 'audio-context').then((recorder) => {
          // It may have been disconnected while the recorder loaded.
          if (toSpeakers.has(source)) connect.call(source, recorder, toSpeakers.get(source));
        }).catch(failed);
      } catch (error) {
        failed(error);
      }
    }
    return result;
  };

  AudioNode.prototype.disconnect = function (...args) {
    const result = disconnect.apply(this, args);
    if (args.length === 0 || typeof args[0] === 'number') toSpeakers.delete(this);
    if (args[0] instanceof AudioDestinationNode && toSpeakers.has(this)) {
      toSpeakers.delete(this);
      const recorder = readyRecorders.get(this.context);
      if (recorder) disconnect.call(this, recorder);
    }
    return result;
  };

  let ownContext = null;
  const elementSources = new WeakMap();
  const resumingElements = new WeakSet();
  const srcObject = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject');
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
    ...srcObject,
    set(stream) {
      srcObject.set.call(this, stream);
      const previous = elementSources.get(this);
      if (previous) disconnect.call(previous);
      elementSources.delete(this);
      if (!(stream instanceof MediaStream) || stream.getAudioTracks().length === 0) return;
      try {
        ownContext = ownContext || new AudioContext();
        const source = ownContext.createMediaStreamSource(stream);
        elementSources.set(this, source);
        recorderFor(ownContext, 'media-element').then((recorder) => {
          if (elementSources.get(this) === source) connect.call(source, recorder);
        }).catch(failed);
        // Without a user's gesture the tap's context starts suspended; the element's play() comes with one.
        ownContext.resume();
        if (!resumingElements.has(this)) this.addEventListener('play', () => ownContext.resume());
        resumingElements.add(this);
      } catch (error) {
        failed(error);
      }
    },
  });

  function toBase64(chunks) {
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const all = new Float32Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    const bytes = new Uint8Array(all.buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  /** The chunks holding at least the last \`seconds\` (all of them without it). */
  function tail(chunks, sampleRate, seconds) {
    if (seconds === undefined) return chunks;
    let wanted = Math.ceil(seconds * sampleRate);
    let first = chunks.length;
    while (first > 0 && wanted > 0) wanted -= chunks[--first].length;
    return chunks.slice(first);
  }

  Object.defineProperty(window, '__playedAudioTap', {
    value: {
      read: (seconds) => ({
        failures,
        recordings: recordings.map(({ kind, sampleRate, startEpochMs, chunks }) => ({
          kind,
          sampleRate,
          startEpochMs,
          totalSamples: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
          base64: toBase64(tail(chunks, sampleRate, seconds)),
        })),
      }),
    },
  });
})();`;

/** Installs the tap in every document the page loads from now on: call it before page.goto. */
export async function installPlayedAudioTap(page: Page): Promise<void> {
  await page.addInitScript({ content: TAP_SCRIPT });
}

/**
 * What the page has played so far, one recording per context that played it: all of it, or at
 * least the last `lastSeconds` of each (whole blocks of 1,024 samples).
 */
export async function readPlayedAudio(page: Page, lastSeconds?: number): Promise<PlayedAudio[]> {
  const { failures, recordings } = (await page.evaluate(`window.__playedAudioTap.read(${lastSeconds ?? ''})`)) as { failures: string[]; recordings: TappedRecording[] };
  if (failures.length > 0) throw new Error(`the played-audio tap missed some of what the page played: ${failures.join('; ')}`);
  return recordings.map(({ base64, ...recording }) => {
    // Copied: a small Buffer sits in a shared pool at an offset a Float32Array may not start at.
    return { ...recording, samples: new Float32Array(new Uint8Array(Buffer.from(base64, 'base64')).buffer) };
  });
}
