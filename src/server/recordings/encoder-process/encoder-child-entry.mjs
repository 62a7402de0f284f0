// The encoder process's entry: it is started with no Node options of the server's (no `--import
// tsx`, no profiler or inspector flags), so it registers the TypeScript loader before loading itself.
import { register } from 'tsx/esm/api';

register();
await import('./encoder-child.ts');
