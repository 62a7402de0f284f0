import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Slot } from './slot';

describe('Slot', () => {
  it('renders its child with the slot’s props merged in: classes joined, both handlers, the child’s props winning', async () => {
    const slotClick = vi.fn();
    const childClick = vi.fn();
    render(
      <Slot className="slot-class" onClick={slotClick} title="from the slot" aria-label="Open" style={{ color: 'red', margin: 0 }}>
        <a href="/contacts" className="child-class" onClick={childClick} title="from the child" style={{ color: 'blue' }}>
          Contacts
        </a>
      </Slot>,
    );
    const link = screen.getByRole('link', { name: 'Open' });
    expect(link).toHaveClass('slot-class', 'child-class');
    expect(link).toHaveAttribute('title', 'from the child');
    expect(link).toHaveAttribute('href', '/contacts');
    expect(link).toHaveStyle({ color: 'rgb(0, 0, 255)', margin: '0px' });

    link.addEventListener('click', (event) => event.preventDefault());
    await userEvent.click(link);
    expect(childClick).toHaveBeenCalledTimes(1);
    expect(slotClick).toHaveBeenCalledTimes(1);
    expect(childClick.mock.invocationCallOrder[0]).toBeLessThan(slotClick.mock.invocationCallOrder[0]!);
  });

  it('gives the element to both refs, and keeps the slot’s class when the child sets none', () => {
    const slotRef = createRef<HTMLElement>();
    const childRef = createRef<HTMLButtonElement>();
    render(
      <Slot ref={slotRef} className="slot-class">
        <button type="button" ref={childRef} className={undefined}>
          Delete
        </button>
      </Slot>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(slotRef.current).toBe(button);
    expect(childRef.current).toBe(button);
    expect(button).toHaveClass('slot-class');
  });
});
