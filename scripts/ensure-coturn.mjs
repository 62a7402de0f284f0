#!/usr/bin/env node
// Makes sure Debian's coturn is at /usr/bin/turnserver for the TURN integration test
// (tests/integration/turn-relay.test.ts), which starts its own turnserver on free ports. Installs it
// with apt-get when missing: `apt-get update` only when apt knows no coturn package yet, sudo only
// when not root. The package enables a system service on port 3478; under systemd that service is
// stopped and disabled again, since nothing here needs it. Prints one line saying what it did.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const TURNSERVER = '/usr/bin/turnserver';
const PREFIX = 'ensure-coturn:';

function fail(message, output) {
  if (output) process.stderr.write(`${output.trimEnd().split('\n').slice(-40).join('\n')}\n`);
  process.stderr.write(`${PREFIX} ${message}\n`);
  process.exit(1);
}

function run(command, args, { env } = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ...result, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function turnserverVersion() {
  const result = run(TURNSERVER, ['--version']);
  if (result.status !== 0) return undefined;
  return `coturn ${(result.stdout ?? '').trim().split('\n').pop() || 'unknown version'}`;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (isExecutable(TURNSERVER)) {
  const version = turnserverVersion();
  if (!version) fail(`${TURNSERVER} exists but \`${TURNSERVER} --version\` fails; reinstall it with apt-get install --reinstall -y coturn`);
  console.log(`${PREFIX} ${TURNSERVER} is already installed (${version})`);
  process.exit(0);
}

if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) {
  fail(`${TURNSERVER} is missing and this is not a Debian-like system with apt-get; install coturn, or the TURN test is skipped`);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot && run('sudo', ['-n', 'true']).status !== 0) {
  fail(`${TURNSERVER} is missing; installing it needs root: run \`sudo apt-get install -y coturn\` (sudo without a password is not available here)`);
}
const asRoot = (command, args) => (isRoot ? [command, args] : ['sudo', ['-n', command, ...args]]);
const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
// Wait for another apt/dpkg run to finish instead of failing on its lock.
const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];

const policy = run('apt-cache', ['policy', 'coturn']);
const candidate = /Candidate:\s*(\S+)/.exec(policy.stdout ?? '')?.[1];
const needsUpdate = policy.status !== 0 || !candidate || candidate === '(none)';
if (needsUpdate) {
  const [command, args] = asRoot('apt-get', [...lockWait, 'update']);
  const update = run(command, args, { env: aptEnv });
  if (update.status !== 0) fail(`\`apt-get update\` failed (exit ${update.status ?? update.signal}); see the output above`, update.output);
}

const [command, args] = asRoot('apt-get', [...lockWait, 'install', '-y', 'coturn']);
const install = run(command, args, { env: aptEnv });
if (install.status !== 0) fail(`\`apt-get install -y coturn\` failed (exit ${install.status ?? install.signal}); see the output above`, install.output);

// Under systemd the package starts coturn.service on 3478 at once; elsewhere its init script does
// not start it until /etc/default/coturn says so, and a container's policy-rc.d may forbid it anyway.
let service = '';
if (fs.existsSync('/run/systemd/system')) {
  const [stopCommand, stopArgs] = asRoot('systemctl', ['disable', '--now', 'coturn.service']);
  const stopped = run(stopCommand, stopArgs);
  if (stopped.status !== 0) fail('`systemctl disable --now coturn.service` failed: the package left a TURN server running on port 3478', stopped.output);
  service = ', its system service stopped and disabled';
}

const version = isExecutable(TURNSERVER) ? turnserverVersion() : undefined;
if (!version) fail(`apt-get installed coturn but ${TURNSERVER} does not run (\`${TURNSERVER} --version\` failed)`, install.output);
console.log(`${PREFIX} installed ${version} at ${TURNSERVER} with apt-get${needsUpdate ? ' (after apt-get update)' : ''}${isRoot ? '' : ' via sudo'}${service}`);
