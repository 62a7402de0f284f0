#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium for the E2E suite (Playwright never downloads
// a browser here). Installs it with apt-get when missing: `apt-get update` only when apt knows no
// chromium package yet, sudo only when not root. Prints one line saying what it did.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
const PREFIX = 'ensure-chromium:';

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

function chromiumVersion() {
  const result = run(CHROMIUM, ['--version']);
  if (result.status !== 0) return undefined;
  // The Debian wrapper prints a harmless "[: … unexpected operator" on stderr; keep only the version.
  return (result.stdout ?? '').trim().split('\n').pop() || 'unknown version';
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (isExecutable(CHROMIUM)) {
  const version = chromiumVersion();
  if (!version) fail(`${CHROMIUM} exists but \`${CHROMIUM} --version\` fails; reinstall it with apt-get install --reinstall -y chromium`);
  console.log(`${PREFIX} ${CHROMIUM} is already installed (${version})`);
  process.exit(0);
}

if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) {
  fail(`${CHROMIUM} is missing and this is not a Debian-like system with apt-get; install Chromium at ${CHROMIUM}`);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot && run('sudo', ['-n', 'true']).status !== 0) {
  fail(`${CHROMIUM} is missing; installing it needs root: run \`sudo apt-get install -y chromium\` (sudo without a password is not available here)`);
}
const asRoot = (args) => (isRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]]);
const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
// Wait for another apt/dpkg run to finish instead of failing on its lock.
const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];

const policy = run('apt-cache', ['policy', 'chromium']);
const candidate = /Candidate:\s*(\S+)/.exec(policy.stdout ?? '')?.[1];
const needsUpdate = policy.status !== 0 || !candidate || candidate === '(none)';
if (needsUpdate) {
  const [command, args] = asRoot([...lockWait, 'update']);
  const update = run(command, args, { env: aptEnv });
  if (update.status !== 0) fail(`\`apt-get update\` failed (exit ${update.status ?? update.signal}); see the output above`, update.output);
}

const [command, args] = asRoot([...lockWait, 'install', '-y', 'chromium']);
const install = run(command, args, { env: aptEnv });
if (install.status !== 0) fail(`\`apt-get install -y chromium\` failed (exit ${install.status ?? install.signal}); see the output above`, install.output);

const version = isExecutable(CHROMIUM) ? chromiumVersion() : undefined;
if (!version) fail(`apt-get installed chromium but ${CHROMIUM} does not run (\`${CHROMIUM} --version\` failed)`, install.output);
console.log(`${PREFIX} installed ${version} at ${CHROMIUM} with apt-get${needsUpdate ? ' (after apt-get update)' : ''}${isRoot ? '' : ' via sudo'}`);
