import { HouseIcon, RotateCwIcon, TriangleAlertIcon } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { Button } from './ui/button';

interface ErrorScreenProps {
  /** What happened, in the visitor's words. */
  explanation: string;
  onRetry: () => void;
}

/** A page that failed, in place of the page: what happened, Try again, and a way home. */
export function ErrorScreen({ explanation, onRetry }: ErrorScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Screen readers and keyboards start from what happened, not from wherever focus was in the page that failed.
  // A layout effect: focused in the same commit that shows it, so nothing sees the heading unfocused.
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <TriangleAlertIcon className="size-10 text-destructive" aria-hidden="true" />
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight outline-none">
        Something went wrong
      </h1>
      <p className="max-w-md text-muted-foreground">{explanation}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={onRetry}>
          <RotateCwIcon aria-hidden="true" />
          Try again
        </Button>
        {/* A full load: whatever broke this page is left behind with it. */}
        <Button asChild variant="outline">
          <a href="/">
            <HouseIcon aria-hidden="true" />
            Go home
          </a>
        </Button>
      </div>
    </main>
  );
}

/** The explanation for an error: a missing chunk is a new version or a lost connection, anything else a fault of ours. */
export function explainError({ staleChunk, online }: { staleChunk: boolean; online: boolean }): string {
  if (staleChunk && !online) return 'This page could not be loaded because the connection was lost. Check your connection, then try again.';
  if (staleChunk) return 'Voxline was updated while this page was open, and part of the new version did not load. Try again to load the latest version.';
  return 'This page stopped working because of a problem on our side. Try again, or go back to the home page.';
}
