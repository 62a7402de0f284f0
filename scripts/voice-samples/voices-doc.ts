import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { clipFile, spectrogramFile, type SampleSpeaker, type VoiceSample } from './voice-sample-set';

/** docs/voices.md's part that the script writes; the prose around it is edited by hand. */
export const SECTION_START = '<!-- voices:start (written by npm run docs:voices from scripts/voice-samples/voice-sample-set.ts) -->';
export const SECTION_END = '<!-- voices:end -->';

/** The first 16 hex digits of a file's SHA-256: enough to tell that a recording changed since the clips were made. */
function recordingFingerprint(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
}

/**
 * The recordings rendered (with their fingerprints), then the headings, descriptions, clips and
 * spectrograms of every sample, as Markdown linking into docs/voices/.
 */
export function voicesSection(samples: readonly VoiceSample[], speakers: readonly SampleSpeaker[]): string {
  const sources = speakers.map((speaker) => `\`${speaker.file}\` (SHA-256 \`${recordingFingerprint(speaker.file)}…\`)`).join(' and ');
  const parts = samples.map((sample) => {
    const rows = speakers.map(
      (speaker) =>
        `| ${speaker.label} | [${clipFile(speaker, sample)}](voices/${clipFile(speaker, sample)}) | ![${sample.title}, ${speaker.label.toLowerCase()}: spectrogram](voices/${spectrogramFile(speaker, sample)}) |`,
    );
    return [`### ${sample.title}`, '', sample.description, '', '| Speaker | Listen | Spectrogram (0 to 8 kHz) |', '|---|---|---|', ...rows].join('\n');
  });
  return [SECTION_START, '', `Rendered from ${sources}.`, '', ...parts.flatMap((part) => [part, '']), SECTION_END].join('\n');
}

/** The document with its generated part replaced; a document without the markers is refused by name. */
export function replaceVoicesSection(document: string, section: string): string {
  const start = document.indexOf(SECTION_START);
  const end = document.indexOf(SECTION_END);
  if (start < 0 || end < start) throw new Error(`docs/voices.md needs the lines ${SECTION_START} and ${SECTION_END} around its generated part`);
  return document.slice(0, start) + section + document.slice(end + SECTION_END.length);
}

/** The generated part as it stands in the document, or null without the markers. */
export function currentVoicesSection(document: string): string | null {
  const start = document.indexOf(SECTION_START);
  const end = document.indexOf(SECTION_END);
  return start < 0 || end < start ? null : document.slice(start, end + SECTION_END.length);
}
