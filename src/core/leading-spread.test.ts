import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { packageRoot } from '../version.js';

/**
 * The modules that make objects per call, per result or per judged item. On Node 20's V8 an object
 * literal there that opens with a spread and goes on (`{ ...base, key }`) costs each object ~1 µs
 * and a map of its own in the old space (`with-fields.ts`; docs/benchmarks.md, "objects made by a
 * leading spread"; with them and the summary's repeat readings gone, a 98,965-call run peaked
 * at 148 MB instead of 168). Folders are read whole, test files aside.
 */
const PER_CALL = [
  'src/runner/role-calls.ts',
  'src/runner/sample-work.ts',
  'src/runner/execute.ts',
  'src/runner/solving.ts',
  'src/runner/judging.ts',
  'src/models/middleware',
  'src/models/providers/openai',
  'src/models/providers/anthropic',
  'src/models/providers/gemini',
  'src/models/providers/http',
  'src/models/providers/replay',
  'src/models/targets',
  'src/store/row-codec.ts',
  'src/store/sqlite/rows.ts',
  'src/store/postgres/rows.ts',
  'src/store/imported-slice.ts',
  'src/judges',
  'src/scorers',
  'src/benchmarks/metatool/common.ts',
  'src/benchmarks/metatool/selection-sample.ts',
];

function sourceFiles(relative: string): string[] {
  const full = path.join(packageRoot, relative);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('test-support'))
    .map((name) => path.join(full, name));
}

/** The lines (1-based) of every object literal in `text` that opens with a spread and has more after it. */
function leadingSpreadLines(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    const first = ts.isObjectLiteralExpression(node) && node.properties.length >= 2 ? node.properties[0] : undefined;
    if (first !== undefined && ts.isSpreadAssignment(first)) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

test('no object made per call opens with a spread and goes on (use withFields or write it key by key)', () => {
  const files = PER_CALL.flatMap(sourceFiles);
  assert.ok(files.length > 40, `the guarded modules were found (${files.length})`);
  assert.deepEqual(files.flatMap((file) => leadingSpreadLines(file, readFileSync(file, 'utf8')).map((line) => `${path.relative(packageRoot, file)}:${line}`)), []);
});

test('the check finds the pattern it guards against, and only it', () => {
  assert.deepEqual(leadingSpreadLines('probe.ts', 'const a = { ...b, c: 1 };\nconst d = { ...(e ? { f } : {}), ...g };'), [1, 2]);
  assert.deepEqual(leadingSpreadLines('probe.ts', 'const a = { ...b };\nconst c = { d, ...e };\nconst f = { g: 1, ...h, i };'), []);
});
