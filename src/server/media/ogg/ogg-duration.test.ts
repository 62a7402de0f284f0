import { describe, expect, it } from 'vitest';
import { oggOpusDurationMs } from './ogg-duration';

/** One Ogg page: header (granule, one segment) and body; the CRC is not checked here. */
function page(granule: bigint, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(28 + body.length);
  out.set([0x4f, 0x67, 0x67, 0x53]);
  new DataView(out.buffer).setBigInt64(6, granule, true);
  out[26] = 1;
  out[27] = body.length;
  out.set(body, 28);
  return out;
}

function opusHead(preSkip: number): Uint8Array {
  const head = new Uint8Array(19);
  head.set(new TextEncoder().encode('OpusHead'));
  head[8] = 1;
  head[9] = 2;
  new DataView(head.buffer).setUint16(10, preSkip, true);
  return head;
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

describe('oggOpusDurationMs', () => {
  it('reads the last whole page’s granule less the pre-skip, ignoring a page the crash cut short', () => {
    const head = page(0n, opusHead(312));
    const second = page(48_000n + 312n, new Uint8Array(10));
    const third = page(96_000n + 312n, new Uint8Array(10));
    expect(oggOpusDurationMs(concat(head, second, third))).toBe(2_000);
    expect(oggOpusDurationMs(concat(head, second, third.subarray(0, 20)))).toBe(1_000);
  });

  it('is 0 for what is not Ogg, or has no audio page', () => {
    expect(oggOpusDurationMs(new Uint8Array(40))).toBe(0);
    expect(oggOpusDurationMs(page(0n, opusHead(312)))).toBe(0);
  });
});
