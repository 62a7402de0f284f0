import type { VoiceSettings } from '../../../../common/voice';
import { float32ToInt16, int16ToFloat32 } from '../../../../dsp/pcm';
import { changeRecordedVoice } from '../../../../dsp/voice/recording';

/**
 * The recording as a call's recipient would hear it: the same voice engine the server runs on
 * calls, over the whole recording at once (so speed shortens or lengthens it).
 */
export function renderPreview(samples: Float32Array, sampleRate: number, settings: VoiceSettings): Float32Array {
  return int16ToFloat32(changeRecordedVoice(float32ToInt16(samples), sampleRate, settings));
}
