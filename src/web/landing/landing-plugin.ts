import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { LANDINGS } from './landing-routes';
import { landingScript, type LandingAssets } from './landing-script';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

const isChunk = (file: OutputBundle[string]): file is OutputChunk => file.type === 'chunk';

/**
 * The chunk files (URLs under `base`) that `modules` load beyond the entry: the chunk of each module
 * and the chunks it imports statically, except those index.html preloads already for the entry.
 */
function chunkUrls(bundle: OutputBundle, root: string, base: string, modules: readonly string[]): string[] {
  const chunks = Object.values(bundle).filter(isChunk);
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (chunk: OutputChunk, into: Set<string>) => {
    if (into.has(chunk.fileName)) return into;
    into.add(chunk.fileName);
    for (const file of chunk.imports) withImports(byFile.get(file)!, into);
    return into;
  };
  const entry = new Set<string>();
  for (const chunk of chunks) if (chunk.isEntry) withImports(chunk, entry);
  const files = new Set<string>();
  for (const module of modules) {
    const id = path.join(root, module);
    const chunk = chunks.find((candidate) => candidate.facadeModuleId === id);
    if (!chunk) throw new Error(`landing-routes.ts names ${module}, which is no chunk's module: is it still loaded with import()?`);
    withImports(chunk, files);
  }
  return [...files].filter((file) => !entry.has(file)).map((file) => `${base}${file}`);
}

/**
 * Writes the landing script (landing-script.ts) at the end of index.html's body: in a build with
 * the chunks of each landing page; on the development server, which has no chunks, the data alone.
 */
export function landingPreloads(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'voxline-landing-preloads',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const landings: LandingAssets = Object.fromEntries(
          Object.entries(LANDINGS).map(([pathname, landing]) => [pathname, { modules: bundle ? chunkUrls(bundle, root, base, landing.modules) : [], data: landing.data }]),
        );
        return [{ tag: 'script', children: landingScript(landings), injectTo: 'body' }];
      },
    },
  };
}
