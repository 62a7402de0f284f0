import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { cn } from '../../lib/utils';

interface SliderProps {
  min: number;
  max: number;
  step: number;
  value: number;
  disabled?: boolean;
  onValueChange(value: number): void;
  /** What a screen reader reads as the value (for example "1.50x"). */
  valueText: string;
  labelledBy: string;
  describedBy?: string;
  className?: string;
}

/** Steps that PageUp, PageDown and Shift with an arrow move by, as the WAI-ARIA slider pattern suggests. */
const BIG_STEP = 10;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The value on the step grid from `min` nearest to `value`, without the float dust of 0.1 steps (1.2000000000000002). */
function snap(value: number, { min, max, step }: Pick<SliderProps, 'min' | 'max' | 'step'>): number {
  const steps = Math.round((clamp(value, min, max) - min) / step);
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number((min + steps * step).toFixed(decimals));
}

/**
 * A horizontal slider with the WAI-ARIA slider pattern's keys and a pointer drag. Radix's slider
 * finds its thumb by an effect that runs after a re-render only React's scheduler guarantees, and
 * stays hidden on Preact (decision 041); this one keeps no state of its own.
 */
export function Slider({ min, max, step, value, disabled = false, onValueChange, valueText, labelledBy, describedBy, className }: SliderProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const thumbRef = useRef<HTMLSpanElement>(null);
  const percent = ((clamp(value, min, max) - min) / (max - min)) * 100;

  const change = (next: number) => {
    const snapped = snap(next, { min, max, step });
    if (snapped !== value) onValueChange(snapped);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const stride = event.shiftKey ? step * BIG_STEP : step;
    const moves: Record<string, number> = {
      ArrowRight: value + stride,
      ArrowUp: value + stride,
      ArrowLeft: value - stride,
      ArrowDown: value - stride,
      PageUp: value + step * BIG_STEP,
      PageDown: value - step * BIG_STEP,
      Home: min,
      End: max,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    change(next);
  };

  const valueAt = (clientX: number) => {
    const rect = trackRef.current!.getBoundingClientRect();
    const share = rect.width > 0 ? (clientX - rect.left) / rect.width : 0;
    return min + clamp(share, 0, 1) * (max - min);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (disabled || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    thumbRef.current?.focus();
    change(valueAt(event.clientX));
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) change(valueAt(event.clientX));
  };

  return (
    <div
      data-disabled={disabled ? '' : undefined}
      className={cn('relative flex w-full touch-none select-none items-center py-2', className)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
    >
      <div ref={trackRef} className="relative h-1.5 w-full grow overflow-hidden rounded-full bg-muted">
        <div data-disabled={disabled ? '' : undefined} className="absolute h-full bg-primary data-[disabled]:bg-muted-foreground" style={{ width: `${percent}%` }} />
      </div>
      <span className="absolute -translate-x-1/2" style={{ left: `${percent}%` }}>
        <span
          ref={thumbRef}
          role="slider"
          tabIndex={disabled ? undefined : 0}
          aria-valuemin={min}
          aria-valuemax={max}
          aria-valuenow={value}
          aria-valuetext={valueText}
          aria-orientation="horizontal"
          aria-labelledby={labelledBy}
          aria-describedby={describedBy}
          aria-disabled={disabled || undefined}
          data-disabled={disabled ? '' : undefined}
          onKeyDown={disabled ? undefined : onKeyDown}
          className="block size-4 rounded-full border border-primary bg-background shadow-sm outline-none transition-[color,box-shadow] focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[disabled]:pointer-events-none"
        />
      </span>
    </div>
  );
}
