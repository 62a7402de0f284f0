import { Session } from 'node:inspector/promises';

/**
 * Bytes that `work` allocates in code whose file name contains `file`, garbage included: V8's
 * sampling heap profiler, told to count what the collector has already taken back. Sampled every
 * kilobyte, so the figure is close for megabytes and rough for a few kilobytes.
 */
export async function bytesAllocatedIn(file: string, work: () => void): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const inFile = (node: typeof profile.head): number =>
      (node.callFrame.url.includes(file) ? node.selfSize : 0) + (node.children ?? []).reduce((sum, child) => sum + inFile(child), 0);
    return inFile(profile.head);
  } finally {
    session.disconnect();
  }
}
