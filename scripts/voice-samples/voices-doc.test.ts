import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleSpeakers, voiceSamples } from './voice-sample-set';
import { SECTION_END, SECTION_START, currentVoicesSection, replaceVoicesSection, voicesSection } from './voices-doc';

const doc = readFileSync('docs/voices.md', 'utf8');

describe('docs/voices.md', () => {
  it('shows every voice character with its current label and description, rendered from the fixtures as they are (else: npm run docs:voices)', () => {
    expect(currentVoicesSection(doc)).toBe(voicesSection(voiceSamples, sampleSpeakers));
  });

  it('links only clips and spectrograms that are in docs/voices/, and nothing else is there', () => {
    const linked = [...doc.matchAll(/\]\(voices\/([^)]+)\)/g)].map(([, file]) => file!);
    expect(linked).toHaveLength(voiceSamples.length * sampleSpeakers.length * 2);
    expect(readdirSync('docs/voices').sort()).toEqual([...linked].sort());
  });

  it('keeps the clips short and the folder under 2.5 MB, the browser sample under 200 kB', () => {
    const bytes = readdirSync('docs/voices').reduce((sum, name) => sum + statSync(join('docs/voices', name)).size, 0);
    expect(bytes).toBeLessThan(2.5e6);
    expect(statSync('src/web/public/sounds/sample-sentence.wav').size).toBeLessThan(200e3);
  });

  it('renders from the speech fixtures', () => {
    for (const speaker of sampleSpeakers) expect(existsSync(speaker.file), speaker.file).toBe(true);
  });
});

describe('replaceVoicesSection', () => {
  it('replaces what lies between the markers and keeps the prose around them', () => {
    const before = `# Voices\n\nIntro.\n\n${SECTION_START}\nold\n${SECTION_END}\n\nAfter.\n`;
    expect(replaceVoicesSection(before, `${SECTION_START}\nnew\n${SECTION_END}`)).toBe(`# Voices\n\nIntro.\n\n${SECTION_START}\nnew\n${SECTION_END}\n\nAfter.\n`);
  });

  it('refuses a document without the markers', () => {
    expect(() => replaceVoicesSection('# Voices\n', 'x')).toThrow('docs/voices.md needs the lines');
  });
});
