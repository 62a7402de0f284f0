import type { BrowserContext, Page } from '@playwright/test';

/**
 * What the network bench installs in each page before the app loads, to measure a call from the
 * audio itself rather than from the app's sockets:
 * - `sent`: the microphone as the app captures it (each stream getUserMedia returns, processing
 *   included, fed to a recorder in an AudioContext of the probe's own);
 * - `played`: everything the page plays (each node the app connects to an AudioContext's
 *   destination is also connected to a recorder in that context);
 * - the page's RTCPeerConnections, for their getStats(), and the websocket path's jitter buffer
 *   figures, which the app's playback worklet reports on its port;
 * - with a relay mapping, the network between the page and the server's WebRTC ports, as a 1:1
 *   NAT with a port offset would make it: the server's candidates at the announced address reach
 *   the UDP impairment relay (the same address, the port plus the offset) and its others are gone,
 *   and the browser's host addresses are hidden behind mDNS names, which the server ignores, so
 *   that it learns the browser's address from checks that came through the relay. Without this, on
 *   one machine, ICE finds the direct path around the relay.
 * Recorders keep mono audio at PROBE_RATE with their context's clock mapped to wall time
 * (performance.timeOrigin + getOutputTimestamp()), so that audio captured in one page and played in
 * another, on this machine's one clock, line up.
 */

/** The rate recordings are kept at, whatever the pages' AudioContexts run at. */
export const PROBE_RATE = 16_000;

/** One recorder's audio: sample n of chunk c was at wall time offsetMs + (c.index + n) / PROBE_RATE s. */
export interface ProbeRecording {
  kind: 'sent' | 'played';
  offsetMs: number;
  chunks: { index: number; pcm: Int16Array }[];
}

/** One RTCPeerConnection's counters, summed over its audio streams. */
interface PeerCounters {
  connectionState: string;
  concealedSamples: number;
  totalSamplesReceived: number;
  bytesSent: number;
  bytesReceived: number;
  jitterMs: number | null;
  roundTripMs: number | null;
  /** Seconds summed over every sample played of how long it waited in the jitter buffer, and the samples played. */
  jitterBufferDelay: number;
  jitterBufferEmittedCount: number;
}

/** The websocket path's jitter buffer: frames played from the wire, and frames made up to hide a gap. */
interface PlaybackCounters {
  played: number;
  concealed: number;
}

export interface ProbeStats {
  peers: PeerCounters[];
  playback: PlaybackCounters | null;
}

/** Where the UDP impairment relay stands in for the server's WebRTC ports. */
export interface RelayMapping {
  /** The address the server announces (WEBRTC_PUBLIC_ADDRESS), where the relay listens too. */
  address: string;
  /** The relay's port for the server's port p is p + portOffset. */
  portOffset: number;
}

interface ProbeSettings {
  rate: number;
  chunkSamples: number;
  keepMs: number;
  relay: RelayMapping | null;
}

interface PageRecording {
  kind: 'sent' | 'played';
  offsetMs: number;
  chunks: { index: number; pcm: string }[];
}

/** The page's side: window.__voxlineProbe. */
interface PageProbe {
  take(fromMs: number, toMs: number): PageRecording[];
  stats(): Promise<ProbeStats>;
}

/**
 * The AudioWorklet processor of every recorder, as source: it averages the context's frames into
 * bins of 1 / rate s, numbered from the context's frame 0 (so bin n is at context time n / rate),
 * and posts them in chunks.
 */
function recorderProcessor(rate: number, chunkSamples: number) {
  const scope = globalThis as unknown as { currentFrame: number };
  const step = sampleRate / rate;
  class ProbeRecorder extends AudioWorkletProcessor {
    private chunk = new Int16Array(chunkSamples);
    private length = 0;
    private chunkIndex = 0;
    private bin = -1;
    private sum = 0;
    private count = 0;

    process(inputs: Float32Array[][]) {
      const channels = inputs[0] ?? [];
      const frames = channels[0]?.length ?? 128;
      for (let i = 0; i < frames; i += 1) {
        const bin = Math.floor((scope.currentFrame + i) / step);
        if (bin !== this.bin) {
          if (this.count > 0) this.emit(this.bin, this.sum / this.count);
          this.bin = bin;
          this.sum = 0;
          this.count = 0;
        }
        let value = 0;
        for (const channel of channels) value += channel[i] ?? 0;
        this.sum += channels.length > 0 ? value / channels.length : 0;
        this.count += 1;
      }
      return true;
    }

    private emit(bin: number, value: number) {
      if (this.length > 0 && bin !== this.chunkIndex + this.length) this.flush();
      if (this.length === 0) this.chunkIndex = bin;
      this.chunk[this.length] = Math.round(Math.max(-1, Math.min(1, value)) * 32767);
      this.length += 1;
      if (this.length === chunkSamples) this.flush();
    }

    private flush() {
      const pcm = this.chunk.slice(0, this.length);
      this.port.postMessage({ index: this.chunkIndex, pcm }, [pcm.buffer]);
      this.length = 0;
    }
  }
  registerProcessor('voxline-probe-recorder', ProbeRecorder as unknown as new (options: AudioWorkletNodeOptions) => AudioWorkletProcessorBase);
}

/** Runs in the page, before its scripts. Self-contained: it is sent to the page as source. */
function installInPage(settings: ProbeSettings, processorSource: string) {
  interface Recorder {
    kind: 'sent' | 'played';
    offsets: number[];
    chunks: { index: number; pcm: Int16Array }[];
  }
  const recorders: Recorder[] = [];
  const recorderNodes = new WeakMap<BaseAudioContext, Promise<AudioWorkletNode>>();
  const moduleUrl = URL.createObjectURL(new Blob([processorSource], { type: 'text/javascript' }));
  const nativeConnect = AudioNode.prototype.connect as (this: AudioNode, destination: AudioNode, output?: number, input?: number) => AudioNode;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

  // `sent` audio is stamped when its context processes it: its output time less the output latency.
  const recorderIn = (context: AudioContext, kind: Recorder['kind']) => {
    let node = recorderNodes.get(context);
    if (!node) {
      node = context.audioWorklet.addModule(moduleUrl).then(() => {
        const recorder: Recorder = { kind, offsets: [], chunks: [] };
        recorders.push(recorder);
        const worklet = new AudioWorkletNode(context, 'voxline-probe-recorder', { numberOfInputs: 1, numberOfOutputs: 0 });
        worklet.port.onmessage = (event: MessageEvent<{ index: number; pcm: Int16Array }>) => {
          recorder.chunks.push(event.data);
          const stamp = context.getOutputTimestamp();
          if (stamp.performanceTime && stamp.contextTime) {
            const latencyMs = kind === 'sent' ? (context.baseLatency + context.outputLatency) * 1000 : 0;
            recorder.offsets.push(performance.timeOrigin + stamp.performanceTime - stamp.contextTime * 1000 - latencyMs);
            if (recorder.offsets.length > 200) recorder.offsets.shift();
          }
          const keepFrom = event.data.index - (settings.keepMs / 1000) * settings.rate;
          while ((recorder.chunks[0]?.index ?? keepFrom) < keepFrom) recorder.chunks.shift();
        };
        return worklet;
      });
      recorderNodes.set(context, node);
    }
    return node;
  };

  AudioNode.prototype.connect = function (this: AudioNode, destination: AudioNode, output?: number, input?: number) {
    const result = nativeConnect.call(this, destination, output, input);
    if (destination instanceof AudioDestinationNode && this.context instanceof AudioContext) {
      recorderIn(this.context, 'played').then(
        (recorder) => nativeConnect.call(this, recorder, output ?? 0),
        (error: unknown) => console.warn('voxline probe: no recorder for the played audio', error),
      );
    }
    return result;
  } as typeof AudioNode.prototype.connect;

  let micContext: AudioContext | null = null;
  const nativeGetUserMedia = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, constraints?: MediaStreamConstraints) {
    const stream = await nativeGetUserMedia.call(this, constraints);
    if (stream.getAudioTracks().length > 0) {
      micContext ??= new AudioContext({ latencyHint: 'interactive' });
      const context = micContext;
      void context.resume();
      recorderIn(context, 'sent').then(
        (recorder) => nativeConnect.call(context.createMediaStreamSource(stream), recorder),
        (error: unknown) => console.warn('voxline probe: no recorder for the microphone', error),
      );
    }
    return stream;
  };

  let playback: PlaybackCounters | null = null;
  const NativeWorkletNode = window.AudioWorkletNode;
  window.AudioWorkletNode = class extends NativeWorkletNode {
    constructor(context: BaseAudioContext, name: string, options?: AudioWorkletNodeOptions) {
      super(context, name, options);
      // The app's playback worklet reports its jitter buffer's running counts on its port.
      if (name === 'voxline-playback') {
        this.port.addEventListener('message', (event: MessageEvent<{ stats?: PlaybackCounters }>) => {
          if (event.data?.stats) playback = { played: event.data.stats.played, concealed: event.data.stats.concealed };
        });
      }
    }
  };

  // a=candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type> …
  const CANDIDATE = /^a=candidate:(\S+ \d+ \S+ \d+) (\S+) (\d+) typ (\S+)(.*)$/;
  const mdnsNames = new Map<string, string>();
  const hideHostAddresses = (sdp: string) =>
    sdp
      .split('\r\n')
      .map((line) => {
        const match = CANDIDATE.exec(line);
        if (!match || match[4] !== 'host' || match[2]!.endsWith('.local')) return line;
        if (!mdnsNames.has(match[2]!)) mdnsNames.set(match[2]!, `${crypto.randomUUID()}.local`);
        return `a=candidate:${match[1]} ${mdnsNames.get(match[2]!)} ${match[3]} typ ${match[4]}${match[5]}`;
      })
      .join('\r\n');
  const throughRelay = (sdp: string, { address, portOffset }: RelayMapping) =>
    sdp
      .split('\r\n')
      .flatMap((line) => {
        const match = CANDIDATE.exec(line);
        if (!match) return [line];
        if (match[2] !== address) return [];
        return [`a=candidate:${match[1]} ${address} ${Number(match[3]) + portOffset} typ ${match[4]}${match[5]}`];
      })
      .join('\r\n');

  const peers: RTCPeerConnection[] = [];
  const NativePeer = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePeer {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      peers.push(this);
    }

    override get localDescription() {
      const description = super.localDescription;
      if (!settings.relay || !description) return description;
      return new RTCSessionDescription({ type: description.type, sdp: hideHostAddresses(description.sdp) });
    }

    override setRemoteDescription(description: RTCSessionDescriptionInit) {
      const relay = settings.relay;
      return super.setRemoteDescription(relay && description.sdp ? { type: description.type, sdp: throughRelay(description.sdp, relay) } : description);
    }
  };

  const peerCounters = async (peer: RTCPeerConnection): Promise<PeerCounters> => {
    const counters: PeerCounters = { connectionState: peer.connectionState, concealedSamples: 0, totalSamplesReceived: 0, bytesSent: 0, bytesReceived: 0, jitterMs: null, roundTripMs: null, jitterBufferDelay: 0, jitterBufferEmittedCount: 0 };
    const report = await peer.getStats();
    report.forEach((entry: Record<string, unknown>) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'audio') {
        counters.concealedSamples += Number(entry.concealedSamples ?? 0);
        counters.totalSamplesReceived += Number(entry.totalSamplesReceived ?? 0);
        counters.bytesReceived += Number(entry.bytesReceived ?? 0);
        if (typeof entry.jitter === 'number') counters.jitterMs = entry.jitter * 1000;
        counters.jitterBufferDelay += Number(entry.jitterBufferDelay ?? 0);
        counters.jitterBufferEmittedCount += Number(entry.jitterBufferEmittedCount ?? 0);
      }
      if (entry.type === 'outbound-rtp' && entry.kind === 'audio') counters.bytesSent += Number(entry.bytesSent ?? 0);
      if (entry.type === 'candidate-pair' && entry.nominated === true && typeof entry.currentRoundTripTime === 'number') counters.roundTripMs = entry.currentRoundTripTime * 1000;
    });
    return counters;
  };

  const probe: PageProbe = {
    take(fromMs, toMs) {
      const taken: PageRecording[] = [];
      for (const recorder of [...recorders]) {
        if (recorder.offsets.length === 0) continue;
        const offsetMs = median(recorder.offsets);
        const last = recorder.chunks.at(-1);
        // A recorder whose context closed (each call's audio has its own) keeps its last minute; let it go once that is old.
        if (!last || offsetMs + ((last.index + last.pcm.length) * 1000) / settings.rate < fromMs - settings.keepMs) {
          recorders.splice(recorders.indexOf(recorder), 1);
          continue;
        }
        const chunks = recorder.chunks
          .filter(({ index, pcm }) => offsetMs + ((index + pcm.length) * 1000) / settings.rate > fromMs && offsetMs + (index * 1000) / settings.rate < toMs)
          .map(({ index, pcm }) => ({ index, pcm: btoa(String.fromCharCode(...new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength))) }));
        if (chunks.length > 0) taken.push({ kind: recorder.kind, offsetMs, chunks });
      }
      return taken;
    },
    async stats() {
      const live = peers.filter((peer) => peer.connectionState !== 'closed');
      return { peers: await Promise.all(live.map(peerCounters)), playback };
    },
  };
  (window as unknown as { __voxlineProbe: PageProbe }).__voxlineProbe = probe;
}

const CHUNK_SAMPLES = 320;
// Enough history for a measured window plus the longest delay the analysis looks back for.
const KEEP_MS = 60_000;

/** tsx keeps function names with a helper the page does not have; this stands in for it. */
const NAME_HELPER = 'const __name = (target) => target;';

/** Installs the probes in every page the context opens, before the page's own scripts. */
export async function installAudioProbes(context: BrowserContext, relay: RelayMapping | null) {
  const settings: ProbeSettings = { rate: PROBE_RATE, chunkSamples: CHUNK_SAMPLES, keepMs: KEEP_MS, relay };
  const processorSource = `${NAME_HELPER}(${recorderProcessor.toString()})(${PROBE_RATE}, ${CHUNK_SAMPLES});`;
  await context.addInitScript({ content: `(() => { ${NAME_HELPER} (${installInPage.toString()})(${JSON.stringify(settings)}, ${JSON.stringify(processorSource)}); })();` });
}

/** The page's recordings that overlap [fromMs, toMs] (wall time, ms since the epoch). */
export async function readRecordings(page: Page, fromMs: number, toMs: number): Promise<ProbeRecording[]> {
  const taken = await page.evaluate(([from, to]) => (window as unknown as { __voxlineProbe: PageProbe }).__voxlineProbe.take(from, to), [fromMs, toMs] as const);
  return taken.map(({ kind, offsetMs, chunks }) => ({
    kind,
    offsetMs,
    chunks: chunks.map(({ index, pcm }) => {
      const bytes = Buffer.from(pcm, 'base64');
      // A copy: a Buffer may sit at an odd offset of its pool, where no Int16Array can.
      return { index, pcm: new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) };
    }),
  }));
}

/** The page's WebRTC and playback counters now. */
export async function readProbeStats(page: Page): Promise<ProbeStats> {
  return page.evaluate(() => (window as unknown as { __voxlineProbe: PageProbe }).__voxlineProbe.stats());
}
