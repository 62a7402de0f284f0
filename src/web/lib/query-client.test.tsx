import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  it('reloads what a tab shows when the user comes back to it, as a tab on Free catches up without sync', async () => {
    const queryClient = createQueryClient();
    let loads = 0;
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useQuery({ queryKey: ['contacts'], queryFn: () => ++loads }), { wrapper });
    await waitFor(() => expect(result.current.data).toBe(1));

    // What the browser fires as the tab is shown again, a while later: the tab on Free hears no sync message.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 5_001);
      act(() => void window.dispatchEvent(new Event('visibilitychange')));
      await waitFor(() => expect(result.current.data).toBe(2));
    } finally {
      vi.useRealTimers();
    }
    unmount();
    queryClient.clear();
  });

  it('shares one answer between what mounts within 5 s of it: the signed-in frame and its page, whose chunks arrive apart', async () => {
    const queryClient = createQueryClient();
    let loads = 0;
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const frame = renderHook(() => useQuery({ queryKey: ['preferences'], queryFn: () => ++loads }), { wrapper });
    await waitFor(() => expect(frame.result.current.data).toBe(1));
    const page = renderHook(() => useQuery({ queryKey: ['preferences'], queryFn: () => ++loads }), { wrapper });
    expect(page.result.current.data).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loads).toBe(1);
    frame.unmount();
    page.unmount();
    queryClient.clear();
  });
});
