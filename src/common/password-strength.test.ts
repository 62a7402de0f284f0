import { describe, expect, it } from 'vitest';
import { judgePassword, personalWords } from './password-strength';

describe('judgePassword', () => {
  it('refuses fewer than 10 characters', () => {
    expect(judgePassword('kettle-42')).toEqual({ acceptable: false, score: 0, message: 'Use at least 10 characters.' });
  });

  it.each([
    ['a common password', 'password123', 'Too easy to guess. This is a commonly used password. Add more words that are less common.'],
    ['a keyboard row', 'qwertyuiop', 'Too easy to guess. This is a frequently used password. Add more words that are less common.'],
    ['a repeated character', 'aaaaaaaaaaaa', 'Too easy to guess. Repeated characters like "aaa" are easy to guess. Add more words that are less common.'],
    ['a common password in l33t', 'p@ssw0rd1234', 'Too easy to guess.'],
  ])('refuses %s below score 3 with zxcvbn’s warning and first suggestion', (_label, password, message) => {
    const verdict = judgePassword(password);
    expect(verdict.acceptable).toBe(false);
    expect(verdict.score).toBeLessThan(3);
    expect(verdict.message.startsWith(message)).toBe(true);
  });

  it('accepts a few uncommon words', () => {
    expect(judgePassword('plum kettle orbit 42')).toEqual({ acceptable: true, score: 4, message: 'Very strong password.' });
  });

  it('counts the person’s own name and address as easy guesses', () => {
    const own = personalWords('Ada Lovelace', 'ada.lovelace@example.com');
    for (const password of ['ada lovelace 1815', 'adalovelace1815', 'ada.lovelace@example.com']) {
      expect(judgePassword(password).acceptable).toBe(true);
      expect(judgePassword(password, own)).toMatchObject({
        acceptable: false,
        message: 'Too easy to guess. There should not be any personal or page related data. Add more words that are less common.',
      });
    }
  });

  it('judges the first 64 characters only (what follows cannot make up for them)', () => {
    expect(judgePassword(`${'a'.repeat(64)}plum kettle orbit 42`)).toMatchObject({ acceptable: false, score: 0 });
    expect(judgePassword(`${'a'.repeat(40)}plum kettle orbit 42`).acceptable).toBe(true);
  });
});

describe('personalWords', () => {
  it('keeps each value, run together, and its parts of three letters or more, once, in lower case', () => {
    expect(personalWords('Ada  Lovelace', 'Ada.Lovelace+vox@Example.com', null, undefined, '')).toEqual([
      'ada  lovelace',
      'adalovelace',
      'ada',
      'lovelace',
      'ada.lovelace+vox@example.com',
      'adalovelacevoxexamplecom',
      'vox',
      'example',
      'com',
    ]);
  });
});
