import type { Browser } from '@playwright/test';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { percentile } from '../network/audio-analysis';

/**
 * Lighthouse's default 4x CPU slowdown stands for its mobile target device only on a host whose
 * benchmark index is about 1,500 (the fast desktop it was tuned on); on a slower host the same 4x
 * emulates a slower phone. Lighthouse's throttling guide gives the slowdown that stands for the
 * same device from any host's index, as straight lines between these points of its calculator:
 * below 150 no slowdown, 150 → 1x, 800 → 2x, 1,300 → 3x, each 233 more → 1x more (2,000 → 6x).
 */
export function calibratedCpuSlowdown(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) throw new RangeError(`a CPU benchmark index is a positive number (got ${benchmarkIndex})`);
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return 1;
}

/**
 * The host's benchmark index as Lighthouse measures it (its own page function, about a second
 * each), the median of `readings` in a blank page of `browser`: one reading moves by half with
 * the machine's other work.
 */
export async function measureBenchmarkIndex(browser: Browser, readings = 5): Promise<number> {
  const page = await browser.newPage();
  try {
    const indexes: number[] = [];
    for (let reading = 0; reading < readings; reading += 1) indexes.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    return percentile(indexes, 0.5)!;
  } finally {
    await page.close();
  }
}
