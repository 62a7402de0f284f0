import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  it('reloads what a tab shows when the user comes back to it, as a tab on Free catches up without sync', async () => {
    const queryClient = createQueryClient();
    let loads = 0;
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useQuery({ queryKey: ['contacts'], queryFn: () => ++loads }), { wrapper });
    await waitFor(() => expect(result.current.data).toBe(1));

    // What the browser fires as the tab is shown again: the tab on Free hears no sync message.
    act(() => void window.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(result.current.data).toBe(2));
    unmount();
    queryClient.clear();
  });
});
