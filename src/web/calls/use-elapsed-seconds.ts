import { useSyncExternalStore } from 'react';
import type { ElapsedSecondsStore } from './elapsed-seconds';

/** The call's elapsed seconds; only the component that calls this renders again as they tick. */
export function useElapsedSeconds(elapsed: ElapsedSecondsStore): number {
  return useSyncExternalStore(elapsed.subscribe, elapsed.getSnapshot);
}
