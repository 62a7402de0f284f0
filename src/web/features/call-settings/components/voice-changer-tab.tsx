import { useId } from 'react';
import { isDefaultVoice } from '../../../../common/voice';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { useVoiceSettings } from '../hooks/use-voice-settings';
import { SoundTestCall } from './sound-test-call';
import { VoiceAccentPanel } from './voice-accent-panel';
import { VoicePreview } from './voice-preview';

/** docs/product.md §2 Voice Changer tab, with a preview and the sound-test line beyond the prototype (issue 7 point 10). */
export function VoiceChangerTab() {
  const voice = useVoiceSettings();
  const hearTitleId = useId();
  const howTitleId = useId();
  const voiceChanger = !isDefaultVoice(voice.settings) && voice.beyondPlan === null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-xl font-semibold tracking-tight">Voice Settings</h2>
        <p className="text-muted-foreground">These settings apply to all your outgoing calls.</p>
      </div>
      <VoiceAccentPanel voice={voice} />
      <Card aria-labelledby={hearTitleId}>
        <CardHeader>
          <h3 id={hearTitleId} className="text-lg font-semibold leading-none">
            Hear your voice
          </h3>
          <CardDescription>Try your settings before you call anyone.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <VoicePreview settings={voice.settings} />
          <SoundTestCall voiceChanger={voiceChanger} beforeCall={voice.flush} />
        </CardContent>
      </Card>
      <section aria-labelledby={howTitleId} className="rounded-lg border bg-muted/40 p-4 text-sm">
        <h3 id={howTitleId} className="font-medium">
          How it works
        </h3>
        <p className="mt-1 text-muted-foreground">
          The person you call hears your voice with these modifications: Voxline changes it on the way, before it reaches them. The accents are voice
          characters (pitch and tone), not a translation or an imitation of a real accent.
        </p>
      </section>
    </div>
  );
}
