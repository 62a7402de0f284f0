import { RefreshCwIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { readinessSummary } from '../readiness/readiness-checks';
import { useReadiness } from '../readiness/use-readiness';
import { ReadinessResults } from './readiness-results';

/** docs/product.md "Ready to take calls": the checks on demand, in the Call Receiver tab. */
export function ReadinessPanel() {
  const titleId = useId();
  const readiness = useReadiness({ listenToMicrophone: true });
  const { checks, running } = readiness;
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader layout="row" className="flex-wrap items-center">
        <div className="flex min-w-0 flex-col gap-1.5">
          <h3 id={titleId} className="text-lg font-semibold leading-none">
            Ready to take calls
          </h3>
          <CardDescription>Checks the microphone, speaker, notifications, sound, connection and numbers.</CardDescription>
        </div>
        <Button variant="outline" onClick={() => void readiness.run()} disabled={running}>
          <RefreshCwIcon aria-hidden="true" className={running ? 'animate-spin' : undefined} />
          {running ? 'Checking...' : 'Check now'}
        </Button>
      </CardHeader>
      {(checks || readiness.fixError) && (
        <CardContent className="flex flex-col gap-4">
          {readiness.fixError && (
            <p role="alert" className="text-sm text-destructive">
              {readiness.fixError}
            </p>
          )}
          {checks && (
            <>
              <p role="status" className="font-medium">
                {readinessSummary(checks)}
              </p>
              <ReadinessResults readiness={readiness} checks={checks} />
            </>
          )}
        </CardContent>
      )}
    </Card>
  );
}
