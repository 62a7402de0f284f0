// `npm start`: checks the configuration, builds and compresses the web app, then runs the server with its Node flags.
import { spawn } from 'node:child_process';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

let current = null;

/** Runs one step with this terminal; resolves with its exit code (128 + signal number when a signal ended it). */
function run(command, args) {
  return new Promise((resolve) => {
    current = spawn(command, args, { stdio: 'inherit' });
    current.on('exit', (code, signal) => resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : 15)));
  });
}

// A stop asked of `npm start` is the server's to handle (it closes calls and connections first).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => current?.kill(signal));

const steps = [
  [bin('tsx'), ['src/server/main.ts', '--check-config']],
  [bin('vite'), ['build', '--logLevel', 'warn']],
  // The same build as `npm run build`: the server sends these copies to browsers that accept them.
  [bin('tsx'), ['scripts/compress-web-app.ts']],
  // One process, `node --import tsx`, not the tsx command: tsx relays a SIGTERM to the server it
  // runs in a child and SIGKILLs that child when it has not said within 30 ms that the signal came,
  // which a server busy with calls can miss; the drain would then never run.
  [process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts']],
];
for (const [command, args] of steps) {
  const code = await run(command, args);
  if (code !== 0) {
    process.exitCode = code;
    break;
  }
}
