import { useCallback, useEffect, useMemo, useState } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import type * as PasswordChecker from '../../common/password-strength';
import type { PasswordVerdict } from '../../common/password-strength';
import { cn } from '../lib/utils';

type Checker = typeof PasswordChecker;

// Judging one password takes from a few to tens of milliseconds (more on a slow phone): once typing
// pauses, not at every key.
const JUDGE_AFTER_PAUSE_MS = 200;

let loading: Promise<Checker> | undefined;
let loaded: Checker | undefined;

/**
 * The checker with zxcvbn's dictionaries, about 1 MB: a chunk of its own, fetched when a password
 * field is first used and never with the first page (decision 014).
 */
function loadChecker(): Promise<Checker> {
  loading ??= import('../../common/password-strength').then(
    (checker) => (loaded = checker),
    (error: unknown) => {
      // A failed fetch is not remembered: the next focus tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export interface PasswordStrength {
  /** How guessable the password is, shown as it is typed; null while it is empty or the checker is still loading. */
  verdict: PasswordVerdict | null;
  /** The verdict on the password as it is now, for a form being sent; null while the checker is still loading. */
  check: () => PasswordVerdict | null;
  /** Starts loading the checker, for a field that gets the focus. */
  prepare: () => void;
}

/** Judges a new password as it is typed, with the person's own name and address, when known, as easy guesses. */
export function usePasswordStrength(password: string, fullName?: string, email?: string): PasswordStrength {
  const [checker, setChecker] = useState<Checker | undefined>(loaded);
  const prepare = useCallback(() => {
    // Without the checker the form still sends the password: the server judges it the same way.
    loadChecker().then(setChecker, () => undefined);
  }, []);
  useEffect(() => {
    if (password) prepare();
  }, [password, prepare]);

  const judge = useCallback(
    (value: string) => (checker && value ? checker.judgePassword(value, checker.personalWords(fullName, email)) : null),
    [checker, fullName, email],
  );
  const [judged, setJudged] = useState(password);
  useEffect(() => {
    const timer = setTimeout(() => setJudged(password), JUDGE_AFTER_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [password]);
  const verdict = useMemo(() => judge(judged), [judge, judged]);
  return {
    // An emptied field says nothing at once, rather than after the pause.
    verdict: password ? verdict : null,
    check: () => (judged === password ? verdict : judge(password)),
    prepare,
  };
}

/** What the strength check says under a new password field, announced as it changes. */
export function PasswordStrengthFeedback({ id, verdict }: { id: string; verdict: PasswordVerdict | null }) {
  return (
    <p id={id} aria-live="polite" className={cn('text-sm', verdict && !verdict.acceptable ? 'text-destructive' : 'text-muted-foreground')}>
      {verdict?.message ?? `At least ${PASSWORD_MIN_LENGTH} characters, hard to guess.`}
    </p>
  );
}
