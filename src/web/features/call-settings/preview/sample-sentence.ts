import { decodeMono } from './decode-mono';

/** Served with the app (made by `npm run docs:voices`, heard in docs/voices.md). */
export const SAMPLE_SENTENCE_URL = '/sounds/sample-sentence.wav';
/** The file is about 3.5 s long; anything beyond this would not be the sentence. */
const MAX_SAMPLE_SECONDS = 6;

/** The sample sentence (tests/fixtures/speech/README.md) as mono samples at the preview's rate, for users who cannot record. */
export async function loadSampleSentence(): Promise<Float32Array> {
  let response: Response;
  try {
    response = await fetch(SAMPLE_SENTENCE_URL);
  } catch {
    throw new Error('The sample sentence could not be downloaded. Check your connection and try again.');
  }
  if (!response.ok) throw new Error(`The sample sentence could not be downloaded (HTTP ${response.status}). Please try again.`);
  try {
    return await decodeMono(await response.arrayBuffer(), MAX_SAMPLE_SECONDS);
  } catch {
    throw new Error('Your browser could not read the sample sentence.');
  }
}
