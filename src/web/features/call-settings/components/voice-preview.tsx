import { AudioLinesIcon, Loader2Icon, MicIcon, PlayIcon, SquareIcon } from 'lucide-react';
import type { VoiceSettings } from '../../../../common/voice';
import { Button } from '../../../components/ui/button';
import { useVoicePreview } from '../hooks/use-voice-preview';
import { MAX_PREVIEW_SECONDS } from '../preview/record-microphone';

/**
 * 'Preview my voice': record a few seconds and hear them through the voice changer, in the browser, on
 * every plan; or hear the sample sentence through it, without a microphone.
 */
export function VoicePreview({ settings }: { settings: VoiceSettings }) {
  const preview = useVoicePreview(settings);
  const { phase } = preview;

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {phase === 'recording' ? (
          <Button variant="destructive" onClick={preview.stopRecording}>
            <SquareIcon aria-hidden="true" />
            Stop recording
          </Button>
        ) : (
          <Button variant="outline" onClick={preview.record} disabled={phase === 'starting' || phase === 'loading-sample'}>
            <MicIcon aria-hidden="true" />
            Preview my voice
          </Button>
        )}
        <Button
          variant="outline"
          onClick={preview.playSampleSentence}
          disabled={phase === 'starting' || phase === 'recording' || phase === 'loading-sample'}
          aria-busy={phase === 'loading-sample'}
        >
          {phase === 'loading-sample' ? <Loader2Icon aria-hidden="true" className="animate-spin" /> : <AudioLinesIcon aria-hidden="true" />}
          Play sample sentence
        </Button>
        {phase === 'playing' && (
          <Button variant="outline" onClick={preview.stopPlaying}>
            <SquareIcon aria-hidden="true" />
            Stop playback
          </Button>
        )}
        {preview.replay && phase === 'idle' && preview.source === 'recording' && (
          <Button variant="outline" onClick={preview.replay}>
            <PlayIcon aria-hidden="true" />
            Play again
          </Button>
        )}
      </div>
      <p className="text-sm text-muted-foreground" role="status">
        {phase === 'recording'
          ? `Recording... speak now (up to ${MAX_PREVIEW_SECONDS} seconds).`
          : phase === 'loading-sample'
            ? 'Loading the sample sentence...'
            : phase === 'playing'
              ? preview.source === 'sample'
                ? 'Playing the sample sentence with your voice settings.'
                : 'Playing your recording with your voice settings.'
              : `Records up to ${MAX_PREVIEW_SECONDS} seconds from your microphone and plays it back with your voice settings, right here in your browser. No microphone? Play the sample sentence instead.`}
      </p>
    </div>
  );
}
