/** How the drain ended: every call had ended, or DRAIN_SECONDS passed with some still up. */
type DrainEnd = 'calls-ended' | 'limit-reached';

/** Timers, injected so that tests need not wait DRAIN_SECONDS. */
export interface DrainTimers {
  /** Runs `run` once after `ms`; answers a function that cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Runs `run` every `ms`; answers a function that stops it. */
  every(ms: number, run: () => void): () => void;
}

/** Neither timer keeps the process alive: a second SIGTERM exits without waiting for them. */
const nodeTimers: DrainTimers = {
  after(ms, run) {
    const timer = setTimeout(run, ms).unref();
    return () => clearTimeout(timer);
  },
  every(ms, run) {
    const timer = setInterval(run, ms).unref();
    return () => clearInterval(timer);
  },
};

interface DrainOptions {
  /** The calls that stopping the process now would cut. */
  callsInProgress: () => number;
  limitMs: number;
  /**
   * How often the count is read. Counting is cheap, and reading it keeps the drain apart from the
   * many ways a call ends; a second at most between the last call's end and the exit.
   */
  checkEveryMs?: number;
  timers?: DrainTimers;
}

const CHECK_EVERY_MS = 500;

/** Waits until no call is in progress, or `limitMs` has passed; answers which came first. */
export function waitForCallsToEnd({ callsInProgress, limitMs, checkEveryMs = CHECK_EVERY_MS, timers = nodeTimers }: DrainOptions): Promise<DrainEnd> {
  if (callsInProgress() === 0) return Promise.resolve('calls-ended');
  if (limitMs <= 0) return Promise.resolve('limit-reached');
  return new Promise((resolve) => {
    const finish = (end: DrainEnd) => {
      stopChecking();
      cancelLimit();
      resolve(end);
    };
    const stopChecking = timers.every(checkEveryMs, () => {
      if (callsInProgress() === 0) finish('calls-ended');
    });
    const cancelLimit = timers.after(limitMs, () => finish(callsInProgress() === 0 ? 'calls-ended' : 'limit-reached'));
  });
}
