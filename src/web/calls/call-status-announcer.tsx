import { useState } from 'react';
import { callAnnouncement } from './call-announcement';
import { idleSnapshot, type CallSnapshot } from './call-snapshot';

/**
 * A polite live region, present before any call so that screen readers hear each change of the
 * call: ringing, connected, ended. Visible text elsewhere (the timer) stays out of it, or it would
 * be read every second. Empty, it holds no node at all (Preact would keep an empty text node): a
 * region that starts empty is what screen readers watch for changes.
 */
export function CallStatusAnnouncer({ call }: { call: CallSnapshot | null }) {
  const current = call ?? idleSnapshot;
  const [announced, setAnnounced] = useState({ call: current, text: '' });
  if (announced.call.phase !== current.phase) {
    setAnnounced({ call: current, text: callAnnouncement(announced.call, current) ?? announced.text });
  }
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {announced.text || null}
    </p>
  );
}
