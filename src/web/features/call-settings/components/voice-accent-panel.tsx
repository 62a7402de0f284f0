import { RotateCcwIcon } from 'lucide-react';
import { useId } from 'react';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import type { VoiceSettingsState } from '../hooks/use-voice-settings';
import { AccentSelect } from './accent-select';
import { VoiceSlider } from './voice-slider';

/** docs/product.md §2 panel 'Voice Accent Changer': accent, pitch, speed and reset, within what the plan includes. */
export function VoiceAccentPanel({ voice }: { voice: VoiceSettingsState }) {
  const titleId = useId();
  const sliderHintId = useId();
  const { query, settings, allowed, beyondPlan } = voice;
  const slidersAllowed = allowed?.pitchAndSpeed ?? false;

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <h3 id={titleId} className="text-lg font-semibold leading-none">
          Voice Accent Changer
        </h3>
        <CardDescription>Choose how you sound to the people you call.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {query.isPending && (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading your voice settings" />
            <span aria-hidden="true">Loading your voice settings...</span>
          </div>
        )}
        {query.isError && (
          <Alert variant="destructive">
            <AlertTitle>Your voice settings could not be loaded</AlertTitle>
            <AlertDescription>
              <p>{query.error.message}</p>
              <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        )}
        {beyondPlan && (
          <Alert>
            <AlertTitle>{beyondPlan}</AlertTitle>
            <AlertDescription>Your plan no longer includes these settings, so your calls use the normal voice. Reset them or choose what your plan includes.</AlertDescription>
          </Alert>
        )}
        <AccentSelect value={settings.voiceType} allowed={allowed?.voiceTypes} disabled={!allowed} onChange={voice.changeAccent} />
        <div className="flex flex-col gap-4">
          <VoiceSlider label="Pitch" value={settings.pitch} disabled={!slidersAllowed} describedBy={allowed && !slidersAllowed ? sliderHintId : undefined} onChange={voice.changePitch} />
          <VoiceSlider label="Speed" value={settings.speed} disabled={!slidersAllowed} describedBy={allowed && !slidersAllowed ? sliderHintId : undefined} onChange={voice.changeSpeed} />
          {allowed && !slidersAllowed && (
            <p id={sliderHintId} className="text-sm text-muted-foreground">
              Voice changer needs Premium: pitch and speed come with the Premium and Platinum plans.
            </p>
          )}
        </div>
        <p className="text-sm text-muted-foreground">Premium plan includes basic accents. Platinum unlocks all accent options.</p>
        <Button variant="outline" className="w-full sm:w-fit" onClick={voice.reset} disabled={!allowed}>
          <RotateCcwIcon aria-hidden="true" />
          Reset Voice Settings
        </Button>
      </CardContent>
    </Card>
  );
}
