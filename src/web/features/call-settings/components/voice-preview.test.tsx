import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoiceSettings } from '../../../../common/voice';
import { dominantFrequency, sine } from '../../../../../tests/support/dsp/analysis';
import { renderWithRoute } from '../../../../../tests/support/render-web';
import { renderPreview } from '../preview/render-preview';
import { VoicePreview } from './voice-preview';

// jsdom has no Web Audio: the speakers are stood in for, and decoding gives a known tone.
const audio = vi.hoisted(() => ({ play: vi.fn() }));
vi.mock('../preview/play-samples', () => ({ playSamples: audio.play }));

const rate = 16_000;
/** What the browser decodes the served file to: half a second of 200 Hz, at the preview's rate. */
const sentence = sine(200, rate, rate / 2, 0.5);

function decodesTo(samples: Float32Array) {
  const decoded: ArrayBuffer[] = [];
  vi.stubGlobal(
    'OfflineAudioContext',
    class {
      decodeAudioData = async (bytes: ArrayBuffer) => {
        decoded.push(bytes);
        return { length: samples.length, numberOfChannels: 1, getChannelData: () => samples };
      };
    },
  );
  return decoded;
}

/** A fetch that answers the sample sentence when told to, so the loading state can be seen. */
function servedLater(status = 200) {
  let answer: () => void = () => undefined;
  const fetchStub = vi.fn(
    () =>
      new Promise<Response>((resolve) => {
        answer = () => resolve(new Response(new Uint8Array([82, 73, 70, 70]), { status }));
      }),
  );
  vi.stubGlobal('fetch', fetchStub);
  return { fetchStub, answer: () => answer() };
}

function playing() {
  let finish: () => void = () => undefined;
  audio.play.mockImplementation(() => ({ stop: vi.fn(() => finish()), ended: new Promise<void>((resolve) => (finish = resolve)) }));
  return { finish: () => finish() };
}

function renderPreviewPanel(settings: VoiceSettings) {
  return renderWithRoute(<VoicePreview settings={settings} />);
}

const sampleButton = () => screen.getByRole('button', { name: 'Play sample sentence' });

beforeEach(() => {
  decodesTo(sentence);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

// Each test runs the voice engine in jsdom; on a busy machine that can take longer than vitest's default 5 s.
describe('Play sample sentence', { timeout: 20_000 }, () => {
  it('downloads the sentence, shows that it is loading, and plays it through the voice engine with the chosen settings', async () => {
    const settings: VoiceSettings = { voiceType: 'normal', pitch: 1.5, speed: 1 };
    const served = servedLater();
    const playback = playing();
    renderPreviewPanel(settings);

    await userEvent.click(sampleButton());
    expect(served.fetchStub).toHaveBeenCalledWith('/sounds/sample-sentence.wav');
    expect(screen.getByRole('status')).toHaveTextContent('Loading the sample sentence...');
    expect(sampleButton()).toBeDisabled();
    expect(sampleButton()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Preview my voice' })).toBeDisabled();
    expect(audio.play).not.toHaveBeenCalled();

    served.answer();
    await waitFor(() => expect(audio.play).toHaveBeenCalledTimes(1));
    const [played, playedRate] = audio.play.mock.calls[0] as [Float32Array, number];
    expect(playedRate).toBe(rate);
    expect(played).toEqual(renderPreview(sentence, rate, settings));
    // Pitch 1.5 on a 200 Hz voice: 300 Hz, the same length at speed 1.
    expect(played).toHaveLength(sentence.length);
    expect(dominantFrequency(played.subarray(rate / 8), rate, 100, 1000)).toBeCloseTo(300, -1);
    expect(screen.getByRole('status')).toHaveTextContent('Playing the sample sentence with your voice settings.');
    expect(screen.queryByRole('button', { name: 'Play again' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Stop playback' }));
    expect(sampleButton()).toBeEnabled();
    playback.finish();
  });

  it('plays a voice character as the engine renders it, and downloads the sentence only once', async () => {
    const settings: VoiceSettings = { voiceType: 'russian', pitch: 1, speed: 1.5 };
    const served = servedLater();
    const playback = playing();
    renderPreviewPanel(settings);

    await userEvent.click(sampleButton());
    served.answer();
    await waitFor(() => expect(audio.play).toHaveBeenCalledTimes(1));
    expect(audio.play.mock.calls[0]![0]).toEqual(renderPreview(sentence, rate, settings));
    expect((audio.play.mock.calls[0]![0] as Float32Array).length).toBe(Math.round(sentence.length / 1.5));
    playback.finish();
    await waitFor(() => expect(sampleButton()).toBeEnabled());

    await userEvent.click(sampleButton());
    expect(audio.play).toHaveBeenCalledTimes(2);
    expect(served.fetchStub).toHaveBeenCalledTimes(1);
  });

  it('plays nothing when the download ends after the page was left', async () => {
    const served = servedLater();
    const view = renderPreviewPanel({ voiceType: 'normal', pitch: 1.5, speed: 1 });
    const decoded = decodesTo(sentence);
    await userEvent.click(sampleButton());
    view.unmount();
    served.answer();
    await waitFor(() => expect(decoded).toHaveLength(1));
    // Decoded: what is left of the load is promise callbacks, all run before the next task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(audio.play).not.toHaveBeenCalled();
  });

  it('says clearly when the sentence cannot be downloaded, and can be tried again', async () => {
    const served = servedLater(404);
    renderPreviewPanel({ voiceType: 'normal', pitch: 1.5, speed: 1 });

    await userEvent.click(sampleButton());
    served.answer();
    expect(await screen.findByText('Sample sentence unavailable')).toBeInTheDocument();
    expect(screen.getByText('The sample sentence could not be downloaded (HTTP 404). Please try again.')).toBeInTheDocument();
    expect(audio.play).not.toHaveBeenCalled();
    expect(sampleButton()).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent('No microphone? Play the sample sentence instead.');
  });
});
