import { useId } from 'react';
import type { CreateContactBody } from '../../../../common/api/contacts';
import { roundToVoiceStep, VOICE_RANGE, voiceTypeLabels, voiceTypes, type VoiceSettings, type VoiceType } from '../../../../common/voice';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import type { ZodForm } from '../../../lib/zod-form';

const OWN_VOICE = 'own';

/**
 * The contact's voice preset (issue 20 item 5): the caller's own voice, or an accent with its pitch
 * and speed that calls to this contact use. The server refuses a preset beyond the plan, as it
 * refuses the caller's own settings, and the refusal shows here.
 */
export function ContactVoiceFields({ form }: { form: ZodForm<CreateContactBody> }) {
  const id = useId();
  const voice = form.watch('voice') ?? null;
  const error = form.formState.errors.voice;
  const message = error?.message ?? error?.voiceType?.message ?? error?.pitch?.message ?? error?.speed?.message;
  const set = (next: VoiceSettings | null) => form.setValue('voice', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  return (
    <div className="flex flex-col gap-3">
      <Label htmlFor={`${id}-voice`}>Voice for calls to this contact</Label>
      <Select
        value={voice ? voice.voiceType : OWN_VOICE}
        onValueChange={(next) => set(next === OWN_VOICE ? null : { voiceType: next as VoiceType, pitch: voice?.pitch ?? 1, speed: voice?.speed ?? 1 })}
      >
        <SelectTrigger id={`${id}-voice`} aria-label="Voice for calls to this contact" aria-describedby={message ? `${id}-error` : `${id}-hint`} aria-invalid={message ? true : undefined}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={OWN_VOICE}>Use my default voice</SelectItem>
          {voiceTypes.map((voiceType) => (
            <SelectItem key={voiceType} value={voiceType}>
              {voiceTypeLabels[voiceType]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {voice && (
        <>
          <VoiceAmount id={`${id}-pitch`} label="Pitch" value={voice.pitch} onChange={(pitch) => set({ ...voice, pitch })} />
          <VoiceAmount id={`${id}-speed`} label="Speed" value={voice.speed} onChange={(speed) => set({ ...voice, speed })} />
        </>
      )}
      {message ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          Premium plan includes basic accents. Platinum unlocks all accent options.
        </p>
      )}
    </div>
  );
}

/** docs/product.md §5: 0.5 to 2 in steps of 0.1, shown with two decimals followed by x. */
function VoiceAmount({ id, label, value, onChange }: { id: string; label: string; value: number; onChange: (value: number) => void }) {
  const shown = `${value.toFixed(2)}x`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between text-sm">
        <Label htmlFor={id}>{label}</Label>
        <span className="tabular-nums text-muted-foreground" aria-hidden="true">
          {shown}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={VOICE_RANGE.min}
        max={VOICE_RANGE.max}
        step={VOICE_RANGE.step}
        value={value}
        aria-valuetext={shown}
        onChange={(event) => onChange(roundToVoiceStep(Number(event.target.value)))}
        className="w-full accent-primary"
      />
    </div>
  );
}
