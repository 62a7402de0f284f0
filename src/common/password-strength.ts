import { ZxcvbnFactory, type Score } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { PASSWORD_MIN_LENGTH } from './api/auth';

/** zxcvbn's score 3: about 10^8 guesses or more, "safely unguessable" for an online attack (decision 014). */
export const PASSWORD_MIN_SCORE = 3;

// Only the first 64 characters are judged, and at most 8 l33t substitutions tried: without these
// caps one 128-character password of l33t symbols took 2.5 s of CPU (decision 014). Cutting can only
// lower a score, so a password is never called stronger than it is.
const JUDGED_LENGTH = 64;
const L33T_SUBSTITUTIONS = 8;

let factory: ZxcvbnFactory | undefined;

function zxcvbn(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
    maxLength: JUDGED_LENGTH,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
  });
  return factory;
}

/** Ranks the dictionaries now (a few hundred milliseconds), rather than in the first judgement. */
export function preparePasswordChecker(): void {
  zxcvbn();
}

export interface PasswordVerdict {
  /** At least PASSWORD_MIN_LENGTH characters and a score of PASSWORD_MIN_SCORE or more. */
  acceptable: boolean;
  /** zxcvbn's 0 to 4; 0 also for a password too short to judge. */
  score: Score;
  /** What to show under the field: why it is refused and what to do, or how strong it is. */
  message: string;
}

const STRENGTH: Record<Score, string> = { 0: 'Very weak', 1: 'Weak', 2: 'Fair', 3: 'Strong', 4: 'Very strong' };

/**
 * The words of a person's own a guesser tries first, for judgePassword: each value whole, run
 * together, and in its parts (the address's name and domain, each word of the name).
 */
export function personalWords(...values: (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  for (const value of values) {
    const whole = value?.trim().toLowerCase();
    if (!whole) continue;
    const parts = whole.split(/[\s@._+-]+/);
    words.add(whole);
    words.add(parts.join(''));
    for (const part of parts) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** How guessable `password` is, with zxcvbn's common and English dictionaries and the person's own words. */
export function judgePassword(password: string, ownWords: readonly string[] = []): PasswordVerdict {
  if (password.length < PASSWORD_MIN_LENGTH) return { acceptable: false, score: 0, message: `Use at least ${PASSWORD_MIN_LENGTH} characters.` };
  const { score, feedback } = zxcvbn().check(password, [...ownWords]);
  if (score >= PASSWORD_MIN_SCORE) return { acceptable: true, score, message: `${STRENGTH[score]} password.` };
  const advice = [feedback.warning, feedback.suggestions[0]].filter(Boolean).join(' ') || 'Add another word or two that are less common.';
  return { acceptable: false, score, message: `Too easy to guess. ${advice}` };
}
