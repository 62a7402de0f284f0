// The worker's entry: a thread does not inherit the TypeScript loader the server runs with
// (`--import tsx`), so it registers it before loading the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./encoder-worker.ts');
