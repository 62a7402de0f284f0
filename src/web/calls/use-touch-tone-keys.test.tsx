import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useTouchToneKeys } from './use-touch-tone-keys';

function CallScreen({ active, pressKey }: { active: boolean; pressKey: (key: string) => boolean }) {
  useTouchToneKeys(active, pressKey);
  return <input aria-label="Notes" />;
}

describe('useTouchToneKeys', () => {
  it('sends the keyboard’s 0-9, * and # while a call is up, but not typing in a field, other keys, or shortcuts', () => {
    const pressKey = vi.fn(() => true);
    const { getByLabelText, rerender } = render(<CallScreen active pressKey={pressKey} />);
    for (const key of ['5', '*', '#', 'a', 'Enter']) fireEvent.keyDown(document.body, { key });
    fireEvent.keyDown(document.body, { key: '1', ctrlKey: true });
    fireEvent.keyDown(getByLabelText('Notes'), { key: '9' });
    expect(pressKey.mock.calls).toEqual([['5'], ['*'], ['#']]);

    rerender(<CallScreen active={false} pressKey={pressKey} />);
    fireEvent.keyDown(document.body, { key: '7' });
    expect(pressKey).toHaveBeenCalledTimes(3);
  });
});
