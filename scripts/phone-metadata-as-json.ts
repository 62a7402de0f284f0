import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = '\0voxline-phone-metadata:';

/**
 * libphonenumber-js ships its metadata (83 kB) as a module whose default export is an object
 * literal, which V8 parses as JavaScript when the phone library's chunk runs. This serves the
 * library's imports of it as `JSON.parse("…")` of the JSON file beside it: V8 reads a JSON string
 * in a fraction of the time it takes for the same object as code (V8's "cost of JavaScript 2019";
 * measured in docs/benchmarks.md, "Main-thread work by source, 2026-12-02").
 */
export function phoneMetadataAsJson(): Plugin {
  return {
    name: 'voxline-phone-metadata-as-json',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.includes(`${path.sep}libphonenumber-js${path.sep}`) || !/metadata\.\w+\.json\.js$/.test(source)) return null;
      // The id must not end in .json, or Vite's own JSON plugin takes the file over.
      return PREFIX + path.resolve(path.dirname(importer), source.replace(/\.json\.js$/, ''));
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const json = fs.readFileSync(`${id.slice(PREFIX.length)}.json`, 'utf8');
      // A file that is not JSON fails the build here rather than the page at run time.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(json)))});`;
    },
  };
}
