import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalBus } from '../bus/local-bus';
import { MediaExchange } from './media-exchange';

/** A frame of `length` bytes, each byte `fill`. */
const frame = (fill: number, length = 640) => new Uint8Array(length).fill(fill);

/** Two instances' exchanges on one bus, and what goes over it. */
async function twoInstances() {
  const bus = new LocalBus();
  const published: { channel: string; bytes: number }[] = [];
  const publish = bus.publish.bind(bus);
  vi.spyOn(bus, 'publish').mockImplementation((channel, payload) => {
    published.push({ channel, bytes: payload.length });
    return publish(channel, payload);
  });
  const one = new MediaExchange(bus, 'one');
  const two = new MediaExchange(bus, 'two');
  await Promise.all([one.start(), two.start()]);
  return { bus, one, two, published };
}

/** One stream listened to on both instances: the first byte of each frame each of them hears. */
function listenOnBoth(one: MediaExchange, two: MediaExchange, stream: string) {
  const atOne: number[] = [];
  const atTwo: number[] = [];
  one.listen(stream, (bytes) => atOne.push(bytes[0]!));
  two.listen(stream, (bytes) => atTwo.push(bytes[0]!));
  return { atOne, atTwo };
}

describe('MediaExchange', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('gathers the frames sent to one instance within a millisecond into one message, each to its stream, in order', async () => {
    vi.useFakeTimers();
    const { one, two, published } = await twoInstances();
    const [a, b] = [randomUUID(), randomUUID()];
    const received: string[] = [];
    two.listen(a, (bytes) => received.push(`a${bytes[0]}:${bytes.length}`));
    two.listen(b, (bytes) => received.push(`b${bytes[0]}:${bytes.length}`));
    const toA = one.sender('two', a);
    const toB = one.sender('two', b);
    toA(frame(1));
    toB(frame(2, 320));
    toA(frame(3));
    expect(received).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(received).toEqual(['a1:640', 'b2:320', 'a3:640']);
    expect(published).toEqual([{ channel: 'media:two', bytes: 3 * 18 + 640 + 320 + 640 }]);
  });

  it('sends each instance its own message, and nothing to one that has no frames', async () => {
    vi.useFakeTimers();
    const { one, two, published } = await twoInstances();
    const stream = randomUUID();
    const { atOne, atTwo } = listenOnBoth(one, two, stream);
    one.sender('two', stream)(frame(7));
    two.sender('one', stream)(frame(9));
    await vi.advanceTimersByTimeAsync(1);
    expect(atOne).toEqual([9]);
    expect(atTwo).toEqual([7]);
    expect(published.map(({ channel }) => channel).sort()).toEqual(['media:one', 'media:two']);
  });

  it('copies a frame when it is sent, so that the sender may reuse its buffer at once', async () => {
    vi.useFakeTimers();
    const { one, two } = await twoInstances();
    const stream = randomUUID();
    const received: number[][] = [];
    two.listen(stream, (bytes) => received.push([...bytes.subarray(0, 2)]));
    const reused = frame(1, 4);
    const send = one.sender('two', stream);
    send(reused);
    reused.fill(2);
    send(reused);
    await vi.advanceTimersByTimeAsync(1);
    expect(received).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('counts frames of streams nobody listens to any more, and still delivers the others', async () => {
    vi.useFakeTimers();
    const { one, two } = await twoInstances();
    const [gone, kept] = [randomUUID(), randomUUID()];
    const received: number[] = [];
    const stopListening = two.listen(gone, () => received.push(-1));
    two.listen(kept, (bytes) => received.push(bytes[0]!));
    stopListening();
    one.sender('two', gone)(frame(1));
    one.sender('two', kept)(frame(5));
    await vi.advanceTimersByTimeAsync(1);
    expect(received).toEqual([5]);
    expect(two.strayFrames).toBe(1);
  });

  it('drops what follows a malformed frame in a message rather than misreading it', async () => {
    const { bus, two } = await twoInstances();
    const stream = randomUUID();
    const received: number[] = [];
    two.listen(stream, (bytes) => received.push(bytes.length));
    const header = Buffer.alloc(18);
    Buffer.from(stream.replaceAll('-', ''), 'hex').copy(header);
    header.writeUInt16LE(4, 16);
    const whole = Buffer.concat([header, Buffer.alloc(4)]);
    const cut = Buffer.concat([header, Buffer.alloc(2)]);
    await bus.publish('media:two', Buffer.concat([whole, cut]));
    expect(received).toEqual([4]);
    expect(two.strayFrames).toBe(1);
  });

  it('counts the frames of a message the bus would not take as lost', async () => {
    vi.useFakeTimers();
    const { bus, one } = await twoInstances();
    vi.spyOn(bus, 'publish').mockRejectedValue(new Error('Redis is away'));
    const send = one.sender('two', randomUUID());
    send(frame(1));
    send(frame(2));
    await vi.advanceTimersByTimeAsync(1);
    expect(one.lostFrames).toBe(2);
  });

  it('sends what is waiting when it stops, then hears nothing more', async () => {
    const { one, two } = await twoInstances();
    const stream = randomUUID();
    const { atOne, atTwo } = listenOnBoth(one, two, stream);
    one.sender('two', stream)(frame(3));
    await one.stop();
    expect(atTwo).toEqual([3]);
    two.sender('one', stream)(frame(4));
    await two.stop();
    expect(atOne).toEqual([]);
  });

  it('refuses a stream id that is not a UUID and a frame too long for its header', async () => {
    const { one } = await twoInstances();
    expect(() => one.listen('relay-1', () => {})).toThrow(/must be a UUID/);
    expect(() => one.sender('two', randomUUID())(frame(0, 70_000))).toThrow(/too long/);
  });
});
