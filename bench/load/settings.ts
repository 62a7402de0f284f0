/** The Node options `npm start` gives the server (package.json, docs/decisions/009 and 011): the bench's servers run with them too. */
export const SERVER_NODE_FLAGS = ['--initial-old-space-size=256', '--no-allocation-site-pretenuring'];

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
}
