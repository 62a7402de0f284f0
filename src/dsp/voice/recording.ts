import { frameSamples, type CallSampleRate } from '../../common/calls';
import { isDefaultVoice, type VoiceSettings } from '../../common/voice';
import { FixedTempo } from './live-tempo';
import { VoiceChain } from './voice-chain';
import { checkSampleRate, checkVoiceSettings } from './voice-settings-check';

/**
 * The voice changer on a whole recording (the browser preview): the same processing as a live
 * call, but with the input all there, so speed applies everywhere and nothing is delayed. The
 * output holds exactly `round(recording.length / speed)` samples.
 */

/** `sampleRate` must be 16000 or 8000, as for calls; other rates throw. */
export function changeRecordedVoice(recording: Int16Array, sampleRate: number, settings: VoiceSettings): Int16Array {
  checkSampleRate(sampleRate);
  checkVoiceSettings(settings);
  if (isDefaultVoice(settings)) return recording.slice();
  const block = frameSamples(sampleRate as CallSampleRate);
  const speed = settings.speed;
  const chain = new VoiceChain(sampleRate, block, sampleRate, new FixedTempo(speed));
  chain.configure(settings);
  chain.start(0, 0);
  const { history, shifter, limiter } = chain;
  const output = new Int16Array(Math.round(recording.length / speed));
  let fed = 0;
  for (let made = 0; made < output.length; made += block) {
    const count = Math.min(block, output.length - made);
    const needed = shifter.inputNeeded(count, speed);
    while (history.written < needed) {
      history.writeInt16(recording, Math.min(fed, recording.length), Math.min(fed + block, recording.length), block);
      fed += block;
    }
    limiter.toInt16(chain.render(count), count, output, made);
  }
  return output;
}
