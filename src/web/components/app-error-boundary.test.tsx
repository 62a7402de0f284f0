import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../lib/browser-location';
import { AppErrorBoundary } from './app-error-boundary';

afterEach(() => vi.unstubAllGlobals());

function FailingProvider(): never {
  throw new Error('the provider failed');
}

describe('the top-level error boundary', () => {
  it('shows the friendly screen for an error outside the pages, and reports it with the path', async () => {
    const fetchStub = vi.fn(async (_url: string, _init?: RequestInit) => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchStub);
    const reload = vi.spyOn(browserLocation, 'reload').mockImplementation(() => undefined);
    const unexpected = vi.mocked(console.error).getMockImplementation();
    vi.mocked(console.error).mockImplementation((...args: unknown[]) => {
      if (!args.some((arg) => arg instanceof Error && arg.message === 'the provider failed')) unexpected?.(...args);
    });
    try {
      render(
        <AppErrorBoundary>
          <FailingProvider />
        </AppErrorBoundary>,
      );
      expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toHaveFocus();
      expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(reload).toHaveBeenCalledTimes(1);
      expect(fetchStub).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(fetchStub.mock.calls[0]![1]?.body))).toMatchObject({ route: '/', message: 'the provider failed' });
    } finally {
      reload.mockRestore();
    }
  });
});
