import type { FastifyRequest } from 'fastify';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Whether a request comes straight from this machine: its TCP peer is a loopback address
 * (127.0.0.0/8, ::1, or 127.x mapped into IPv6) and it names no client it was forwarded for.
 * request.ip is not used: with TRUST_PROXY it is whatever X-Forwarded-For says. A request that
 * a proxy on this machine passes on has a loopback peer, so any forwarding header refuses it too.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  return isLoopbackAddress(request.socket.remoteAddress);
}

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4) || address === '::1';
}
