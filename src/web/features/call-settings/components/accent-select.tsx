import { useId } from 'react';
import { voiceTypeLabels, voiceTypes, type VoiceType } from '../../../../common/voice';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';

interface AccentSelectProps {
  value: VoiceType;
  /** The accents the plan includes; the others are shown locked. None is while the plan loads. */
  allowed: readonly VoiceType[] | undefined;
  disabled: boolean;
  onChange(voiceType: VoiceType): void;
}

/**
 * The accent type select: the browser's own, as the first thing Call Settings shows (Radix Select
 * rendered each of its nine options four times as the page loaded, and its chunk came with it).
 * Locked accents stay choosable, so that choosing one can say which plan it needs (the owner
 * refuses it and the select keeps its value).
 */
export function AccentSelect({ value, allowed, disabled, onChange }: AccentSelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Accent Type</Label>
      <NativeSelect
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          const next = event.currentTarget.value as VoiceType;
          // The select shows the accent in force until the owner takes the new one: a refused
          // choice must not stay on screen, and Preact does not put a controlled value back itself.
          event.currentTarget.value = value;
          onChange(next);
        }}
      >
        {voiceTypes.map((voiceType) => (
          <option key={voiceType} value={voiceType}>
            {!allowed || allowed.includes(voiceType) ? voiceTypeLabels[voiceType] : `${voiceTypeLabels[voiceType]} (locked)`}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
