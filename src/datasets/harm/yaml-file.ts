import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { InputError } from '../../core/index.js';

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

/**
 * Parses YAML text with line positions kept (`yaml`'s LineCounter), so that every later check —
 * a schema problem, a bad row — can name the line it is about.
 * @throws InputError `file:line: not valid YAML (…)` on the first syntax error.
 */
export function parseYamlFile(file: string, text: string): YamlFile {
  const lineCounter = new LineCounter();
  // uniqueKeys: a key given twice is an error rather than a silent last-wins.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line ?? lineCounter.linePos(first.pos[0]).line;
    throw new InputError(`${file}:${line}: not valid YAML (${first.message.split('\n')[0]})`, { file, line });
  }
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line;
  return { file, value: doc.toJS({ maxAliasCount: 100 }) as unknown, lineOf: (path) => lineOfPath(doc, path, lineAt) };
}

function lineOfPath(doc: Document, path: readonly PropertyKey[], lineAt: (offset: number) => number): number {
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
