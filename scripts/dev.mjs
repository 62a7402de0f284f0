// `npm run dev`: the API server with reload on change, and the Vite dev server proxying /api to it.
import { spawn } from 'node:child_process';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const children = [
  // A reload stops the server at once unless DRAIN_SECONDS is set: tsx watch kills it 5 s after its SIGTERM anyway.
  spawn(bin('tsx'), ['watch', '--clear-screen=false', ...SERVER_NODE_FLAGS, 'src/server/main.ts'], { stdio: 'inherit', env: { DRAIN_SECONDS: '0', ...process.env } }),
  spawn(bin('vite'), [], { stdio: 'inherit' }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
