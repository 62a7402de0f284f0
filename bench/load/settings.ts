/** What the bench tells a Voxline instance it starts (voxline-instance.ts), as its one argument in JSON. */
export interface InstanceSettings {
  /** Tells this instance's bench users from another's in a shared database. */
  name: string;
  /** Shared by the instances of a run, so that a session made on one is good on the other. */
  secret: string;
  /** PostgreSQL; without it, the embedded database in `dataDir`. */
  databaseUrl?: string;
  /** An empty folder the bench made and removes, so that it goes even when the child is killed. */
  dataDir?: string;
  redisUrl?: string;
  /** Serves /metrics on this port of 127.0.0.1 (METRICS_PORT), for bench:dashboard to scrape. */
  metricsPort?: number;
}
