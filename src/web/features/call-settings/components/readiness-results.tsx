import { CircleAlertIcon, CircleCheckIcon, CircleXIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { LevelMeter } from '../../../audio/devices/level-meter';
import { Button } from '../../../components/ui/button';
import type { CheckStatus, ReadinessCheck } from '../readiness/readiness-checks';
import type { Readiness } from '../readiness/use-readiness';

const statusWords: Record<CheckStatus, string> = { ok: 'OK', warning: 'Warning', failed: 'Failed' };

function StatusIcon({ status }: { status: CheckStatus }) {
  if (status === 'ok') return <CircleCheckIcon aria-hidden="true" className="size-5 shrink-0 text-green-700 dark:text-green-400" />;
  if (status === 'warning') return <CircleAlertIcon aria-hidden="true" className="size-5 shrink-0 text-yellow-700 dark:text-yellow-400" />;
  return <CircleXIcon aria-hidden="true" className="size-5 shrink-0 text-destructive" />;
}

/** The readiness checks, each with its status in words and its fix-it action. */
export function ReadinessResults({ readiness, checks }: { readiness: Readiness; checks: readonly ReadinessCheck[] }) {
  return (
    <ul aria-label="Readiness checks" className="flex flex-col gap-3">
      {checks.map((check) => (
        <li key={check.id} aria-label={`${check.label}: ${statusWords[check.status]}`} className="flex items-start gap-3">
          <StatusIcon status={check.status} />
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <p className="text-sm">
              <span className="font-medium">{check.label}</span> <span className="text-muted-foreground">({statusWords[check.status]})</span>
            </p>
            <p className="text-sm text-muted-foreground">{check.detail}</p>
            {check.id === 'microphone' && readiness.stream && <LevelMeter stream={readiness.stream} />}
            {check.id === 'speaker' && <SpeakerTest readiness={readiness} needed={check.status !== 'ok'} />}
            {check.fix && check.id !== 'speaker' && <FixButton readiness={readiness} check={check} />}
          </div>
        </li>
      ))}
    </ul>
  );
}

function FixButton({ readiness, check }: { readiness: Readiness; check: ReadinessCheck }) {
  const { fix } = check;
  if (!fix) return null;
  if (fix.action === 'rent-number') {
    return (
      <Button asChild variant="outline" size="sm" className="w-fit">
        <Link to="/contacts">{fix.label}</Link>
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" className="w-fit" onClick={() => void readiness.fix(fix.action)} disabled={readiness.running}>
      {fix.label}
    </Button>
  );
}

/** Plays the tone; once played, asks whether it was heard. */
function SpeakerTest({ readiness, needed }: { readiness: Readiness; needed: boolean }) {
  const { tone } = readiness;
  if (tone === 'played') {
    return (
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void readiness.confirmHeard(true)}>
          I heard it
        </Button>
        <Button variant="outline" size="sm" onClick={() => void readiness.fix('play-tone')}>
          Play again
        </Button>
      </div>
    );
  }
  if (!needed) return null;
  return (
    <Button variant="outline" size="sm" className="w-fit" onClick={() => void readiness.fix('play-tone')} disabled={tone === 'playing'}>
      {tone === 'playing' ? 'Playing...' : 'Play test tone'}
    </Button>
  );
}
