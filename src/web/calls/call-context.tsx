import { createContext, Suspense, useContext, type ReactNode } from 'react';
import { lazyComponent } from '../lib/lazy-component';
import { CallStatusAnnouncer } from './call-status-announcer';
import { useOutboundCall } from './use-outbound-call';
import { useTouchToneKeys } from './use-touch-tone-keys';

// The bar with its call details, recording and device controls shows only during a call: fetched
// once the page has shown, not in its first load (decision 041).
const { Component: ActiveCallBar, useLoadAfterShow: useLoadActiveCallBar } = lazyComponent(async () => (await import('./active-call-bar')).ActiveCallBar);

type CallControls = ReturnType<typeof useOutboundCall>;

const CallContext = createContext<CallControls | null>(null);

/**
 * Holds the call in progress for every signed-in page, so moving from the dialer to Contacts or
 * Settings keeps the call and its bar at the bottom of the screen.
 */
export function CallProvider({ children }: { children: ReactNode }) {
  const controls = useOutboundCall();
  const busy = controls.call.phase !== 'idle';
  useTouchToneKeys(controls.call.phase === 'active', controls.pressKey);
  useLoadActiveCallBar();
  return (
    <CallContext.Provider value={controls}>
      <div className={busy ? 'pb-24' : undefined}>{children}</div>
      <CallStatusAnnouncer call={controls.call} />
      {busy && (
        <Suspense fallback={null}>
          <ActiveCallBar call={controls.call} elapsed={controls.elapsed} figures={controls.figures} onToggleMute={controls.toggleMute} onToggleRecording={controls.toggleRecording} onHangUp={() => void controls.hangUp()} />
        </Suspense>
      )}
    </CallContext.Provider>
  );
}

export function useCall(): CallControls {
  const controls = useContext(CallContext);
  if (!controls) throw new Error('useCall must be used inside CallProvider');
  return controls;
}
