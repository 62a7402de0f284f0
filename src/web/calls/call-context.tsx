import { createContext, useContext, type ReactNode } from 'react';
import { ActiveCallBar } from './active-call-bar';
import { CallStatusAnnouncer } from './call-status-announcer';
import { useOutboundCall } from './use-outbound-call';
import { useTouchToneKeys } from './use-touch-tone-keys';

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
  return (
    <CallContext.Provider value={controls}>
      <div className={busy ? 'pb-24' : undefined}>{children}</div>
      <CallStatusAnnouncer call={controls.call} />
      {busy && <ActiveCallBar call={controls.call} elapsed={controls.elapsed} figures={controls.figures} onToggleMute={controls.toggleMute} onToggleRecording={controls.toggleRecording} onHangUp={() => void controls.hangUp()} />}
    </CallContext.Provider>
  );
}

export function useCall(): CallControls {
  const controls = useContext(CallContext);
  if (!controls) throw new Error('useCall must be used inside CallProvider');
  return controls;
}
