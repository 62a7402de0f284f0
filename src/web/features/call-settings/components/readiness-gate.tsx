import { Button } from '../../../components/ui/button';
import { CardContent } from '../../../components/ui/card';
import { readinessSummary } from '../readiness/readiness-checks';
import type { ReadinessGate } from '../readiness/use-readiness-gate';
import { ReadinessResults } from './readiness-results';

/** In the Call Receiver card: the checks that held the start back, or those listening started with. */
export function ReadinessGateView({ gate, listening }: { gate: ReadinessGate; listening: boolean }) {
  const { readiness, held, problems } = gate;
  if (held && readiness.checks && !listening) {
    return (
      <CardContent className="flex flex-col gap-4">
        <section aria-label="Before listening" className="flex flex-col gap-4 rounded-lg border border-destructive/40 p-4">
          <p role="alert" className="font-medium">
            Before listening: {readinessSummary(readiness.checks)}
          </p>
          <ReadinessResults readiness={readiness} checks={problems} />
          <div className="flex flex-wrap gap-2">
            <Button onClick={gate.startAnyway}>Start anyway</Button>
            <Button variant="outline" onClick={gate.cancel}>
              Cancel
            </Button>
          </div>
        </section>
      </CardContent>
    );
  }
  if (!listening || problems.length === 0) return null;
  return (
    <CardContent>
      <p role="note" aria-label="Readiness" className="text-sm text-muted-foreground">
        Listening with {problems.some((check) => check.status === 'failed') ? 'failed checks' : 'warnings'}: {problems.map((check) => `${check.label} (${check.status === 'failed' ? 'failed' : 'warning'})`).join(', ')}. See "Ready to take calls" below.
      </p>
    </CardContent>
  );
}
