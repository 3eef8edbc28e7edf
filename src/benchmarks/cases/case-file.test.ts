import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { InputError, sha256 } from '../../core/index.js';
import { packageRoot } from '../../version.js';
import { loadCaseFile } from './case-file.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-case-file-'));
  mkdirSync(join(dir, 'schemas'));
  writeFileSync(join(dir, 'schemas', 'ok.json'), '{"type": "object"}');
  writeFileSync(join(dir, 'schemas', 'not-schema.json'), '{"type": "objectt"}');
  writeFileSync(join(dir, 'schemas', 'not-json.json'), '{type: object}');
  writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ type: 'function', function: { name: 'getOrder', description: 'd', parameters: { type: 'object' } } }]));
  writeFileSync(join(dir, 'bad-tools.json'), JSON.stringify([{ name: 'getOrder' }]));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` as `name` in the test folder and returns its path. */
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** The one-line error loading `text` as `name` gives, with `<file>` for the path. */
async function refusal(name: string, text: string): Promise<string> {
  const path = file(name, text);
  try {
    await loadCaseFile(path);
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return error.message.replace(path, '<file>');
  }
  assert.fail('expected a refusal');
}

test('the shipped example reads: ids, messages, tools, every expectation kind; checksums of the file, its tools and schema', async () => {
  const path = join(packageRoot, 'examples', 'cases', 'support.yaml');
  const loaded = await loadCaseFile(path);
  assert.deepEqual(loaded.cases.map((c) => [c.id, c.line, c.messages.length, c.tools?.map((t) => t.name) ?? null]), [
    ['return-window', 3, 1, null],
    ['order-status', 10, 2, ['getOrder']],
    ['answer-as-json', 20, 1, null],
    ['polite-refusal', 25, 1, null],
  ]);
  assert.deepEqual(loaded.cases.flatMap((c) => c.expectations.map((e) => e.expectation.kind)), ['contains', 'not-contains', 'regex', 'tool-call', 'json-schema', 'not-contains', 'rubric']);
  assert.deepEqual(Object.keys(loaded.checksums), ['file', 'tools:tools.json', 'schema:schemas/return-policy.json']);
  assert.match(loaded.checksums['file'] as string, /^[0-9a-f]{64}$/);
});

test('JSONL: one case per line, blank lines skipped, line numbers as in the file', async () => {
  const text = '{"id": "a", "input": "hi", "expect": [{"contains": "hello"}]}\n\n{"id": 7, "messages": [{"role": "user", "content": "x"}], "tools": "tools.json", "expect": [{"tool-call": {"name": "getOrder", "arguments": {"orderId": "A"}}}, {"json-schema": "schemas/ok.json"}]}\n';
  const loaded = await loadCaseFile(file('ok.jsonl', text));
  assert.deepEqual(loaded.cases.map((c) => [c.id, c.line]), [['a', 1], ['7', 3]]);
  assert.equal(loaded.checksums['file'], sha256(Buffer.from(text)));
});

const KNOWN = 'the known ones are contains, not-contains, regex, json-schema, tool-call, rubric';

test('each problem is one line naming file and line', async () => {
  const cases: [string, string, string][] = [
    ['a case without expect', 'a.yaml', '- id: a\n  input: hi\n  expect: [{contains: x}]\n- id: b\n  input: hi\n'],
    ['an unknown kind', 'b.yaml', '- id: a\n  input: hi\n  expect:\n    - contains: x\n    - containz: y\n'],
    ['a regex that does not compile', 'c.yaml', '- id: a\n  input: hi\n  expect:\n    - regex: "(unclosed"\n'],
    ['a schema file that is not JSON Schema', 'd.yaml', '- id: a\n  input: hi\n  expect:\n    - json-schema: schemas/not-schema.json\n'],
    ['a schema file that is not JSON', 'e.yaml', '- id: a\n  input: hi\n  expect:\n    - json-schema: schemas/not-json.json\n'],
    ['a duplicate id', 'f.yaml', '- id: a\n  input: hi\n  expect: [{contains: x}]\n- id: b\n  input: hi\n  expect: [{contains: x}]\n- id: a\n  input: ho\n  expect: [{contains: y}]\n'],
    ['a missing schema file', 'g.yaml', '- id: a\n  input: hi\n  expect:\n    - json-schema: schemas/none.json\n'],
    ['a tools file of the wrong shape', 'h.yaml', '- id: a\n  input: hi\n  tools: bad-tools.json\n  expect: [{contains: x}]\n'],
    ['a JSONL line that is not JSON', 'i.jsonl', '{"id": "a", "input": "hi", "expect": [{"contains": "x"}]}\n{"id": "b",\n'],
    ['an unknown kind in JSONL', 'j.jsonl', '{"id": "a", "input": "hi", "expect": [{"contains": "x"}]}\n{"id": "b", "input": "hi", "expect": [{"equals": "x"}]}\n'],
    ['two kinds in one item', 'k.yaml', '- id: a\n  input: hi\n  expect:\n    - contains: x\n      regex: y\n'],
    ['a misspelt case key', 'l.yaml', '- id: a\n  input: hi\n  expects: [{contains: x}]\n'],
    ['neither input nor messages', 'm.yaml', '- id: a\n  expect: [{contains: x}]\n'],
    ['an empty expect', 'n.yaml', '- id: a\n  input: hi\n  expect: []\n'],
    ['not YAML', 'o.yaml', '- id: a\n  input: [hi\n'],
    ['not a list', 'p.yaml', 'id: a\n'],
    ['another extension', 'q.json', '[]'],
    ['a tool-call without tools', 's.yaml', '- id: a\n  input: hi\n  expect:\n    - tool-call: {name: getOrder, arguments: {}}\n'],
    ['a tool-call of a tool not offered', 't.yaml', '- id: a\n  input: hi\n  tools: tools.json\n  expect:\n    - contains: x\n    - tool-call: {name: setOrder}\n'],
    ['a number where text is due', 'u.yaml', '- id: a\n  input: hi\n  expect:\n    - contains: 30\n'],
    ['a regex flag that makes it stateful', 'r.yaml', '- id: a\n  input: hi\n  expect:\n    - regex: {pattern: x, flags: g}\n'],
  ];
  const got = [];
  for (const [, name, text] of cases) got.push(await refusal(name, text));
  assert.deepEqual(got, [
    '<file>:4: case "b" has no expect (add "expect:" with at least one of contains, not-contains, regex, json-schema, tool-call, rubric)',
    `<file>:5: case "a": unknown expectation "containz"; ${KNOWN}`,
    '<file>:4: case "a": regex /(unclosed/ does not compile (Invalid regular expression: /(unclosed/: Unterminated group)',
    '<file>:4: case "a": schema file schemas/not-schema.json is not JSON Schema: it is not a valid draft-07 JSON Schema (/type must be equal to one of the allowed values; /type must be array; /type must match a schema in anyOf)',
    `<file>:4: case "a": schema file schemas/not-json.json is not JSON (${jsonError('{type: object}')})`,
    '<file>:7: duplicate id "a" (first at line 1); case ids must be unique',
    '<file>:4: case "a": schema file schemas/none.json: no such file',
    '<file>:3: case "a": tools file bad-tools.json: tool [0]: expected {"type": "function", "function": {…}}',
    `<file>:2: not valid JSON (${jsonError('{"id": "b",')})`,
    `<file>:2: case "b": unknown expectation "equals"; ${KNOWN}`,
    '<file>:4: case "a": an expectation has exactly one kind, got contains and regex (write each on its own "- " line)',
    '<file>:3: unknown key "expects" in a case; a case has id, input, messages, tools, expect',
    '<file>:1: case "a" has neither input nor messages (give input: <the question> or messages: [{role, content}, …])',
    '<file>:3: case "a": expect must be a non-empty list of expectations (contains, not-contains, regex, json-schema, tool-call, rubric)',
    '<file>:3: not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ])',
    '<file>:1: expected a list of cases (each item "- id: …"), got a map',
    '<file>: expected a case file ending in .yaml, .yml or .jsonl',
    '<file>:4: case "a": tool-call getOrder names a tool the case does not offer; it offers no tools (add "tools: <file>")',
    '<file>:6: case "a": tool-call setOrder names a tool the case does not offer; its tools are getOrder',
    '<file>:4: case "a": contains needs a non-empty string; 30 was read as a number: quote it (contains: \'30\')',
    '<file>:4: case "a": regex flags may be i, m, s and u, got string "g"',
  ]);
});

const jsonError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};
