/**
 * What our answer asks of the browser's Opus (RFC 7587 §7): mono, and in-band FEC, which lets a
 * decoder rebuild a lost packet from the next; our encoder sends it too. werift copies the offer's
 * parameters into its answer, so they are set here.
 */
const OPUS_PARAMETERS = 'useinbandfec=1;stereo=0';

/** The answer werift made, with our Opus parameters in place of the ones it copied from the offer. */
export function withOpusParameters(answer: string): string {
  const lines = answer.split('\r\n');
  const rtpmap = lines.findIndex((line) => /^a=rtpmap:\d+ opus\/48000\/2$/i.test(line));
  if (rtpmap === -1) return answer;
  const payloadType = /^a=rtpmap:(\d+) /.exec(lines[rtpmap]!)![1]!;
  const fmtp = `a=fmtp:${payloadType} ${OPUS_PARAMETERS}`;
  const existing = lines.findIndex((line) => line.startsWith(`a=fmtp:${payloadType} `));
  if (existing === -1) lines.splice(rtpmap + 1, 0, fmtp);
  else lines[existing] = fmtp;
  return lines.join('\r\n');
}

/**
 * The answer without our SSRC (a=ssrc, a=ssrc-group): the browser then takes our audio as the
 * track's unsignalled stream, and a packet under a new SSRC as its new stream with a new jitter
 * buffer, which is how the leg catches up a late playout (docs/calls.md#catching-up). The track
 * and its stream are still named by a=msid.
 */
export function withoutSsrc(answer: string): string {
  return answer
    .split('\r\n')
    .filter((line) => !line.startsWith('a=ssrc:') && !line.startsWith('a=ssrc-group:'))
    .join('\r\n');
}
