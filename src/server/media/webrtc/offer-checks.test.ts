import { describe, expect, it } from 'vitest';
import { acceptableOffer, MediaOfferError } from './offer-checks';

const session = ['v=0', 'o=- 4611731400430051336 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0', 'a=extmap-allow-mixed', 'a=msid-semantic: WMS 2f8c1f0e'];

const transport = [
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=candidate:1467250027 1 udp 2122260223 192.0.2.77 51234 typ host generation 0 network-id 1',
  'a=candidate:2893061398 1 udp 2122262783 1b7c3a4e-0f5d-4e8a-9b2c-6d1e5f3a7b90.local 51235 typ host generation 0 network-id 2',
  'a=ice-ufrag:Vq3n',
  'a=ice-pwd:9Jx2mW8rT5yK1pL4nQ7sZ0vB',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 6B:8B:F0:65:5F:78:E2:51:3B:AC:6F:F3:3F:46:1B:35:DC:B8:5F:64:1A:24:C2:43:F0:A1:58:D0:A1:2C:19:08',
  'a=setup:actpass',
  'a=mid:0',
];

/** What Chromium offers for one microphone track, candidates gathered (one of them behind mDNS). */
const chromiumAudio = [
  ...session,
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  ...transport,
  'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=sendrecv',
  'a=msid:2f8c1f0e 7d3e9b1a',
  'a=rtcp-mux',
  'a=rtcp-rsize',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'a=rtpmap:9 G722/8000',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  'a=rtpmap:13 CN/8000',
  'a=rtpmap:110 telephone-event/48000',
  'a=rtpmap:126 telephone-event/8000',
  'a=ssrc:3735928559 cname:q3Zr8kT1mN0pV6xW',
  '',
].join('\r\n');

/** Chromium's offer for a camera alone. */
const chromiumVideoOnly = [
  ...session,
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
  ...transport,
  'a=sendrecv',
  'a=rtcp-mux',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  '',
].join('\r\n');

/** An old phone gateway's audio: G.711 only. */
const pcmuOnly = chromiumAudio
  .replace('m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126', 'm=audio 9 UDP/TLS/RTP/SAVPF 0 8 126')
  .split('\r\n')
  .filter((line) => !/^a=(rtpmap|fmtp|rtcp-fb):(111|63|9|13|110) /.test(line))
  .join('\r\n');

function refusal(sdp: string): string {
  try {
    acceptableOffer(sdp);
  } catch (error) {
    expect(error).toBeInstanceOf(MediaOfferError);
    return (error as Error).message;
  }
  throw new Error('the offer was accepted');
}

describe('acceptableOffer', () => {
  it("accepts Chromium's audio offer, leaving out the candidate only the browser's network can resolve and the feedback we do not give", () => {
    const offer = acceptableOffer(chromiumAudio);
    expect(offer).toContain('a=candidate:1467250027 1 udp 2122260223 192.0.2.77 51234 typ host');
    expect(offer).not.toContain('.local');
    expect(offer).not.toContain('transport-cc');
    expect(offer.split('\r\n')).toHaveLength(chromiumAudio.split('\r\n').length - 2);
  });

  it("accepts Firefox's Opus payload type and bare line feeds", () => {
    const firefox = chromiumAudio.replaceAll('111', '109').replaceAll('\r\n', '\n');
    expect(acceptableOffer(firefox)).toContain('a=rtpmap:109 opus/48000/2');
  });

  it('refuses a video-only offer', () => {
    expect(refusal(chromiumVideoOnly)).toBe('The browser offered no audio');
  });

  it('refuses audio without Opus', () => {
    expect(pcmuOnly).toContain('a=rtpmap:0 PCMU/8000');
    expect(refusal(pcmuOnly)).toBe('The browser offered no Opus audio');
  });

  it('refuses Opus named in an rtpmap but not offered on the media line', () => {
    expect(refusal(chromiumAudio.replace('SAVPF 111 63', 'SAVPF 63'))).toBe('The browser offered no Opus audio');
  });

  it('refuses what is not SDP', () => {
    for (const garbage of ['', 'hello', '{"type":"offer"}', 'v=0\r\nm=audio nine\r\n', `v=0\r\nx\u0000=1\r\n`, chromiumAudio.replace('s=-', 's=-\r\nnot a line')]) {
      expect(refusal(garbage)).toBe('The call audio offer is not valid SDP');
    }
  });

  it('refuses audio with video beside it, and a second audio stream', () => {
    const withVideo = `${chromiumAudio}${chromiumVideoOnly.slice(chromiumVideoOnly.indexOf('m=video'))}`;
    expect(refusal(withVideo)).toBe('The call audio offer may hold one audio stream and nothing else');
    const twoAudio = `${chromiumAudio}${chromiumAudio.slice(chromiumAudio.indexOf('m=audio'))}`;
    expect(refusal(twoAudio)).toBe('The call audio offer may hold one audio stream and nothing else');
  });

  it('refuses unencrypted RTP, and an offer without its ICE credentials or DTLS fingerprint', () => {
    expect(refusal(chromiumAudio.replace('UDP/TLS/RTP/SAVPF', 'RTP/AVP'))).toBe('The call audio offer is not encrypted');
    for (const key of ['a=ice-ufrag:', 'a=ice-pwd:', 'a=fingerprint:']) {
      const without = chromiumAudio
        .split('\r\n')
        .filter((line) => !line.startsWith(key))
        .join('\r\n');
      expect(refusal(without)).toBe('The call audio offer lacks its connection keys');
    }
  });

  it('refuses an offer that will not send the microphone or will not listen', () => {
    for (const direction of ['a=recvonly', 'a=sendonly', 'a=inactive']) {
      expect(refusal(chromiumAudio.replace('a=sendrecv', direction))).toBe('The call audio offer does not both send and receive');
    }
  });

  it('refuses an audio stream the browser itself turned off (port 0)', () => {
    expect(refusal(chromiumAudio.replace('m=audio 9', 'm=audio 0'))).toBe('The browser offered no audio');
  });
});
