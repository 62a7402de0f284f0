import type { PasswordVerdict } from '../../common/password-strength';
import type { PasswordAnswer, PasswordQuestion } from './password-question';

interface Waiting {
  resolve: (verdict: PasswordVerdict) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let lastId = 0;
const waiting = new Map<number, Waiting>();

function giveUp(reason: string) {
  worker?.terminate();
  worker = undefined;
  const error = new Error(`The password checker stopped: ${reason}`);
  for (const question of waiting.values()) question.reject(error);
  waiting.clear();
}

function startWorker(): Worker {
  // Vite bundles the worker on its own from this exact expression; its dictionaries never join a page's chunks.
  const started = new Worker(new URL('./password-checker.worker.ts', import.meta.url), { type: 'module', name: 'password-checker' });
  started.addEventListener('message', ({ data }: MessageEvent<PasswordAnswer>) => {
    waiting.get(data.id)?.resolve(data.verdict);
    waiting.delete(data.id);
  });
  // A worker that cannot load (offline, a release gone after a deploy) or that throws is dropped:
  // the questions waiting are refused, and the next one starts a new worker.
  started.addEventListener('error', (event) => giveUp(event.message || 'it could not load'));
  started.addEventListener('messageerror', () => giveUp('an answer could not be read'));
  return started;
}

/** Starts the checker's worker, for a password field that gets the focus, so that the first answer comes sooner. */
export function wakePasswordChecker(): void {
  try {
    worker ??= startWorker();
  } catch {
    // No module workers here: ask will say so, and the server judges the password anyway.
  }
}

/** How guessable a new password is, judged in the checker's worker with the person's own name and address as easy guesses. */
export function askPasswordChecker(password: string, personal: (string | undefined)[] = []): Promise<PasswordVerdict> {
  return new Promise((resolve, reject) => {
    try {
      worker ??= startWorker();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const id = ++lastId;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, password, personal } satisfies PasswordQuestion);
  });
}
