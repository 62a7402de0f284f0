import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error';
import { InstanceLink } from './instance-link';
import { LocalBus } from './local-bus';

const log = { warn: () => {} };
type Body = { op: string; value?: number };

const links: InstanceLink<Body>[] = [];
afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.stop()));
});

async function link(bus: LocalBus, id: string, handle: (body: Body) => unknown, replyTimeoutMs?: number) {
  const created = new InstanceLink<Body>(bus, id, handle, log, replyTimeoutMs);
  await created.start();
  links.push(created);
  return created;
}

describe('InstanceLink', () => {
  it('runs a request on the instance named and answers what its handler returns', async () => {
    const bus = new LocalBus();
    const seenByTwo: Body[] = [];
    const seenByThree: Body[] = [];
    const one = await link(bus, 'one', () => 'wrong instance');
    await link(bus, 'two', async (body) => {
      seenByTwo.push(body);
      return { doubled: (body.value ?? 0) * 2 };
    });
    await link(bus, 'three', (body) => seenByThree.push(body));
    expect(await one.request('two', { op: 'double', value: 21 })).toEqual({ doubled: 42 });
    expect(seenByTwo).toEqual([{ op: 'double', value: 21 }]);
    expect(seenByThree).toEqual([]);
  });

  it('gives the requester the AppError the handler threw, and hides any other failure', async () => {
    const bus = new LocalBus();
    const one = await link(bus, 'one', () => undefined);
    await link(bus, 'two', (body) => {
      if (body.op === 'refuse') throw AppError.conflict('This call was answered in another tab');
      throw new Error('secret detail');
    });
    const refused = await one.request('two', { op: 'refuse' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 409, code: 'conflict', message: 'This call was answered in another tab' });
    const failed = await one.request('two', { op: 'crash' }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ statusCode: 500, message: 'Something went wrong on our side. Please try again.' });
  });

  it('answers 503 when the instance named does not answer in time', async () => {
    const bus = new LocalBus();
    const one = await link(bus, 'one', () => undefined, 50);
    const gone = await one.request('stopped', { op: 'anything' }).catch((error: unknown) => error);
    expect(gone).toMatchObject({ statusCode: 503, message: 'The server holding this call is not answering. Please try again.' });
  });

  it('delivers a notice without waiting for an answer', async () => {
    const bus = new LocalBus();
    const seen: Body[] = [];
    const one = await link(bus, 'one', () => undefined);
    await link(bus, 'two', (body) => seen.push(body));
    await one.notify('two', { op: 'closed' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([{ op: 'closed' }]);
  });
});
