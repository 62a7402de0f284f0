import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import metadata from 'libphonenumber-js/metadata.min.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { phoneMetadataAsJson } from './phone-metadata-as-json';

const LIBRARY = path.resolve('node_modules/libphonenumber-js');
const plugin = phoneMetadataAsJson();
const resolveId = plugin.resolveId as (source: string, importer: string | undefined) => string | null;
const load = plugin.load as (id: string) => string | null;

describe("the phone library's metadata in the build", () => {
  it("is the library's JSON file, read with JSON.parse", () => {
    const importer = path.join(LIBRARY, 'min/exports/withMetadataArgument.js');
    expect(fs.readFileSync(importer, 'utf8')).toContain("from '../../metadata.min.json.js'");
    const id = resolveId('../../metadata.min.json.js', importer);
    expect(id).not.toBeNull();
    expect(id).not.toMatch(/\.json$/);
    const code = load(id!)!;
    expect(code).toMatch(/^export default JSON\.parse\("/);
    const evaluated: unknown = vm.runInNewContext(code.replace(/^export default /, ''));
    expect(evaluated).toEqual(metadata);
  });

  it("leaves every other module's imports alone", () => {
    expect(resolveId('./metadata.min.json.js', path.resolve('src/web/lib/phone-library.ts'))).toBeNull();
    expect(resolveId('./format.js', path.join(LIBRARY, 'index.js'))).toBeNull();
    expect(resolveId('react', undefined)).toBeNull();
    expect(load('/work/src/web/main.tsx')).toBeNull();
  });
});
