import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { registerServiceWorker, type ServiceWorkerControl } from './service-worker-updates';

type WorkerEvent = 'waiting' | 'controlling';

/** A service worker registration driven by the test: `emit` plays what the browser would report. */
function fakeControl({ waiting = true } = {}) {
  const listeners: Record<WorkerEvent, Array<() => void>> = { waiting: [], controlling: [] };
  const registration = { waiting: waiting ? ({} as ServiceWorker) : null };
  const control = {
    register: vi.fn(async () => registration),
    update: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(),
    addEventListener: (type: WorkerEvent, listener: () => void) => listeners[type].push(listener),
  } satisfies ServiceWorkerControl;
  const emit = (type: WorkerEvent) => listeners[type].forEach((listener) => listener());
  return { control, registration, emit };
}

const noChecks = () => undefined;

describe('the offer of a new version', () => {
  it('shows "New version available — Reload" once a new worker waits, and nothing before', async () => {
    const { control, emit } = fakeControl();
    render(<Toaster />);
    await registerServiceWorker({ control, reload: vi.fn(), every: noChecks });
    expect(screen.queryByText('New version available')).not.toBeInTheDocument();

    emit('waiting');
    // The toast fades in once mounted.
    await waitFor(() => expect(screen.getByText('New version available')).toBeVisible());
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
  });

  it('Reload lets the waiting worker take over, then reloads once it controls the page, and only once', async () => {
    const { control, emit } = fakeControl();
    const reload = vi.fn();
    render(<Toaster />);
    await registerServiceWorker({ control, reload, every: noChecks });
    emit('waiting');

    // A click without pointer events: sonner captures the pointer on pointerdown, which jsdom lacks.
    fireEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    await vi.waitFor(() => expect(control.messageSkipWaiting).toHaveBeenCalledOnce());
    expect(reload).not.toHaveBeenCalled();
    emit('controlling');
    emit('controlling');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('never reloads by itself: a worker taking control without the person asking leaves the page alone', async () => {
    const { control, emit } = fakeControl();
    const reload = vi.fn();
    await registerServiceWorker({ control, reload, offerUpdate: () => undefined, every: noChecks });
    emit('waiting');
    emit('controlling');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads at once when another tab already took the new version (no worker waits any more)', async () => {
    const { control, registration, emit } = fakeControl();
    const reload = vi.fn();
    let accept = () => {};
    await registerServiceWorker({ control, reload, offerUpdate: (take) => (accept = take), every: noChecks });
    emit('waiting');
    registration.waiting = null;
    accept();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(control.messageSkipWaiting).not.toHaveBeenCalled();
  });

  it('looks for a new version every hour, since a single-page app seldom navigates', async () => {
    const { control } = fakeControl({ waiting: false });
    const every = vi.fn<(check: () => void, intervalMs: number) => void>();
    await registerServiceWorker({ control, reload: vi.fn(), every });
    expect(every).toHaveBeenCalledWith(expect.any(Function), 60 * 60_000);
    every.mock.calls[0]![0]();
    expect(control.update).toHaveBeenCalledOnce();
  });
});
