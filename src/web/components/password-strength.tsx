import { useEffect, useState } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import type { PasswordVerdict } from '../../common/password-strength';
import { cn } from '../lib/utils';
import { askPasswordChecker, wakePasswordChecker } from '../password-checker/password-checker-client';

// Judging one password takes from a few to tens of milliseconds (more on a slow phone): once typing
// pauses, not at every key.
const JUDGE_AFTER_PAUSE_MS = 200;
// A form being sent waits this long at most for a checker still loading its dictionaries: after
// that the password goes as it is, and the server judges it the same way (decision 014).
const CHECK_BEFORE_SENDING_MS = 5_000;

export interface PasswordStrength {
  /** The last verdict the checker gave on this field, shown as the password is typed; null while it is empty, before the first answer, or without a checker. */
  verdict: PasswordVerdict | null;
  /** True while the checker has not yet answered for the password as it is now. */
  pending: boolean;
  /** The verdict on the password as it is now, for a form being sent; null when the checker cannot answer in time. */
  check: () => Promise<PasswordVerdict | null>;
  /** Starts the checker's worker, for a field that gets the focus. */
  prepare: () => void;
}

interface Answer {
  question: string;
  verdict: PasswordVerdict | null;
}

function askWithin(password: string, personal: (string | undefined)[], ms: number): Promise<PasswordVerdict | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  const answer = askPasswordChecker(password, personal).catch(() => null);
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** Judges a new password as it is typed, with the person's own name and address, when known, as easy guesses. */
export function usePasswordStrength(password: string, fullName?: string, email?: string): PasswordStrength {
  const question = JSON.stringify([password, fullName, email]);
  const [answer, setAnswer] = useState<Answer>();
  useEffect(() => {
    if (!password) return;
    let wanted = true;
    const timer = setTimeout(() => {
      // Without an answer the form still sends the password: the server judges it the same way.
      askPasswordChecker(password, [fullName, email]).then(
        (verdict) => wanted && setAnswer({ question, verdict }),
        () => wanted && setAnswer({ question, verdict: null }),
      );
    }, JUDGE_AFTER_PAUSE_MS);
    return () => {
      wanted = false;
      clearTimeout(timer);
    };
  }, [question, password, fullName, email]);

  const answered = answer?.question === question;
  return {
    // An emptied field says nothing at once, rather than after the pause.
    verdict: password ? (answer?.verdict ?? null) : null,
    pending: password !== '' && !answered,
    check: () => (answered ? Promise.resolve(answer.verdict) : askWithin(password, [fullName, email], CHECK_BEFORE_SENDING_MS)),
    prepare: wakePasswordChecker,
  };
}

/** What the strength check says under a new password field, announced as it changes; busy while the checker has not answered. */
export function PasswordStrengthFeedback({ id, verdict, pending }: { id: string; verdict: PasswordVerdict | null; pending: boolean }) {
  const idle = `At least ${PASSWORD_MIN_LENGTH} characters, hard to guess.`;
  return (
    <p id={id} aria-live="polite" aria-busy={pending} className={cn('text-sm', verdict && !verdict.acceptable ? 'text-destructive' : 'text-muted-foreground', pending && 'opacity-70')}>
      {verdict?.message ?? (pending ? 'Checking how easy it is to guess…' : idle)}
    </p>
  );
}
