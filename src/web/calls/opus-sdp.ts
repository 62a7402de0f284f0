/**
 * Our WebRTC offer's Opus parameters (RFC 7587 §6.1), which say how the server should send to us:
 * mono, with in-band FEC, averaging at most `maxBitrate` bits per second (Low Data Mode's cap
 * applies to what we receive as well as what we send). Other parameters are kept.
 */
export function withOpusParameters(sdp: string, maxBitrate: number): string {
  const payloadType = /^a=rtpmap:(\d+) opus\/48000/im.exec(sdp)?.[1];
  if (payloadType === undefined) return sdp;
  const wanted: Record<string, string> = { stereo: '0', 'sprop-stereo': '0', useinbandfec: '1', maxaveragebitrate: String(maxBitrate) };
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(eol);
  const fmtp = `a=fmtp:${payloadType} `;
  const at = lines.findIndex((line) => line.startsWith(fmtp));
  const kept = at === -1 ? [] : lines[at]!.slice(fmtp.length).split(';').filter((parameter) => parameter.trim() && !Object.hasOwn(wanted, parameter.split('=')[0]!.trim()));
  const line = fmtp + [...kept, ...Object.entries(wanted).map(([name, value]) => `${name}=${value}`)].join(';');
  if (at === -1) lines.splice(lines.findIndex((other) => other.toLowerCase().startsWith(`a=rtpmap:${payloadType} opus/`)) + 1, 0, line);
  else lines[at] = line;
  return lines.join(eol);
}
