import { useId } from 'react';
import { VOICE_RANGE } from '../../../../common/voice';
import { Slider } from '../../../components/ui/slider';

/** docs/product.md §2: a value shown with two decimals followed by x (1.00x). */
function formatVoiceAmount(value: number): string {
  return `${value.toFixed(2)}x`;
}

interface VoiceSliderProps {
  label: string;
  value: number;
  disabled: boolean;
  /** The id of a text that says why the slider is disabled. */
  describedBy?: string;
  onChange(value: number): void;
}

/** docs/product.md §5: from 0.5 to 2 in steps of 0.1. */
export function VoiceSlider({ label, value, disabled, describedBy, onChange }: VoiceSliderProps) {
  const labelId = useId();
  const shown = formatVoiceAmount(value);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between text-sm">
        <span id={labelId} className={disabled ? 'font-medium text-muted-foreground' : 'font-medium'}>
          {label}
        </span>
        <span className="tabular-nums text-muted-foreground" aria-hidden="true">
          {shown}
        </span>
      </div>
      <Slider
        min={VOICE_RANGE.min}
        max={VOICE_RANGE.max}
        step={VOICE_RANGE.step}
        value={value}
        onValueChange={onChange}
        disabled={disabled}
        valueText={shown}
        labelledBy={labelId}
        describedBy={describedBy}
        className="data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50"
      />
    </div>
  );
}
