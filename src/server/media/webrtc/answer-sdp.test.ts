import { describe, expect, it } from 'vitest';
import { withOpusParameters, withoutSsrc } from './answer-sdp';

/** The tail of an answer as werift writes it, the offer's Opus parameters copied in. */
const answer = (payloadType: number, fmtp: string | null) =>
  ['m=audio 9 UDP/TLS/RTP/SAVPF ' + payloadType, 'a=mid:0', `a=rtpmap:${payloadType} opus/48000/2`, ...(fmtp ? [`a=fmtp:${payloadType} ${fmtp}`] : []), `a=rtcp-fb:${payloadType} nack`, ''].join('\r\n');

describe('withOpusParameters', () => {
  it("puts mono and in-band FEC in place of the offer's parameters", () => {
    expect(withOpusParameters(answer(111, 'minptime=10;useinbandfec=1'))).toBe(answer(111, 'useinbandfec=1;stereo=0'));
    expect(withOpusParameters(answer(109, 'maxplaybackrate=48000;stereo=1;useinbandfec=1'))).toBe(answer(109, 'useinbandfec=1;stereo=0'));
  });

  it('adds the parameters after the rtpmap when the answer has none', () => {
    expect(withOpusParameters(answer(111, null))).toBe(answer(111, 'useinbandfec=1;stereo=0'));
  });

  it('leaves an answer without Opus as it is', () => {
    const pcmu = 'm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=rtpmap:0 PCMU/8000\r\n';
    expect(withOpusParameters(pcmu)).toBe(pcmu);
  });
});

describe('withoutSsrc', () => {
  it('leaves out the SSRC lines and nothing else', () => {
    const lines = ['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=msid:stream track', 'a=ssrc-group:FID 1 2', 'a=ssrc:1 cname:voxline', 'a=ssrc:1 msid:stream track', 'a=rtpmap:111 opus/48000/2', ''];
    expect(withoutSsrc(lines.join('\r\n'))).toBe(['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'a=msid:stream track', 'a=rtpmap:111 opus/48000/2', ''].join('\r\n'));
  });
});
