/** An offer the server will not answer; its message is shown to the user as it is. */
export class MediaOfferError extends Error {
  override readonly name = 'MediaOfferError';
}

const SDP_LINE = /^[a-z]=[^\0]*$/;
const MEDIA_LINE = /^m=(\S+) (\d+)(?:\/\d+)? (\S+)((?: \S+)*)$/;
/** DTLS-SRTP over UDP or TCP (RFC 5764, RFC 7850): the only media a browser may send us. */
const SECURE_PROFILE = /^(?:UDP|TCP)\/TLS\/RTP\/SAVPF?$/;
const DIRECTIONS = ['a=sendrecv', 'a=sendonly', 'a=recvonly', 'a=inactive'];

interface MediaSection {
  media: string;
  port: number;
  profile: string;
  formats: string[];
  lines: string[];
}

function split(sdp: string): { session: string[]; sections: MediaSection[] } {
  const lines = sdp.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== 'v=0' || !lines.every((line) => SDP_LINE.test(line))) throw new MediaOfferError('The call audio offer is not valid SDP');
  const session: string[] = [];
  const sections: MediaSection[] = [];
  for (const line of lines) {
    if (!line.startsWith('m=')) {
      (sections.at(-1)?.lines ?? session).push(line);
      continue;
    }
    const match = MEDIA_LINE.exec(line);
    if (!match) throw new MediaOfferError('The call audio offer is not valid SDP');
    sections.push({ media: match[1]!, port: Number(match[2]), profile: match[3]!, formats: match[4]!.trim().split(' ').filter(Boolean), lines: [] });
  }
  return { session, sections };
}

function hasOpus(section: MediaSection): boolean {
  return section.lines.some((line) => {
    const rtpmap = /^a=rtpmap:(\d+) opus\/48000(?:\/2)?$/i.exec(line);
    return rtpmap !== null && section.formats.includes(rtpmap[1]!);
  });
}

function attribute(session: string[], section: MediaSection, prefix: string): boolean {
  return section.lines.some((line) => line.startsWith(prefix)) || session.some((line) => line.startsWith(prefix));
}

/** A browser's candidate named by mDNS (`<uuid>.local`), which only its own network can resolve. */
const isMdnsCandidate = (line: string) => /^a=candidate:\S+ \d+ \S+ \d+ \S+\.local /i.test(line);
/** Transport-wide congestion feedback, which needs a header extension the server does not negotiate. */
const isTransportCc = (line: string) => /^a=rtcp-fb:\d+ transport-cc$/.test(line);

/**
 * Checks that a browser's offer is one the server can answer: SDP, one stream, audio, Opus, DTLS-SRTP
 * with its ICE credentials, sending and receiving. Answers the offer to apply, without two things:
 * - the browser's mDNS candidates: the server cannot resolve them (it is not on the browser's
 *   network) and learns the browser's address from the browser's own connectivity checks instead
 *   (a peer-reflexive candidate), so looking them up would only send multicast queries a stranger chose;
 * - `transport-cc` feedback: werift copies the offer's feedback into its answer and would then
 *   run transport-wide feedback for packets that never carry the extension's numbers.
 */
export function acceptableOffer(sdp: string): string {
  const { session, sections } = split(sdp);
  const audio = sections.filter((section) => section.media === 'audio' && section.port !== 0);
  if (audio.length === 0) throw new MediaOfferError('The browser offered no audio');
  if (sections.length > 1) throw new MediaOfferError('The call audio offer may hold one audio stream and nothing else');
  const [section] = audio as [MediaSection];
  if (!SECURE_PROFILE.test(section.profile)) throw new MediaOfferError('The call audio offer is not encrypted');
  if (!hasOpus(section)) throw new MediaOfferError('The browser offered no Opus audio');
  if (!attribute(session, section, 'a=ice-ufrag:') || !attribute(session, section, 'a=ice-pwd:') || !attribute(session, section, 'a=fingerprint:')) {
    throw new MediaOfferError('The call audio offer lacks its connection keys');
  }
  const direction = section.lines.find((line) => DIRECTIONS.includes(line)) ?? session.find((line) => DIRECTIONS.includes(line)) ?? 'a=sendrecv';
  if (direction !== 'a=sendrecv') throw new MediaOfferError('The call audio offer does not both send and receive');
  const lines = sdp.split(/\r?\n/).filter((line) => !isMdnsCandidate(line) && !isTransportCc(line));
  return lines.join('\r\n');
}
