import { createRequire } from 'node:module';
import type { Document } from 'yaml';
import { InputError } from './errors.js';

/**
 * The `yaml` package, loaded when a file is first parsed: `core/index.ts` re-exports this module,
 * so a static import put yaml's 72 modules (~8 MB of memory) in every command, a MetaTool run
 * that reads no YAML included (docs/benchmarks.md, issue 29). Synchronous (`require`), so
 * `parseYamlFile` keeps its form.
 */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** A YAML file parsed once: its plain value and a way back from a path in it to a line. */
export interface YamlFile {
  readonly file: string;
  readonly value: unknown;
  /**
   * The 1-based line of the key (or list item) at `path`, or — when the path goes further than the
   * file does (a missing key) — of the deepest part that exists, so a message can always point
   * somewhere near the problem.
   */
  lineOf(path: readonly PropertyKey[]): number;
}

/** Alias expansions allowed while turning a document into values: a "billion laughs" file needs thousands. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text with line positions kept (`yaml`'s LineCounter), so that every later check —
 * a schema problem, a bad row — can name the line it is about.
 * @throws InputError `file:line: not valid YAML (…)` on the first syntax error; `file:line: …
 * aliases …` for aliases that expand past {@link MAX_ALIAS_COUNT} (an alias bomb) or name no
 * anchor before them — the `yaml` package throws those while building values, without a line.
 */
export function parseYamlFile(file: string, text: string): YamlFile {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  // uniqueKeys: a key given twice is an error rather than a silent last-wins.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line ?? lineCounter.linePos(first.pos[0]).line;
    throw new InputError(`${file}:${line}: not valid YAML (${first.message.split('\n')[0]})`, { file, line });
  }
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const { line, why } = aliasProblem(doc, lineAt, error);
    throw new InputError(`${file}:${line}: refused: ${why}`, { file, line });
  }
  return { file, value, lineOf: (path) => lineOfPath(doc, path, lineAt) };
}

/**
 * The alias a `ReferenceError` of `toJS` is about: one naming no anchor before it, else (the
 * expansion bound) the first alias of an anchor that itself holds aliases — where the nesting
 * that multiplies a bomb starts — else the first alias.
 */
function aliasProblem(doc: Document, lineAt: (offset: number) => number, error: ReferenceError): { line: number; why: string } {
  const anchors = new Map<string, unknown>();
  let unresolved: { line: number; name: string } | undefined;
  let nested: number | undefined;
  let first: number | undefined;
  const { isAlias, visit } = yaml();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        const line = rangeLine(node, lineAt) ?? 1;
        first ??= line;
        const target = anchors.get(node.source);
        if (target === undefined) {
          unresolved = { line, name: node.source };
          return visit.BREAK;
        }
        if (nested === undefined && holdsAlias(target)) nested = line;
        return undefined;
      }
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      return undefined;
    },
  });
  if (unresolved) return { line: unresolved.line, why: `alias *${unresolved.name} names no anchor (&${unresolved.name}) before it` };
  if (/excessive alias/i.test(error.message)) {
    return { line: nested ?? first ?? 1, why: `its aliases expand past ${MAX_ALIAS_COUNT} references (an alias bomb?); write the values out instead` };
  }
  return { line: first ?? 1, why: `its aliases cannot be resolved (${error.message})` };
}

function holdsAlias(node: unknown): boolean {
  const { visit } = yaml();
  let found = false;
  visit(node as Parameters<typeof visit>[0], {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

function lineOfPath(doc: Document, path: readonly PropertyKey[], lineAt: (offset: number) => number): number {
  const { isMap, isScalar, isSeq } = yaml();
  let node: unknown = doc.contents;
  let line = rangeLine(node, lineAt) ?? 1;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
      if (!pair) break;
      line = rangeLine(pair.key, lineAt) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step];
      if (item === undefined) break;
      line = rangeLine(item, lineAt) ?? line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}

function rangeLine(node: unknown, lineAt: (offset: number) => number): number | undefined {
  const range = (node as { range?: readonly number[] } | null | undefined)?.range;
  return range?.[0] === undefined ? undefined : lineAt(range[0]);
}
