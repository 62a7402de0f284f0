import { useEffect, useState, type ReactNode } from 'react';

/**
 * `children` one task after this mounts, `fallback` until then. Around a page, inside the frame of
 * the signed-in pages: the frame renders and paints in one task and the page in the next, rather
 * than both in one long task that would hold back a tap on a slow phone while the app starts.
 */
export function InNextTask({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 0);
    return () => clearTimeout(timer);
  }, []);
  return shown ? children : fallback;
}
