import fs from 'node:fs';
import path from 'node:path';

/**
 * Bytes of recordings on disk in an instance's DATA_DIR: the files being written as calls go
 * (`spool/recordings`) and those already finalised (`objects/recordings`). Read at both ends of the
 * measured window, the difference is what the recorders wrote in it.
 */
export function recordedBytes(dataDir: string): number {
  return ['spool', 'objects'].reduce((sum, store) => sum + bytesUnder(path.join(dataDir, store, 'recordings')), 0);
}

function bytesUnder(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}
