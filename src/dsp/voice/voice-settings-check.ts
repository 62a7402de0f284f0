import { NARROWBAND_RATE, WIDEBAND_RATE } from '../../common/calls';
import { VOICE_RANGE, voiceTypes, type VoiceSettings } from '../../common/voice';
import { VoiceEngineError } from './voice-engine-error';

/** What the voice engine accepts, checked where a caller hands it over. */

/** Callers from plain JavaScript or a decoded message may pass any number. */
export function checkSampleRate(sampleRate: number) {
  if (sampleRate !== WIDEBAND_RATE && sampleRate !== NARROWBAND_RATE) throw VoiceEngineError.sampleRate(sampleRate);
}

/** The engine takes any pitch and speed within docs/product.md §5's range, not only its 0.1 steps. */
export function checkVoiceSettings(settings: VoiceSettings) {
  if (!(voiceTypes as readonly string[]).includes(settings.voiceType)) throw VoiceEngineError.settings(`unknown voice type "${String(settings.voiceType)}"`);
  for (const key of ['pitch', 'speed'] as const) {
    const value = settings[key];
    if (!Number.isFinite(value) || value < VOICE_RANGE.min - 1e-9 || value > VOICE_RANGE.max + 1e-9) {
      throw VoiceEngineError.settings(`${key} must be from ${VOICE_RANGE.min} to ${VOICE_RANGE.max} (got ${value})`);
    }
  }
}
