import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textField } from './fields';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

// Every C0 and C1 control, DEL, and the line and paragraph separators.
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
const controls = Array.from({ length: 0x2030 }, (_, code) => code)
  .filter(isControl)
  .map((code) => String.fromCharCode(code));

describe('textField', () => {
  const name = textField('Name');
  const notes = textField('Notes', { multiline: true });

  it.each(controls.map((character) => [`U+${character.charCodeAt(0).toString(16).padStart(4, '0')}`, character]))(
    'refuses %s anywhere in a single-line field, naming the field',
    (_code, character) => {
      for (const value of [`${character}Ada`, `Ada${character}Lovelace`, `Ada${character}`]) {
        expect(messagesOf(name.safeParse(value))).toContain('Name must not contain control characters');
      }
    },
  );

  it('allows tab and newline where the field is multi-line, and no other control', () => {
    expect(notes.safeParse('line one\n\tline two').success).toBe(true);
    for (const character of controls.filter((c) => c !== '\t' && c !== '\n')) {
      expect(messagesOf(notes.safeParse(`a${character}b`))).toContain('Notes must not contain control characters');
    }
  });

  it('refuses half of a UTF-16 pair, and keeps whole pairs', () => {
    expect(name.safeParse('Ada 👩🏽‍💻 Lovelace').success).toBe(true);
    for (const value of ['Ada\ud83d', '\ude00Ada', 'A\ud83dB', 'A\ude00\ud83dB']) {
      expect(messagesOf(name.safeParse(value))).toContain('Name contains a broken character: type it again');
    }
  });

  it('refuses before trimming: a trailing newline is not quietly removed', () => {
    expect(messagesOf(name.trim().min(1).safeParse('Ada\n'))).toContain('Name must not contain control characters');
  });

  it('refuses text exactly when it holds one of those, whatever its script', () => {
    const character = fc.oneof({ arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 20 }, fc.constantFrom(...controls));
    fc.assert(
      fc.property(fc.array(character, { maxLength: 30 }), (characters) => {
        const value = characters.join('');
        expect(name.safeParse(value).success).toBe(![...value].some((character) => isControl(character.codePointAt(0)!)));
      }),
      { numRuns: 500 },
    );
  });

  it('says whether a value is missing or of the wrong type', () => {
    expect(messagesOf(name.safeParse(undefined))).toEqual(['Name is required']);
    expect(messagesOf(name.safeParse(42))).toEqual(['Name must be text']);
  });
});
