import { describe, expect, it } from 'vitest';
import { CHROMIUM_OFFER } from '../../../tests/support/fake-call-media';
import { withOpusParameters } from './opus-sdp';

describe('withOpusParameters', () => {
  it('asks for mono Opus with in-band FEC under the bitrate, keeping the offer’s other parameters and lines', () => {
    const sdp = withOpusParameters(CHROMIUM_OFFER, 16_000);
    expect(sdp.split('\r\n')).toEqual(CHROMIUM_OFFER.split('\r\n').map((line) => (line === 'a=fmtp:111 minptime=10;useinbandfec=1' ? 'a=fmtp:111 minptime=10;stereo=0;sprop-stereo=0;useinbandfec=1;maxaveragebitrate=16000' : line)));
  });

  it('replaces what the browser said of the same parameters', () => {
    const offer = CHROMIUM_OFFER.replace('a=fmtp:111 minptime=10;useinbandfec=1', 'a=fmtp:111 stereo=1; useinbandfec=0;minptime=10');
    expect(withOpusParameters(offer, 32_000)).toContain('a=fmtp:111 minptime=10;stereo=0;sprop-stereo=0;useinbandfec=1;maxaveragebitrate=32000\r\n');
  });

  it('adds the parameters after the rtpmap when the offer has none for Opus', () => {
    const offer = CHROMIUM_OFFER.replace('a=fmtp:111 minptime=10;useinbandfec=1\r\n', '');
    expect(withOpusParameters(offer, 32_000)).toContain('a=rtpmap:111 opus/48000/2\r\na=fmtp:111 stereo=0;sprop-stereo=0;useinbandfec=1;maxaveragebitrate=32000\r\na=rtcp-fb:111');
  });

  it('leaves an offer without Opus as it is', () => {
    const offer = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=rtpmap:0 PCMU/8000\r\n';
    expect(withOpusParameters(offer, 32_000)).toBe(offer);
  });
});
