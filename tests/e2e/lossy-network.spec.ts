import { callSoundTest, latestTransport, launchParty } from '../../bench/network/browser-party';
import { PROBE_RATE, readRecordings } from '../../bench/network/audio-probes';
import { independentLoss } from '../../bench/network/impairment';
import { profiles } from '../../bench/network/profiles';
import { startVoxline } from '../../bench/network/voxline-under-test';
import { dominantFrequency, rms } from '../support/dsp/analysis';
import { expect, test } from './fixtures';
import { writeSineWav } from './support/wav';

/**
 * A WebRTC call through the project's UDP impairment relay (bench/network), losing 5 % of the
 * packets each way at random: the browser's concealment and the server's keep the far side's tone
 * coming, where the old PCM-over-TCP path stalled. Measured from what the page plays. It also
 * proves the DTLS handshake survives a lost datagram (src/server/media/webrtc/dtls-record-numbers.ts):
 * before, about one call in three here stayed silent.
 */
test('over a link that loses 5 % of its packets, a WebRTC call to the sound-test line still plays the caller’s 440 Hz', async () => {
  test.setTimeout(120_000);
  const voxline = await startVoxline('webrtc', 18);
  try {
    voxline.setProfile({ ...profiles.clean, name: 'loss-5', loss: independentLoss(0.05) });
    const party = await launchParty({
      name: 'Lossy',
      wavPath: writeSineWav({ frequency: 440, seconds: 30, silenceSeconds: 0 }),
      baseUrl: voxline.url,
      areaCode: '385',
      clientAddress: '10.91.0.1',
      relay: voxline.relay,
    });
    try {
      const before = voxline.mediaBytes();
      await callSoundTest(party);
      const playedBetween = async (from: number, to: number) => {
        const played = (await readRecordings(party.page, from, to)).filter((recording) => recording.kind === 'played').flatMap((recording) => recording.chunks.map((chunk) => chunk.pcm));
        return Float32Array.from(played.flatMap((pcm) => Array.from(pcm, (sample) => sample / 32768)));
      };
      // The call shows as answered before its audio path is up, which on a busy machine (ICE and
      // DTLS through the relay) can take seconds: measure from the first second that plays sound.
      await expect.poll(async () => rms(await playedBetween(Date.now() - 1_000, Date.now())), { timeout: 30_000 }).toBeGreaterThan(0.01);
      const from = Date.now();
      await party.page.waitForTimeout(6_000);
      const samples = await playedBetween(from, Date.now());
      expect(samples.length).toBeGreaterThan(PROBE_RATE * 4);
      expect(rms(samples)).toBeGreaterThan(0.01);
      expect(Math.abs(dominantFrequency(samples, PROBE_RATE) - 440)).toBeLessThan(440 * 0.02);
      // The audio crossed the lossy relay (about 35 kbit/s each way), not a way around it.
      const after = voxline.mediaBytes();
      expect(after.up - before.up).toBeGreaterThan(15_000);
      expect(after.down - before.down).toBeGreaterThan(15_000);
      expect(await latestTransport(party)).toBe('webrtc');
    } finally {
      await party.browser.close();
    }
  } finally {
    await voxline.stop();
  }
});
