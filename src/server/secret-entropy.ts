import { createRequire } from 'node:module';
import type * as ZxcvbnCore from '@zxcvbn-ts/core';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import type * as ZxcvbnEnglish from '@zxcvbn-ts/language-en';

/** What production asks of AUTH_SECRET: as hard to guess as a random 128-bit key. */
export const MIN_SECRET_BITS = 128;

/**
 * A conservative estimate of the bits of entropy in a secret: the lower of two estimates.
 * - Its shape: one symbol of the smallest alphabet its characters come from (hex 16, base64 64,
 *   and so on) per character, where a stretch that repeats earlier text ('password' five times,
 *   'a' forty times) or runs in sequence ('abcdef', '98765') counts as one symbol.
 * - zxcvbn's guess count, which also knows dictionary words, names, dates and keyboard walks.
 *   zxcvbn counts 10 guesses per unmatched character whatever its alphabet, so a random key scores
 *   less than its shape (44 base64 characters: 146 bits, not 258); a key from 32 random bytes still
 *   clears 128 bits either way.
 */
export function estimateSecretEntropy(secret: string): number {
  return Math.min(shapeBits(secret), dictionaryBits(secret));
}

function shapeBits(secret: string): number {
  // Base64 padding carries nothing.
  const text = secret.replace(/=+$/, '');
  if (text.length === 0) return 0;
  return symbolCount(text) * Math.log2(alphabetSize(text));
}

function alphabetSize(text: string): number {
  if (/^[\da-f]+$/.test(text) || /^[\dA-F]+$/.test(text)) return 16;
  let size = 0;
  if (/[a-z]/.test(text)) size += 26;
  if (/[A-Z]/.test(text)) size += 26;
  if (/\d/.test(text)) size += 10;
  // Base64 and base64url add two symbols to letters and digits; anything else, all of ASCII's punctuation.
  if (/[^a-zA-Z\d]/.test(text)) size += /^[a-zA-Z\d+/=_-]*$/.test(text) ? 2 : 33;
  return size;
}

const SHORTEST_PATTERN = 3;

/** Characters left to right, where a repeat of earlier text or a run in sequence counts once. */
function symbolCount(text: string): number {
  let symbols = 0;
  for (let at = 0; at < text.length; symbols += 1) {
    const pattern = Math.max(longestRepeatAt(text, at), sequenceAt(text, at));
    at += pattern >= SHORTEST_PATTERN ? pattern : 1;
  }
  return symbols;
}

/** The longest stretch from `at` that copies text starting earlier (overlapping allowed, so runs count). */
function longestRepeatAt(text: string, at: number): number {
  let longest = 0;
  for (let from = 0; from < at; from += 1) {
    let length = 0;
    while (at + length < text.length && text[from + length] === text[at + length]) length += 1;
    longest = Math.max(longest, length);
  }
  return longest;
}

/** The length of a run from `at` whose characters step by one code point: abc, cba, 345. */
function sequenceAt(text: string, at: number): number {
  if (at + 1 >= text.length) return 1;
  const step = text.charCodeAt(at + 1) - text.charCodeAt(at);
  if (Math.abs(step) !== 1) return 1;
  let length = 2;
  while (at + length < text.length && text.charCodeAt(at + length) - text.charCodeAt(at + length - 1) === step) length += 1;
  return length;
}

let zxcvbn: ZxcvbnFactory | undefined;

function dictionaryBits(secret: string): number {
  zxcvbn ??= loadZxcvbn();
  return zxcvbn.check(secret, ['voxline']).guessesLog10 * Math.log2(10);
}

/**
 * Loaded on first use, synchronously since configuration is read synchronously: the dictionaries
 * take over half a second to load, which only a production start-up (or --check-config) spends.
 */
function loadZxcvbn(): ZxcvbnFactory {
  const require = createRequire(import.meta.url);
  const core = require('@zxcvbn-ts/core') as typeof ZxcvbnCore;
  const common = require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
  const english = require('@zxcvbn-ts/language-en') as typeof ZxcvbnEnglish;
  return new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    // Trying every look-alike substitution takes a third of a second on a 44-character key;
    // ten cover the usual p4ssw0rd spellings in a few milliseconds.
    l33tMaxSubstitutions: 10,
  });
}
