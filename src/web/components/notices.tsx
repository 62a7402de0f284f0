import { lazy, Suspense, useSyncExternalStore } from 'react';
import { notices } from '../lib/toast';

const Toaster = lazy(() => import('./ui/sonner').then(({ Toaster }) => ({ default: Toaster })));

/** The notices' Toaster, fetched with sonner on the first notice (lib/toast.ts); nothing until then. */
export function Notices() {
  const raised = useSyncExternalStore(notices.subscribe, notices.raised);
  if (!raised) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
