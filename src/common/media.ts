import { z } from 'zod/mini';

/**
 * How a browser's call audio travels (docs/calls.md#media): WebRTC with Opus first; when WebRTC
 * cannot connect, the call's media websocket carrying Opus packets, or 16-bit PCM where the
 * browser cannot encode Opus.
 */
export const mediaTransports = ['webrtc', 'websocket-opus', 'websocket-pcm'] as const;
export type MediaTransport = (typeof mediaTransports)[number];

export const mediaTransportLabels: Record<MediaTransport, string> = {
  webrtc: 'WebRTC (Opus)',
  'websocket-opus': 'WebSocket (Opus)',
  'websocket-pcm': 'WebSocket (PCM)',
};

/** What a media websocket carries, named by its `codec` query parameter; `pcm` when absent. */
export const socketCodecs = ['opus', 'pcm'] as const;
export type SocketCodec = (typeof socketCodecs)[number];

/** Opus at 16 kHz, mono, 20 ms a packet, whichever transport carries it. */
export const OPUS_SAMPLE_RATE = 16_000;
/** The Opus bitrate of a call, and its cap in Low Data Mode (bits per second). */
export const OPUS_BITRATE = 32_000;
export const OPUS_LOW_DATA_BITRATE = 16_000;
/** The lowest rate the websocket path steps down to while its send buffer grows. */
export const OPUS_MIN_BITRATE = 12_000;
/** RFC 6716: the longest Opus packet. A websocket message longer than this is dropped. */
export const MAX_OPUS_PACKET_BYTES = 1275;

/** How long a browser waits for its WebRTC connection before it falls back to the websocket. */
export const WEBRTC_CONNECT_TIMEOUT_MS = 5_000;

/** An ICE server as RTCPeerConnection takes it; TURN ones carry short-lived credentials. */
const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.optional(z.string()),
  credential: z.optional(z.string()),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/** GET /api/v1/media/config: what the browser needs before it connects a call's audio. */
export const mediaConfigSchema = z.object({
  /** False when the server has WebRTC turned off: the browser goes straight to the websocket. */
  webrtc: z.boolean(),
  iceServers: z.array(iceServerSchema),
});
export type MediaConfig = z.infer<typeof mediaConfigSchema>;
