import { CheckIcon, LockIcon } from 'lucide-react';
import { Select as SelectPrimitive } from 'radix-ui';
import { useId } from 'react';
import { voiceTypeLabels, voiceTypes, type VoiceType } from '../../../../common/voice';
import { Select, SelectContent, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Label } from '../../../components/ui/label';

interface AccentSelectProps {
  value: VoiceType;
  /** The accents the plan includes; the others are shown locked. */
  allowed: readonly VoiceType[];
  disabled: boolean;
  onChange(voiceType: VoiceType): void;
}

/**
 * The accent type select. Locked accents stay choosable, so that choosing one can say which plan
 * it needs (the owner refuses it and the select keeps its value).
 */
export function AccentSelect({ value, allowed, disabled, onChange }: AccentSelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Accent Type</Label>
      <Select value={value} onValueChange={(next) => onChange(next as VoiceType)} disabled={disabled}>
        <SelectTrigger id={id} aria-label="Accent Type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {voiceTypes.map((voiceType) => (
            <AccentOption key={voiceType} voiceType={voiceType} locked={!allowed.includes(voiceType)} />
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function AccentOption({ voiceType, locked }: { voiceType: VoiceType; locked: boolean }) {
  const textId = useId();
  const lockId = useId();
  return (
    <SelectPrimitive.Item
      value={voiceType}
      // Radix names an option by its text alone; a locked one also says so.
      aria-labelledby={locked ? `${textId} ${lockId}` : textId}
      className="relative flex w-full cursor-default select-none items-center gap-2 rounded-sm py-1.5 pl-2 pr-8 text-sm outline-hidden focus:bg-accent focus:text-accent-foreground"
    >
      <SelectPrimitive.ItemText id={textId}>{voiceTypeLabels[voiceType]}</SelectPrimitive.ItemText>
      {locked && (
        <span className="ml-auto flex items-center text-muted-foreground">
          <LockIcon className="size-3.5" aria-hidden="true" />
          <span id={lockId} className="sr-only">
            (locked)
          </span>
        </span>
      )}
      <span className="absolute right-2 flex size-3.5 items-center justify-center">
        <SelectPrimitive.ItemIndicator>
          <CheckIcon className="size-4" aria-hidden="true" />
        </SelectPrimitive.ItemIndicator>
      </span>
    </SelectPrimitive.Item>
  );
}
