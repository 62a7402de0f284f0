import { MicIcon, MicOffIcon, PhoneIcon, PhoneIncomingIcon, PhoneOffIcon } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { useFormattedPhoneNumber } from '../../../lib/phone-library';
import { toast } from '../../../lib/toast';
import { formatDuration } from '../../../../common/calls';
import { CallStatusAnnouncer } from '../../../calls/call-status-announcer';
import { CallDetails } from '../../../calls/call-details';
import type { CallFiguresStore } from '../../../calls/call-figures-watch';
import type { ElapsedSecondsStore } from '../../../calls/elapsed-seconds';
import type { CallReceiver, ReceivedCall } from '../../../calls/use-call-receiver';
import { InCallKeypad } from '../../../calls/in-call-keypad';
import { KeysHeard } from '../../../calls/keys-heard';
import { RecordControl } from '../../../calls/record-control';
import { useElapsedSeconds } from '../../../calls/use-elapsed-seconds';
import { useTouchToneKeys } from '../../../calls/use-touch-tone-keys';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { DeviceMenu } from '../../../audio/devices/device-menu';
import { useReadinessGate } from '../readiness/use-readiness-gate';
import { ReadinessGateView } from './readiness-gate';

/** docs/product.md §2 panel 'Call Receiver': listening on or off, and the call ringing or in progress. */
export function CallReceiverPanel({ receiver, hasNumbers }: { receiver: CallReceiver; hasNumbers: boolean }) {
  const titleId = useId();
  const { listening, call } = receiver;
  const gate = useReadinessGate(receiver.startReceiving);

  function startReceiving() {
    if (!hasNumbers) {
      toast.error('No phone numbers available', { description: 'You need to add a phone number to receive calls' });
      return;
    }
    void gate.begin();
  }

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader layout="row" className="flex-wrap items-center">
        <div className="flex min-w-0 flex-col gap-1.5">
          <h3 id={titleId} className="text-lg font-semibold leading-none">
            Call Receiver
          </h3>
          <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
            <span aria-hidden="true" className={listening ? 'size-2 rounded-full bg-green-500' : 'size-2 rounded-full bg-muted-foreground/40'} />
            {listening ? 'Ready to receive incoming calls' : 'Call receiving is turned off'}
          </p>
        </div>
        {listening ? (
          <Button variant="outline" onClick={receiver.stopReceiving}>
            <PhoneOffIcon aria-hidden="true" />
            Stop Receiving
          </Button>
        ) : (
          <Button onClick={startReceiving}>
            <PhoneIncomingIcon aria-hidden="true" />
            Receive Calls
          </Button>
        )}
      </CardHeader>
      <ReadinessGateView gate={gate} listening={listening} />
      <CallStatusAnnouncer call={call} />
      {call && (
        <CardContent>
          {call.phase === 'ringing' ? (
            <IncomingCallCard call={call} onAnswer={() => void receiver.answer()} onReject={receiver.reject} />
          ) : (
            <OnCallCard call={call} elapsed={receiver.elapsed} figures={receiver.figures} onToggleMute={receiver.toggleMute} onToggleRecording={receiver.toggleRecording} onHangUp={() => void receiver.hangUp()} onPressKey={receiver.pressKey} />
          )}
        </CardContent>
      )}
    </Card>
  );
}

function IncomingCallCard({ call, onAnswer, onReject }: { call: ReceivedCall; onAnswer: () => void; onReject: () => void }) {
  const titleId = useId();
  const peer = useFormattedPhoneNumber(call.peer);
  return (
    <section aria-labelledby={titleId} className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-green-500/40 bg-green-500/10 p-4">
      <div className="flex items-center gap-3">
        <PhoneIncomingIcon aria-hidden="true" className="size-6 animate-pulse text-green-600 dark:text-green-400" />
        <div className="flex flex-col gap-1">
          <h4 id={titleId} className="font-semibold">
            Incoming Call
          </h4>
          <p className="text-lg tabular-nums">{peer}</p>
        </div>
      </div>
      <div className="flex gap-2">
        <Button variant="call" onClick={onAnswer}>
          <PhoneIcon aria-hidden="true" />
          Answer
        </Button>
        <Button variant="destructive" onClick={onReject}>
          <PhoneOffIcon aria-hidden="true" />
          Reject
        </Button>
      </div>
    </section>
  );
}

function OnCallCard({
  call,
  elapsed,
  figures,
  onToggleMute,
  onToggleRecording,
  onHangUp,
  onPressKey,
}: {
  call: ReceivedCall;
  elapsed: ElapsedSecondsStore;
  figures: CallFiguresStore;
  onToggleMute: () => void;
  onToggleRecording: () => void;
  onHangUp: () => void;
  onPressKey: (key: string) => boolean;
}) {
  const titleId = useId();
  const peer = useFormattedPhoneNumber(call.peer);
  const sectionRef = useRef<HTMLElement>(null);
  const elapsedSec = useElapsedSeconds(elapsed);
  const connected = call.phase === 'active';
  useTouchToneKeys(connected, onPressKey);
  // Answering removes the focused Answer button with the ringing card: keep a keyboard user's place here.
  useEffect(() => {
    if (document.activeElement === document.body) sectionRef.current?.focus();
  }, []);
  return (
    <section
      ref={sectionRef}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="flex flex-wrap items-center justify-between gap-4 rounded-lg border bg-muted/40 p-4"
    >
      <div className="flex flex-col gap-1">
        <h4 id={titleId} className="font-semibold">
          On Call
        </h4>
        <p className="text-lg tabular-nums">{peer}</p>
        <p className="text-sm tabular-nums text-muted-foreground">
          <span className="sr-only">Call time </span>
          {connected ? formatDuration(elapsedSec) : 'Connecting...'}
        </p>
        <KeysHeard keys={call.keysHeard} />
        <CallDetails figures={figures} />
        <RecordControl call={call} elapsed={elapsed} onToggle={onToggleRecording} />
      </div>
      <InCallKeypad onPress={onPressKey} disabled={!connected} />
      <div className="flex gap-2">
        <DeviceMenu />
        <Button variant={call.isMuted ? 'secondary' : 'outline'} onClick={onToggleMute} disabled={!connected}>
          {call.isMuted ? <MicOffIcon aria-hidden="true" /> : <MicIcon aria-hidden="true" />}
          {call.isMuted ? 'Unmute' : 'Mute'}
        </Button>
        <Button variant="destructive" onClick={onHangUp}>
          <PhoneOffIcon aria-hidden="true" />
          End Call
        </Button>
      </div>
    </section>
  );
}
