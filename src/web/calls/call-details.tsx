import { ChevronDownIcon } from 'lucide-react';
import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import { callQualityLabels, type CallQuality } from '../../common/call-quality';
import type { MediaTransport } from '../../common/media';
import { Button } from '../components/ui/button';
import { cn } from '../lib/utils';
import type { CallFigures } from './call-figures';
import type { CallFiguresStore } from './call-figures-watch';

const transportNames: Record<MediaTransport, string> = { webrtc: 'WebRTC', 'websocket-opus': 'WebSocket', 'websocket-pcm': 'WebSocket' };

const qualityClass: Record<CallQuality, string> = {
  good: 'text-green-700 dark:text-green-400',
  fair: 'text-amber-700 dark:text-amber-400',
  poor: 'text-red-700 dark:text-red-400',
};

const NOT_MEASURED = '—';
const ms = (value: number | undefined) => (value === undefined ? NOT_MEASURED : `${Math.round(value)} ms`);
const percent = (share: number | undefined) => (share === undefined ? NOT_MEASURED : `${(share * 100).toFixed(1)} %`);

function packets({ packetsReceived, packetsLost }: CallFigures): string {
  if (packetsReceived === undefined) return NOT_MEASURED;
  return `${packetsReceived.toLocaleString('en-US')} received, ${(packetsLost ?? 0).toLocaleString('en-US')} lost`;
}

function FigureRows({ figures }: { figures: CallFigures }) {
  const micPercent = Math.round(Math.min(1, figures.micLevel ?? 0) * 100);
  const rows: [string, ReactNode][] = [
    ['Quality', <span className={cn('font-semibold', qualityClass[figures.quality])}>{callQualityLabels[figures.quality]}</span>],
    ['Transport', transportNames[figures.transport]],
    ['Codec', figures.codec ?? NOT_MEASURED],
    ['Round trip', ms(figures.roundTripMs)],
    ['Jitter', ms(figures.jitterMs)],
    ['Packets', packets(figures)],
    ['Packet loss', percent(figures.lossShare)],
    ['Concealed', percent(figures.concealedShare)],
    ['Voice changer delay', figures.voiceDelayMs > 0 ? ms(figures.voiceDelayMs) : 'None'],
    [
      'Microphone',
      figures.micLevel === undefined ? (
        NOT_MEASURED
      ) : (
        <span className="flex items-center gap-2">
          <span role="meter" aria-label="Microphone level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={micPercent} className="h-1.5 w-16 overflow-hidden rounded-full bg-muted">
            <span className="block h-full bg-primary" style={{ width: `${micPercent}%` }} />
          </span>
          {micPercent} %
        </span>
      ),
    ],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="tabular-nums" data-figure={term}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * docs/calls.md#call-details: a disclosure on the active call showing how its audio is doing,
 * read every second from the call's media while the call is up.
 */
export function CallDetails({ figures }: { figures: CallFiguresStore }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const latest = useSyncExternalStore(figures.subscribe, figures.getSnapshot);
  return (
    <div className="text-xs">
      <Button variant="ghost" size="custom" className="h-7 gap-2 rounded-md px-2 text-xs" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <ChevronDownIcon aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
        Call details
      </Button>
      {open && (
        <section id={panelId} aria-label="Call details" className="mt-1 rounded-md border bg-background/60 p-2">
          {latest ? <FigureRows figures={latest} /> : <p className="text-muted-foreground">Measuring once the call is connected...</p>}
        </section>
      )}
    </div>
  );
}
