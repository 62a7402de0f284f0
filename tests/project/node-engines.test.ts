import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** The Node.js lines the README promises; each must satisfy every installed package's engines field. */
const SUPPORTED_NODE = ['20.19.0', '22.13.0', '24.0.0'];

interface LockedPackage {
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
  cpu?: string[];
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as T;
}

/** Packages npm installs on linux-x64: other platforms' optional binaries never reach a machine here. */
function installedHere(entry: LockedPackage) {
  const forOs = !entry.os || entry.os.includes('linux');
  const forCpu = !entry.cpu || entry.cpu.includes('x64');
  return forOs && forCpu;
}

describe('supported Node.js versions', () => {
  const lock = readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');

  it.each(SUPPORTED_NODE)('every installed package accepts Node %s (npm ci prints no EBADENGINE)', (version) => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && installedHere(entry))
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(version, range) ? [`${name.replace(/^.*node_modules\//, '')} (node ${range})`] : [];
      });
    expect(refusing).toEqual([]);
  });

  it('package.json admits exactly the supported lines from their first version', () => {
    const range = readJson<{ engines: { node: string } }>('package.json').engines.node;
    for (const version of SUPPORTED_NODE) expect(semver.satisfies(version, range), `${version} in ${range}`).toBe(true);
    expect(semver.satisfies('20.18.0', range)).toBe(false);
  });
});
