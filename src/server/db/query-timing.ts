import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/** Told each query's time, in seconds. */
export type QueryObserver = (seconds: number) => void;

/**
 * Runs a driver's query function and reports its time once it settles, whether it answers with a
 * promise or through a callback (pg's pool passes one). A cursor or stream is not timed.
 */
function timed(run: (...args: unknown[]) => unknown, args: unknown[], report: QueryObserver): unknown {
  const started = performance.now();
  const done = () => report((performance.now() - started) / 1000);
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function') {
    args[last] = (...results: unknown[]) => {
      done();
      return (callback as (...results: unknown[]) => unknown)(...results);
    };
    return run(...args);
  }
  const result = run(...args);
  if (result instanceof Promise) result.then(done, done);
  return result;
}

/**
 * Times every query of the pool's connections, transactions' included: each connection's `query`
 * is wrapped as the pool opens it. Answers the setter of the observer, which the app gives once
 * it exists (the database is opened first).
 */
export function timePoolQueries(pool: Pick<pg.Pool, 'on'>): (observe: QueryObserver) => void {
  let observer: QueryObserver | null = null;
  const report = (seconds: number) => observer?.(seconds);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => timed(query, args, report)) as typeof client.query;
  });
  return (given) => {
    observer = given;
  };
}

/**
 * Times every query of the embedded database: its own `query`, and that of each transaction,
 * which PGlite runs past it. Answers the setter of the observer, as timePoolQueries does.
 */
export function timePgliteQueries(client: PGlite): (observe: QueryObserver) => void {
  let observer: QueryObserver | null = null;
  const report = (seconds: number) => observer?.(seconds);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => timed(query, args, report)) as typeof client.query;
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback: (tx: Transaction) => Promise<unknown>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx) as (...args: unknown[]) => unknown;
      tx.query = ((...args: unknown[]) => timed(txQuery, args, report)) as typeof tx.query;
      return callback(tx);
    })) as typeof client.transaction;
  return (given) => {
    observer = given;
  };
}
