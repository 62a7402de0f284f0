import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** What a proxy's X-Request-Id may be to be kept: a UUID, a hex digest, a trace id; nothing a log line could be forged with. */
const SANE_REQUEST_ID = /^[\w.:=+/-]{1,128}$/;

const ipType = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Whether the peer at `address` is a proxy TRUST_PROXY names (true: any; false: none). */
function trustedProxies(trustProxy: Config['TRUST_PROXY']): (address: string | undefined) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  const proxies = new BlockList();
  for (const entry of trustProxy) {
    const [address, prefix] = entry.split('/');
    if (prefix === undefined) proxies.addAddress(address!, ipType(address!));
    else proxies.addSubnet(address!, Number(prefix), ipType(address!));
  }
  return (address) => {
    if (!address) return false;
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    return proxies.check(plain, ipType(plain));
  };
}

/**
 * Fastify's `genReqId`: the X-Request-Id a trusted proxy sent, so that its logs and ours name a
 * request alike, or a new UUID (unique across instances, unlike Fastify's counter). A client
 * could otherwise choose the id its requests are logged under.
 */
export function requestIdGenerator(trustProxy: Config['TRUST_PROXY']): (request: IncomingMessage) => string {
  const trusted = trustedProxies(trustProxy);
  return (request) => {
    const given = request.headers['x-request-id'];
    if (typeof given === 'string' && SANE_REQUEST_ID.test(given) && trusted(request.socket.remoteAddress)) return given;
    return randomUUID();
  };
}

/** Every answer names its request's id, the one its log lines carry, for a person to quote. */
export function returnRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
}
