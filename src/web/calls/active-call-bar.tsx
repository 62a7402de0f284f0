import { MicIcon, MicOffIcon, PhoneOffIcon } from 'lucide-react';
import { formatDuration } from '../../common/calls';
import { mediaTransportLabels } from '../../common/media';
import { Button } from '../components/ui/button';
import { IconTooltip } from '../components/ui/tooltip';
import { DeviceMenu } from '../audio/devices/device-menu';
import { CallDetails } from './call-details';
import type { CallFiguresStore } from './call-figures-watch';
import type { ElapsedSecondsStore } from './elapsed-seconds';
import { KeysHeard } from './keys-heard';
import { RecordControl } from './record-control';
import type { ActiveCall } from './use-outbound-call';
import { useElapsedSeconds } from './use-elapsed-seconds';
import { voiceLabel } from './voice-label';

function nationalPart(call: ActiveCall) {
  return call.peer.startsWith(call.countryCode) ? call.peer.slice(call.countryCode.length) : call.peer;
}

/**
 * docs/product.md §2: the bar at the bottom while a call is on: country code, number, elapsed time,
 * which way its audio travels once connected, its Call details, mute, end.
 */
export function ActiveCallBar({
  call,
  elapsed,
  figures,
  onToggleMute,
  onToggleRecording,
  onHangUp,
}: {
  call: ActiveCall;
  elapsed: ElapsedSecondsStore;
  figures: CallFiguresStore;
  onToggleMute: () => void;
  onToggleRecording: () => void;
  onHangUp: () => void;
}) {
  const elapsedSec = useElapsedSeconds(elapsed);
  const status = call.phase === 'active' ? formatDuration(elapsedSec) : call.phase === 'ringing' ? 'Ringing...' : 'Calling...';
  return (
    <section aria-label="Active call" className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 shadow-lg backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <div className="flex min-w-0 flex-1 flex-col">
          <p className="truncate font-medium">
            <span className="text-muted-foreground">{call.countryCode}</span> {nationalPart(call)}
          </p>
          <p className="text-sm tabular-nums text-muted-foreground">
            <span className="sr-only">Call time </span>
            {status}
          </p>
          {call.voicemail && (
            <p role="note" aria-label="Answered by" className="truncate text-xs font-medium">
              Voicemail: leave a message after the beep
            </p>
          )}
          {call.mediaTransport && (
            <p role="note" aria-label="Audio path" className="truncate text-xs text-muted-foreground">
              Audio: {mediaTransportLabels[call.mediaTransport]}
            </p>
          )}
          {call.contactVoice && (
            <p role="note" aria-label="Voice" className="truncate text-xs text-muted-foreground">
              Voice: {voiceLabel(call.contactVoice.settings, call.contactVoice.contactName)}
            </p>
          )}
          <KeysHeard keys={call.keysHeard} />
          <CallDetails figures={figures} />
        </div>
        <RecordControl call={call} elapsed={elapsed} onToggle={onToggleRecording} />
        <DeviceMenu />
        <IconTooltip label={call.isMuted ? 'Unmute' : 'Mute'}>
          <Button
            variant={call.isMuted ? 'secondary' : 'outline'}
            size="icon"
            aria-label={call.isMuted ? 'Unmute' : 'Mute'}
            aria-pressed={call.isMuted}
            onClick={onToggleMute}
            disabled={call.callId === null}
          >
            {call.isMuted ? <MicOffIcon /> : <MicIcon />}
          </Button>
        </IconTooltip>
        <Button variant="destructive" onClick={onHangUp} disabled={call.callId === null}>
          <PhoneOffIcon />
          End call
        </Button>
      </div>
    </section>
  );
}
