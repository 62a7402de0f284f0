import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_PATH } from '../../tests/e2e/support/chromium';
import type { LinkProfile } from './impairment';
import { createShapedLink } from './link-shaper';

type RateCap = NonNullable<LinkProfile['rateCap']>;

/** Chromium behind a rate cap the kernel enforces: its executable for Playwright, the cap to set, and how to remove the link. */
export interface ShapedChromium {
  executablePath: string;
  setRateCap(rateCap: RateCap): Promise<void>;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** Wide enough that the app's pages load at once; the measured cap is set after. */
const OPEN_CAP: RateCap = { bitsPerSecond: 100_000_000, burstBytes: 200_000, queueBytes: 1_000_000 };

/**
 * A network namespace behind `tbf` on both ends of its veth pair (link-shaper.ts) and a script,
 * written into `dir`, that starts Chromium inside it: given to Playwright as the executable, the
 * browsers it launches send and receive everything through the cap. The link starts wide open,
 * since at 200 kbit/s the app's first page alone would take a minute to load. Needs root.
 */
export async function shapedChromium(dir: string): Promise<ShapedChromium> {
  if (process.getuid?.() !== 0) throw new Error('a kernel-enforced rate cap needs root (network namespaces and tc)');
  const link = await createShapedLink({ name: `vxbench${process.pid % 10_000}`, rateCap: OPEN_CAP });
  const executablePath = path.join(dir, 'chromium-shaped.sh');
  // `ip netns exec` execs Chromium in place, so Playwright's pipes and signals reach the browser itself.
  fs.writeFileSync(executablePath, `#!/bin/sh\nexec ip netns exec ${link.name} ${CHROMIUM_PATH} "$@"\n`, { mode: 0o755 });
  return {
    executablePath,
    async setRateCap({ bitsPerSecond, burstBytes, queueBytes }) {
      // The veth ends as link-shaper.ts names them: the host's, and the namespace's.
      const tbf = (device: string) => ['qdisc', 'replace', 'dev', device, 'root', 'tbf', 'rate', `${bitsPerSecond}bit`, 'burst', `${burstBytes}`, 'limit', `${queueBytes}`];
      await run('tc', tbf(`${link.name}h`));
      await run('ip', ['netns', 'exec', link.name, 'tc', ...tbf(`${link.name}n`)]);
    },
    close: () => link.close(),
  };
}
