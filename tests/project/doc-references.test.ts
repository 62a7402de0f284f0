import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type DocTree, findBadReferences, headingAnchors, numberedSections, scanRepository } from './doc-references';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A repository of a few docs, to prove the scan on small inputs. */
function smallTree(): DocTree {
  const files: Record<string, string> = {
    'README.md': '# Voxline\n',
    'docs/product.md': '# Product\n## 1. What it does\n## 5. Validation rules\n### 5.2 Contacts\n',
    'docs/calls.md': '# Calls\n## A call and its legs\n## Timing\n',
    'docs/decisions/006-payments-verified-once.md': '# 006\n',
  };
  const folders = new Set(['docs', 'docs/decisions', 'docs/grafana', 'docs/grafana/dashboard.json', 'src', 'src/server']);
  return {
    exists: (path) => path in files || folders.has(path),
    list: (folder) => Object.keys(files).filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1)),
    read: (path) => files[path],
  };
}

function problemsIn(text: string, file = 'src/server/example.ts') {
  return findBadReferences(smallTree(), file, text).map(({ line, reference }) => `${line}: ${reference}`);
}

describe('the doc reference scan', () => {
  it('accepts references to docs and sections that exist', () => {
    const text = [
      '// Validation (docs/product.md §5, product.md §5.2, product.md §1–5).',
      '/* The timers of docs/calls.md#timing; see calls.md and docs/decisions/006 (decision 006). */',
      'See [the decision](decisions/006-payments-verified-once.md) and README.md.',
      'A spectrum, a specification, specs and a CALLS constant are ordinary words.',
    ].join('\n');
    expect(problemsIn(text)).toEqual([]);
  });

  it('names the line of every reference to a document outside the repository', () => {
    const text = ['ok', '// SPEC §5: required', '// see CALLS.md', '(../shared/PROVIDERS.md)', 'DESIGN.md §3 and STACK-NOTES'].join('\n');
    expect(problemsIn(text)).toEqual(['2: SPEC', '3: CALLS.md', '4: ../shared', '4: PROVIDERS.md', '5: DESIGN.md', '5: STACK-NOTES']);
  });

  it('names a doc, a decision or a heading that does not exist', () => {
    const text = ['// docs/glossary.md', '// see glossary.md', '// docs/decisions/042 (decision 042)', '// docs/calls.md#ringing', '// docs/nothing/'].join('\n');
    expect(problemsIn(text)).toEqual(['1: docs/glossary.md', '2: glossary.md', '3: docs/decisions/042', '3: decision 042', '4: docs/calls.md#ringing', '5: docs/nothing/']);
  });

  it('checks files in docs/ that are not documents by their whole name', () => {
    expect(problemsIn('// docs/grafana/dashboard.json, docs/grafana/dashboard.png and docs/grafana.')).toEqual(['1: docs/grafana/dashboard.png']);
  });

  it('names a product section that does not exist, in a range too', () => {
    expect(problemsIn('// docs/product.md §7\n// product.md §5.3\n// product.md §1–6')).toEqual([
      '1: product.md §7',
      '2: product.md §5.3',
      '3: product.md §1–6',
    ]);
  });

  it('resolves a relative link from the file that holds it', () => {
    expect(problemsIn('[x](../README.md) [y](decisions/006-payments-verified-once.md)', 'docs/api.md')).toEqual([]);
    expect(problemsIn('[x](../../README.md)', 'docs/api.md')).toEqual(['1: ../../README.md']);
  });

  it('reads numbered sections and heading anchors the way they are cited', () => {
    expect([...numberedSections('## 2. Screens\n### 2.1 Dialer\n## Not numbered\n')]).toEqual(['2', '2.1']);
    expect([...headingAnchors('## A call and its legs\n## Vonage webhooks (signed)\n')]).toEqual(['a-call-and-its-legs', 'vonage-webhooks-signed']);
  });
});

describe('the repository', () => {
  it('cites only docs and sections that exist in it', () => {
    const bad = scanRepository(ROOT).map(({ file, line, reference, problem }) => `${file}:${line}: ${reference} (${problem})`);
    expect(bad).toEqual([]);
  });
});
