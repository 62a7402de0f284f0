import fc from 'fast-check';

/**
 * fast-check arbitraries for a zod schema's input: values the schema describes (its enums,
 * literals, lengths, bounds, formats and patterns, and samples of real values by field name),
 * each node replaced now and then by something hostile.
 */

/** What a request should never be able to break: wrong types, control characters, extremes, depth, prototype keys. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, '', [], {}, [{}], [[]]),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 31, -2147483649, 0.1 + 0.2, 5e-324, -0),
  fc.constantFrom('\u0000', 'a\u0000b', '\u0007\u0008', '\u001b[2J', 'x\u2028y', '\ud800', '\udfff\ud800', '\u202eevil', '\r\nSet-Cookie: x=1', '%00', '\\u0000'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: 1, max: 3 }).map((kb) => 'é'.repeat(kb * 50_000)),
  fc.constantFrom(nestedArrays(3000), nestedObjects(1000)),
  fc.constantFrom(
    JSON.parse('{"__proto__":{"admin":true,"polluted":"yes"}}') as unknown,
    JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}') as unknown,
    JSON.parse('[{"__proto__":[]}]') as unknown,
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

function nestedArrays(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

function nestedObjects(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

/** Real values by field name, so that requests also get past the schema into the handlers. */
export type Samples = Record<string, readonly unknown[]>;

interface Check {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  format?: string;
  pattern?: RegExp;
}

type Def = { type: string; checks?: { _zod: { def: Check } }[] } & Record<string, unknown>;

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const min = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum ?? 0));
  const max = Math.min(200, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum ?? 200));
  const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format')?.format;
  const pattern = (def.pattern as RegExp | undefined) ?? checks.find((c) => c.check === 'string_format' && c.pattern)?.pattern;
  const options: fc.Arbitrary<string>[] = [fc.string({ minLength: min, maxLength: Math.max(min, max) })];
  if (format === 'email') options.push(fc.emailAddress());
  if (format === 'uuid' || format === 'guid') options.push(fc.uuid());
  if (format === 'url') options.push(fc.webUrl());
  if (format === 'datetime') options.push(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()));
  if (pattern) options.push(fc.stringMatching(pattern));
  return fc.oneof(...options);
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const min = Math.max(-1e9, ...checks.filter((c) => c.check === 'greater_than').map((c) => c.value ?? -1e9));
  const max = Math.min(1e9, ...checks.filter((c) => c.check === 'less_than').map((c) => c.value ?? 1e9));
  const integer = checks.some((c) => c.check === 'number_format' && (c.format === 'safeint' || c.format === 'int32'));
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(max) }));
}

/** Values shaped by `schema`; `key` is the field's name, for samples. */
function described(schema: unknown, samples: Samples, key: string | undefined, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const sampled = key && samples[key]?.length ? [fc.constantFrom(...samples[key])] : [];
  const plain = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return stringArbitrary(def);
      case 'number':
        return numberArbitrary(def);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
      case 'literal':
        return fc.constantFrom(...(def.values as unknown[]));
      case 'optional':
        return fc.option(arbitraryFor(def.innerType, samples, key, depth), { nil: undefined });
      case 'nullable':
        return fc.option(arbitraryFor(def.innerType, samples, key, depth), { nil: null });
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        return fc.option(arbitraryFor(def.innerType, samples, key, depth), { nil: undefined });
      case 'pipe':
        return described(def.in, samples, key, depth);
      case 'union':
        return fc.oneof(...(def.options as unknown[]).map((option) => arbitraryFor(option, samples, key, depth)));
      case 'array':
        return fc.array(arbitraryFor(def.element, samples, undefined, depth + 1), { maxLength: 3 });
      case 'object':
        return objectArbitrary(def, samples, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return sampled.length ? fc.oneof(plain, ...sampled) : plain;
}

function objectArbitrary(def: Def, samples: Samples, depth: number): fc.Arbitrary<unknown> {
  const shape = def.shape as Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, arbitraryFor(field, samples, name, depth + 1)]));
  const record = fc.record(fields);
  // Now and then a field the schema does not name: prototype keys, or a privilege.
  const extra = fc.constantFrom<[string, unknown]>(['admin', true], ['userId', 'someone-else'], ['__proto__', { admin: true }], ['constructor', { prototype: { x: 1 } }]);
  return fc.tuple(record, fc.option(extra, { freq: 8 })).map(([value, added]) => {
    const object = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined));
    if (added) Object.defineProperty(object, added[0], { value: added[1], enumerable: true, configurable: true, writable: true });
    return object;
  });
}

/** `schema`'s input, hostile at any node about one time in five. */
export function arbitraryFor(schema: unknown, samples: Samples, key?: string, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return hostile;
  return fc.oneof({ weight: 4, arbitrary: described(schema, samples, key, depth) }, { weight: 1, arbitrary: hostile });
}

