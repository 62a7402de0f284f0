import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Slider } from './slider';

function Pitch({ initial = 1, disabled = false, onChange = () => undefined }: { initial?: number; disabled?: boolean; onChange?(value: number): void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <span id="pitch-label">Pitch</span>
      <span id="pitch-hint">Needs Premium</span>
      <Slider
        min={0.5}
        max={2}
        step={0.1}
        value={value}
        disabled={disabled}
        valueText={`${value.toFixed(2)}x`}
        labelledBy="pitch-label"
        describedBy="pitch-hint"
        onValueChange={(next) => {
          onChange(next);
          setValue(next);
        }}
      />
    </>
  );
}

const slider = () => screen.getByRole('slider', { name: 'Pitch' });

describe('Slider', () => {
  it('is a named, described slider that says its range and value', () => {
    render(<Pitch initial={1.5} />);
    expect(slider()).toHaveAccessibleDescription('Needs Premium');
    expect(slider()).toHaveAttribute('aria-valuemin', '0.5');
    expect(slider()).toHaveAttribute('aria-valuemax', '2');
    expect(slider()).toHaveAttribute('aria-valuenow', '1.5');
    expect(slider()).toHaveAttribute('aria-valuetext', '1.50x');
    expect(slider()).toHaveAttribute('aria-orientation', 'horizontal');
  });

  it('moves a step per arrow, ten with Page Up and Down or Shift, to the ends with Home and End, on the step grid', async () => {
    render(<Pitch />);
    await userEvent.tab();
    expect(slider()).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{ArrowUp}');
    expect(slider()).toHaveAttribute('aria-valuenow', '1.2');
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}{ArrowDown}');
    expect(slider()).toHaveAttribute('aria-valuenow', '0.9');
    await userEvent.keyboard('{PageUp}');
    expect(slider()).toHaveAttribute('aria-valuenow', '1.9');
    await userEvent.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(slider()).toHaveAttribute('aria-valuenow', '0.9');
    await userEvent.keyboard('{End}');
    expect(slider()).toHaveAttribute('aria-valuetext', '2.00x');
    await userEvent.keyboard('{ArrowRight}{PageUp}');
    expect(slider()).toHaveAttribute('aria-valuenow', '2');
    await userEvent.keyboard('{Home}{ArrowLeft}');
    expect(slider()).toHaveAttribute('aria-valuenow', '0.5');
  });

  it('follows a pointer pressed and dragged along the track, and reports each new step once', () => {
    const onChange = vi.fn();
    const { container } = render(<Pitch onChange={onChange} />);
    const root = container.querySelector<HTMLElement>('[class*="touch-none"]')!;
    const track = root.firstElementChild as HTMLElement;
    vi.spyOn(track, 'getBoundingClientRect').mockReturnValue(new DOMRect(100, 0, 300, 6));
    let captured = false;
    root.setPointerCapture = () => (captured = true);
    root.hasPointerCapture = () => captured;

    fireEvent.pointerDown(root, { button: 0, pointerId: 1, clientX: 300 });
    expect(slider()).toHaveAttribute('aria-valuenow', '1.5');
    expect(slider()).toHaveFocus();
    fireEvent.pointerMove(root, { pointerId: 1, clientX: 301 });
    fireEvent.pointerMove(root, { pointerId: 1, clientX: 1000 });
    expect(slider()).toHaveAttribute('aria-valuenow', '2');
    expect(onChange.mock.calls).toEqual([[1.5], [2]]);
  });

  it('when disabled, says so, takes no focus and ignores keys and pointers', async () => {
    const onChange = vi.fn();
    const { container } = render(<Pitch disabled onChange={onChange} />);
    expect(slider()).toHaveAttribute('aria-disabled', 'true');
    await userEvent.tab();
    expect(slider()).not.toHaveFocus();
    slider().focus();
    await userEvent.keyboard('{ArrowRight}{End}');
    fireEvent.pointerDown(container.querySelector('[data-disabled]')!, { button: 0, pointerId: 1, clientX: 300 });
    expect(onChange).not.toHaveBeenCalled();
    expect(slider()).toHaveAttribute('aria-valuenow', '1');
  });
});
