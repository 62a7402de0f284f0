import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from './toast';
import { ApiError } from './api-client';
import { withErrorReference } from './error-reference';
import { sessionQuery } from './session';

/** One notice for a sign-out: this tab's own "Logged out" replaces the one its closed socket raises first. */
export const SIGNED_OUT_TOAST_ID = 'signed-out';

// docs/product.md §8: 401, 403 and 404 on sign-out mean the session is already gone, which is what was asked.
const ALREADY_SIGNED_OUT = new Set([401, 403, 404]);

async function signOutEverywhere() {
  let response: Response;
  try {
    response = await fetch('/api/v1/auth/sign-out', { method: 'POST', credentials: 'same-origin' });
  } catch {
    throw new Error('Cannot reach Voxline. Check your connection and try again.');
  }
  if (!response.ok && !ALREADY_SIGNED_OUT.has(response.status)) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string }; message?: string } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? body?.message ?? 'Failed to log out', undefined, response.headers.get('x-request-id'));
  }
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await signOutEverywhere();
    } catch (error) {
      toast.error('Error', { description: withErrorReference((error as Error).message || 'Failed to log out', error) });
      return;
    }
    queryClient.setQueryData(sessionQuery.queryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
    toast.success('Logged out', { id: SIGNED_OUT_TOAST_ID, description: 'You have been successfully logged out' });
    await navigate('/', { replace: true });
  };
}
