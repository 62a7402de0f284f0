import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TrashIcon, VolumeXIcon } from 'lucide-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { IconTooltip, TooltipProvider } from './tooltip';

function IconButtons() {
  return (
    <TooltipProvider>
      <IconTooltip label="Mute">
        <Button size="icon" aria-label="Mute">
          <VolumeXIcon />
        </Button>
      </IconTooltip>
      <IconTooltip label="Delete Ada">
        <Button size="icon" aria-label="Delete Ada">
          <TrashIcon />
        </Button>
      </IconTooltip>
    </TooltipProvider>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('IconTooltip', () => {
  it('names an icon button on keyboard focus, at once', async () => {
    render(<IconButtons />);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Mute' })).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Mute');
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Delete Ada');
  });

  it('opens on hover after 700 ms; the next within 300 ms opens at once, after longer it waits again', () => {
    // Pointer events by hand: user-event's own pauses would wait on the faked timers.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<IconButtons />);
    const mute = screen.getByRole('button', { name: 'Mute' });
    const remove = screen.getByRole('button', { name: 'Delete Ada' });
    const tooltip = () => screen.queryByRole('tooltip');
    // Off the button, then on past the tooltip (which stays open while the pointer heads for it).
    const leave = (button: HTMLElement) => {
      fireEvent.pointerLeave(button, { pointerType: 'mouse', clientX: 10, clientY: 10 });
      fireEvent.pointerMove(document.body, { pointerType: 'mouse', clientX: 500, clientY: 500 });
    };

    fireEvent.pointerMove(mute, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(699));
    expect(tooltip()).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(tooltip()).toHaveTextContent('Mute');

    leave(mute);
    act(() => vi.advanceTimersByTime(299));
    fireEvent.pointerMove(remove, { pointerType: 'mouse' });
    expect(tooltip()).toHaveTextContent('Delete Ada');

    leave(remove);
    expect(tooltip()).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(301));
    fireEvent.pointerMove(mute, { pointerType: 'mouse' });
    expect(tooltip()).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(700));
    expect(tooltip()).toHaveTextContent('Mute');
  });

  it('closes on Escape and on blur, and shows nothing for the focus a click gives', async () => {
    render(<IconButtons />);
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Mute');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Delete Ada');
    await userEvent.tab();
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    fireEvent.pointerDown(screen.getByRole('button', { name: 'Mute' }), { pointerType: 'mouse' });
    act(() => screen.getByRole('button', { name: 'Mute' }).focus());
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('brings its own delays when rendered outside the app\'s provider', async () => {
    render(
      <IconTooltip label="Mute">
        <Button size="icon" aria-label="Mute">
          <VolumeXIcon />
        </Button>
      </IconTooltip>,
    );
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Mute');
  });
});
