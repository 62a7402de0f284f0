import { type ChildProcess, execFile, spawn, type SpawnOptions } from 'node:child_process';
import { promisify } from 'node:util';
import type { LinkProfile } from './impairment';

const run = promisify(execFile);

export interface ShapedLinkOptions {
  /** The network namespace's name; its veth ends are named after it, with `h` (host) and `n`. */
  name: string;
  /** What each direction's `tbf` holds to: a profile's cap, with the same meaning. */
  rateCap: NonNullable<LinkProfile['rateCap']>;
  hostAddress?: string;
  namespaceAddress?: string;
  prefixLength?: number;
}

export interface ShapedLink {
  readonly name: string;
  /** The host's end, which processes in the namespace reach the host's servers through. */
  readonly hostAddress: string;
  readonly namespaceAddress: string;
  /** Starts a command inside the namespace (`ip netns exec`), behind the shaped link. */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Deletes the namespace, which deletes the veth pair and its qdiscs. */
  close(): Promise<void>;
}

/** Linux's limit on an interface name is 15 characters; the veth names add one to the namespace's. */
const MAX_NAME_LENGTH = 14;

/**
 * A network namespace joined to the host by a veth pair whose two ends are each shaped by a
 * `tbf` qdisc: a rate cap the kernel enforces, in each direction, on everything a process in the
 * namespace sends or receives, for what a userspace proxy would measure badly (a browser's
 * own traffic as a whole). Needs root (CAP_NET_ADMIN) and iproute2. This kernel has `tbf` but
 * not `netem` (docs/machine-notes.md), so delay and loss stay with the relay and the proxy.
 */
export async function createShapedLink(options: ShapedLinkOptions): Promise<ShapedLink> {
  const { name, rateCap, hostAddress = '10.77.0.1', namespaceAddress = '10.77.0.2', prefixLength = 24 } = options;
  if (!/^[a-z0-9-]+$/i.test(name) || name.length > MAX_NAME_LENGTH) throw new Error(`a namespace name of 1 to ${MAX_NAME_LENGTH} letters, digits or dashes, not "${name}"`);
  const hostEnd = `${name}h`;
  const namespaceEnd = `${name}n`;
  const inside = (...command: string[]) => ['netns', 'exec', name, ...command];
  const tbf = (device: string) => ['qdisc', 'replace', 'dev', device, 'root', 'tbf', 'rate', `${rateCap.bitsPerSecond}bit`, 'burst', `${rateCap.burstBytes}`, 'limit', `${rateCap.queueBytes}`];
  const close = () => ip('netns', 'delete', name);

  await ip('netns', 'add', name);
  try {
    await ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', namespaceEnd, 'netns', name);
    await ip('address', 'add', `${hostAddress}/${prefixLength}`, 'dev', hostEnd);
    await ip('link', 'set', hostEnd, 'up');
    await ip(...inside('ip', 'address', 'add', `${namespaceAddress}/${prefixLength}`, 'dev', namespaceEnd));
    await ip(...inside('ip', 'link', 'set', namespaceEnd, 'up'));
    await ip(...inside('ip', 'link', 'set', 'lo', 'up'));
    // Through the host end, the namespace reaches the host's other addresses (192.0.2.2…) too.
    await ip(...inside('ip', 'route', 'add', 'default', 'via', hostAddress));
    await run('tc', tbf(hostEnd));
    await ip(...inside('tc', ...tbf(namespaceEnd)));
  } catch (error) {
    await close();
    throw error;
  }

  return {
    name,
    hostAddress,
    namespaceAddress,
    spawn: (command, args, spawnOptions = {}) => spawn('ip', inside(command, ...args), spawnOptions),
    close,
  };
}

async function ip(...args: string[]) {
  await run('ip', args);
}
