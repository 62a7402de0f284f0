/**
 * The Node flags the Voxline server runs with, wherever it is started: npm start, npm run dev, the
 * benches' server children and the tests that start it as a process of its own. A larger first old
 * generation (docs/decisions/009-a-larger-old-generation.md) and no allocation-site pretenuring
 * (docs/decisions/011-no-allocation-site-pretenuring.md). Node refuses both in NODE_OPTIONS, so
 * each launcher passes them on the command line; tests/project/server-node-flags.test.ts keeps
 * every launcher reading them from here.
 */
export const SERVER_NODE_FLAGS = ['--initial-old-space-size=256', '--no-allocation-site-pretenuring'];
