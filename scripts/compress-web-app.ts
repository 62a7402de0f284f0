/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of the built web app
 * (dist/web by default), which the server sends to browsers that accept them (@fastify/static's
 * preCompressed, src/server/static-site/serve-web-app.ts). Run by `npm run build` after `vite build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT_FILES = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this a compressed copy saves less than a packet. */
const SMALLEST_BYTES = 1024;

export interface CompressedFile {
  file: string;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const entryPath = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(entryPath) : [entryPath];
  });
}

/** Compresses every text file of `webRoot` of SMALLEST_BYTES or more, replacing older copies; answers what it wrote. */
export function compressWebApp(webRoot: string): CompressedFile[] {
  const written: CompressedFile[] = [];
  for (const file of filesUnder(webRoot)) {
    if (!TEXT_FILES.test(file)) continue;
    const content = fs.readFileSync(file);
    if (content.length < SMALLEST_BYTES) continue;
    const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
    const gzip = gzipSync(content, { level: 9 });
    fs.writeFileSync(`${file}.br`, brotli);
    fs.writeFileSync(`${file}.gz`, gzip);
    written.push({ file: path.relative(webRoot, file), bytes: content.length, brotliBytes: brotli.length, gzipBytes: gzip.length });
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const webRoot = path.resolve(process.argv[2] ?? 'dist/web');
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) throw new Error(`${webRoot} holds no built web app (no index.html): run vite build first`);
  const written = compressWebApp(webRoot);
  const total = (key: 'bytes' | 'brotliBytes' | 'gzipBytes') => Math.round(written.reduce((sum, file) => sum + file[key], 0) / 1000);
  console.log(`compressed ${written.length} files of ${path.relative(process.cwd(), webRoot) || '.'}: ${total('bytes')} kB → ${total('brotliBytes')} kB brotli, ${total('gzipBytes')} kB gzip`);
}
