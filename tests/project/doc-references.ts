import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Where the repository's text files live, and which of them may cite docs. */
const SCANNED = ['src', 'tests', 'bench', 'scripts', 'docs', 'README.md'];
const TEXT_FILE = /\.(ts|tsx|js|mjs|md|json|css|html)$/;
/** This check's own files, whose examples of bad references are there on purpose. */
const THIS_CHECK = /^tests\/project\/doc-references/;

/** What the scan needs to know about the repository, so that tests can hand it a small one. */
export interface DocTree {
  /** Whether a file or folder exists, by its path from the repository's root. */
  exists(path: string): boolean;
  /** The names of the files in a folder of the repository, or none. */
  list(folder: string): string[];
  /** The text of a repository file, or undefined when there is none. */
  read(path: string): string | undefined;
}

export interface BadReference {
  file: string;
  line: number;
  reference: string;
  problem: string;
}

/** Documents that were never part of the repository: the seed's notes, read from outside it. */
const OUTSIDE_DOC = /\.\.\/shared\b|\bSPEC(?:\.md)?\b|\b(?:CALLS|PROVIDERS|DESIGN|STYLE)\.md\b|\bSTACK-NOTES\b/;
const OUTSIDE_DOCS = new RegExp(OUTSIDE_DOC.source, 'g');
/** A path ending in .md, not in the middle of a longer path or a URL. */
const MARKDOWN_PATH = /(?<![\w./@:-])((?:\.{1,2}\/)*[\w-][\w.-]*(?:\/[\w.-]+)*\.md)(#[\w-]+)?\b/g;
/** A path into docs/ that names no .md file: a folder, another kind of file, or a decision by its number. */
const DOCS_PATH = /(?<![\w./@:-])docs\/([\w-]+(?:\/[\w-]+)*(?:\.(?!md\b)\w+)?\/?)(?![\w./-]*\.md)/g;
const DECISION_NUMBER = /\bdecisions? (\d{3})\b/g;
/** `product.md §5`, `docs/product.md §5.2`, `product.md §2–4`. */
const PRODUCT_SECTION = /\bproduct\.md ?§ ?(\d+(?:\.\d+)*)(?:\s*[–-]\s*(\d+(?:\.\d+)*))?/g;

/** The numbers of a document's numbered headings (`## 5. Title` gives 5, `### 5.2 Title` gives 5.2). */
export function numberedSections(markdown: string): Set<string> {
  const numbers = [...markdown.matchAll(/^#{2,6} (\d+(?:\.\d+)*)\.? /gm)].map(([, number = '']) => number);
  return new Set(numbers);
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, title = '']) =>
    title
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
  return new Set(anchors);
}

function decisionExists(tree: DocTree, number: string) {
  return tree.list('docs/decisions').some((name) => name.startsWith(`${number}-`));
}

/** The repository path a cited .md path means: beside the citing file, from the root, or in docs/. */
function resolveMarkdown(tree: DocTree, file: string, cited: string): string | undefined {
  const beside = normalize(join(dirname(file), cited));
  if (cited.startsWith('.')) return tree.exists(beside) ? beside : undefined;
  return [beside, normalize(cited), normalize(join('docs', cited))].find((path) => tree.exists(path));
}

function checkLine(tree: DocTree, file: string, text: string): Omit<BadReference, 'file' | 'line'>[] {
  const problems: Omit<BadReference, 'file' | 'line'>[] = [];
  for (const match of text.matchAll(OUTSIDE_DOCS)) {
    problems.push({ reference: match[0], problem: 'names a document outside the repository' });
  }
  for (const match of text.matchAll(MARKDOWN_PATH)) {
    const [reference, cited = '', anchor] = match;
    if (OUTSIDE_DOC.test(cited)) continue;
    const path = resolveMarkdown(tree, file, cited);
    if (!path) {
      problems.push({ reference, problem: 'no such document in the repository' });
    } else if (anchor && !headingAnchors(tree.read(path) ?? '').has(anchor.slice(1))) {
      problems.push({ reference, problem: `${path} has no heading ${anchor}` });
    }
  }
  for (const match of text.matchAll(DOCS_PATH)) {
    const [reference, rest = ''] = match;
    const decision = /^decisions\/(\d{3})$/.exec(rest)?.[1];
    const found = decision ? decisionExists(tree, decision) : tree.exists(`docs/${rest.replace(/\/$/, '')}`);
    if (!found) problems.push({ reference, problem: 'no such file or folder in docs/' });
  }
  for (const [reference, number = ''] of text.matchAll(DECISION_NUMBER)) {
    if (!decisionExists(tree, number)) problems.push({ reference, problem: 'no such decision in docs/decisions' });
  }
  const citedSections = [...text.matchAll(PRODUCT_SECTION)];
  const sections = citedSections.length > 0 ? numberedSections(tree.read('docs/product.md') ?? '') : new Set<string>();
  for (const match of citedSections) {
    const missing = [match[1], match[2]].filter((section): section is string => section !== undefined && !sections.has(section));
    if (missing.length > 0) problems.push({ reference: match[0], problem: `docs/product.md has no section ${missing.join(', ')}` });
  }
  return problems;
}

/** Every reference in one file that points at no document, or no section, of the repository. */
export function findBadReferences(tree: DocTree, file: string, text: string): BadReference[] {
  return text.split('\n').flatMap((line, index) =>
    checkLine(tree, file, line).map((problem) => ({ file, line: index + 1, ...problem })),
  );
}

/** The repository on disk, seen as a DocTree; each answer read once, since thousands of lines ask. */
function diskTree(root: string): DocTree {
  const remembered = <T>(answer: (path: string) => T) => {
    const answers = new Map<string, T>();
    return (path: string) => {
      if (!answers.has(path)) answers.set(path, answer(path));
      return answers.get(path) as T;
    };
  };
  return {
    exists: remembered((path) => existsSync(join(root, path))),
    list: remembered((folder) => (existsSync(join(root, folder)) ? readdirSync(join(root, folder)) : [])),
    read: remembered((path) => (existsSync(join(root, path)) && statSync(join(root, path)).isFile() ? readFileSync(join(root, path), 'utf8') : undefined)),
  };
}

function textFiles(root: string, path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return TEXT_FILE.test(path) ? [path] : [];
  return readdirSync(full).flatMap((name) => (name === 'node_modules' ? [] : textFiles(root, join(path, name))));
}

/** Every bad reference in the scanned parts of the repository at `root`. */
export function scanRepository(root: string): BadReference[] {
  const tree = diskTree(root);
  const files = SCANNED.flatMap((path) => textFiles(root, path)).filter((file) => !THIS_CHECK.test(file));
  return files.flatMap((file) =>
    findBadReferences(tree, relative(root, join(root, file)), readFileSync(join(root, file), 'utf8')),
  );
}
