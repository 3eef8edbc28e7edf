import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, parseYamlFile, sha256, type Message, type ToolSpec } from '../../core/index.js';
import type { ReadyExpectation } from './check-output.js';
import { EXPECTATION_KINDS, type Expectation } from './expectation.js';
import { compileJsonSchema, type SchemaCheck } from './json-schema.js';
import { readToolsFile } from './tools-file.js';

/** One case, checked: what the model is asked, with which tools, and what its answer must meet. */
export interface TestCase {
  readonly id: string;
  /** The case's first line in the file (what errors and reports point at). */
  readonly line: number;
  readonly messages: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  readonly expectations: readonly ReadyExpectation[];
}

/** A case file read and checked: its cases in file order and the checksums a run records. */
export interface CaseFile {
  readonly cases: readonly TestCase[];
  /** `file` → the case file's sha256; `tools:<path>` and `schema:<path>` → each file it names, by its path as written. */
  readonly checksums: Readonly<Record<string, string>>;
}

/** A parsed entry of the file and a way from a path inside it to its line. */
interface RawEntry {
  readonly value: unknown;
  readonly lineOf: (path: readonly PropertyKey[]) => number;
}

const CASE_KEYS = ['id', 'input', 'messages', 'tools', 'expect'] as const;
const ROLES = ['system', 'user', 'assistant'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a case file (`.yaml`/`.yml`: a list of cases; `.jsonl`: one case per line) and checks
 * every case before anything runs: each problem is one `file:line: …` InputError — a case without
 * `expect`, an unknown expectation kind (the known ones named), a regex that does not compile, a
 * schema that is not JSON Schema, a tools file that is not OpenAI function tools, a duplicate id.
 */
export async function loadCaseFile(file: string): Promise<CaseFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, expected a .yaml or .jsonl case file' : `cannot read it (${code ?? String(error)})`}`, { file });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${file}: not valid UTF-8 (save the case file as UTF-8)`, { file });
  }
  const entries = entriesOf(file, text);
  if (entries.length === 0) throw new InputError(`${file}:1: no cases (expected a list of cases, each with an id, an input or messages, and expect)`, { file, line: 1 });
  const reader = new CaseReader(file);
  const cases: TestCase[] = [];
  const firstLine = new Map<string, number>();
  for (const entry of entries) {
    const testCase = await reader.read(entry);
    const earlier = firstLine.get(testCase.id);
    if (earlier !== undefined) throw new InputError(`${file}:${testCase.line}: duplicate id ${JSON.stringify(testCase.id)} (first at line ${earlier}); case ids must be unique`, { file, line: testCase.line });
    firstLine.set(testCase.id, testCase.line);
    cases.push(testCase);
  }
  return { cases, checksums: { file: sha256(bytes), ...reader.checksums } };
}

/** The file's entries, each with its lines: a YAML list's items, or a JSONL file's lines. */
function entriesOf(file: string, text: string): RawEntry[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') {
    const yaml = parseYamlFile(file, text);
    if (yaml.value === null || yaml.value === undefined) return [];
    if (!Array.isArray(yaml.value)) throw new InputError(`${file}:${yaml.lineOf([])}: expected a list of cases (each item "- id: …"), got ${describe(yaml.value)}`, { file, line: yaml.lineOf([]) });
    return yaml.value.map((value, i) => ({ value, lineOf: (p) => yaml.lineOf([i, ...p]) }));
  }
  if (ext === '.jsonl') {
    const entries: RawEntry[] = [];
    text.split('\n').forEach((raw, i) => {
      const line = i + 1;
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw) as unknown;
      } catch (error) {
        throw new InputError(`${file}:${line}: not valid JSON (${(error as Error).message})`, { file, line });
      }
      entries.push({ value, lineOf: () => line });
    });
    return entries;
  }
  throw new InputError(`${file}: expected a case file ending in .yaml, .yml or .jsonl`, { file });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return 'a map';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Reads cases one by one, each tools or schema file read once however many cases name it. */
class CaseReader {
  readonly checksums: Record<string, string> = {};
  private readonly tools = new Map<string, readonly ToolSpec[]>();
  private readonly schemas = new Map<string, SchemaCheck>();
  private readonly dir: string;

  constructor(private readonly file: string) {
    this.dir = path.dirname(file);
  }

  async read(entry: RawEntry): Promise<TestCase> {
    const { value, lineOf } = entry;
    const line = lineOf([]);
    const fail = (at: readonly PropertyKey[], message: string): never => {
      const where = lineOf(at);
      throw new InputError(`${this.file}:${where}: ${message}`, { file: this.file, line: where });
    };
    if (!isRecord(value)) return fail([], `a case must be a map with id, input or messages, and expect; got ${describe(value)}`);
    for (const key of Object.keys(value)) if (!(CASE_KEYS as readonly string[]).includes(key)) fail([key], `unknown key ${JSON.stringify(key)} in a case; a case has ${CASE_KEYS.join(', ')}`);
    const rawId = value['id'];
    if (rawId === undefined) fail([], 'a case without an id (add "id: <a name unique in the file>")');
    if ((typeof rawId !== 'string' || rawId.trim() === '') && !(typeof rawId === 'number' && Number.isInteger(rawId))) fail(['id'], `id must be a non-empty string, got ${describe(rawId)}`);
    const id = String(rawId);
    const named = `case ${JSON.stringify(id)}`;
    const messages = this.messagesOf(value, named, fail);
    const tools = value['tools'] === undefined ? undefined : await this.toolsOf(value['tools'], named, fail);
    const expect = value['expect'];
    if (expect === undefined) fail([], `${named} has no expect (add "expect:" with at least one of ${EXPECTATION_KINDS.join(', ')})`);
    if (!Array.isArray(expect) || expect.length === 0) fail(['expect'], `${named}: expect must be a non-empty list of expectations (${EXPECTATION_KINDS.join(', ')})`);
    const expectations: ReadyExpectation[] = [];
    for (const [i, item] of (expect as unknown[]).entries()) {
      const ready = await this.expectationOf(item, named, (message) => fail(['expect', i], message));
      // A call of a tool the model was never offered cannot be made: the case would fail whatever the model does.
      if (ready.expectation.kind === 'tool-call' && !tools?.some((t) => t.name === (ready.expectation as { name: string }).name)) {
        const offered = tools ? `its tools are ${tools.map((t) => t.name).join(', ')}` : 'it offers no tools (add "tools: <file>")';
        fail(['expect', i], `${named}: tool-call ${ready.expectation.name} names a tool the case does not offer; ${offered}`);
      }
      expectations.push(ready);
    }
    return { id, line, messages, ...(tools ? { tools } : {}), expectations };
  }

  private messagesOf(value: Record<string, unknown>, named: string, fail: (at: readonly PropertyKey[], message: string) => never): Message[] {
    const input = value['input'];
    const messages = value['messages'];
    if (input !== undefined && messages !== undefined) fail(['messages'], `${named} has both input and messages; give one`);
    if (input !== undefined) {
      if (typeof input !== 'string' || input.trim() === '') fail(['input'], `${named}: input must be a non-empty string (or give messages: [...])`);
      return [{ role: 'user', content: input as string }];
    }
    if (messages === undefined) fail([], `${named} has neither input nor messages (give input: <the question> or messages: [{role, content}, …])`);
    if (!Array.isArray(messages) || messages.length === 0) fail(['messages'], `${named}: messages must be a non-empty list of {role, content}`);
    return (messages as unknown[]).map((m, i): Message => {
      const role = isRecord(m) ? m['role'] : undefined;
      const content = isRecord(m) ? m['content'] : undefined;
      if (!isRecord(m) || Object.keys(m).some((k) => k !== 'role' && k !== 'content')) fail(['messages', i], `${named}: message ${i + 1} must be {role, content}`);
      if (!(ROLES as readonly unknown[]).includes(role)) fail(['messages', i], `${named}: message ${i + 1} has role ${JSON.stringify(role)}; expected ${ROLES.join(', ')}`);
      if (typeof content !== 'string') fail(['messages', i], `${named}: message ${i + 1}'s content must be a string`);
      return { role: role as (typeof ROLES)[number], content: content as string } as Message;
    });
  }

  private async toolsOf(given: unknown, named: string, fail: (at: readonly PropertyKey[], message: string) => never): Promise<readonly ToolSpec[]> {
    if (typeof given !== 'string' || given.trim() === '') return fail(['tools'], `${named}: tools must be the path of a JSON file of OpenAI function tools, relative to the case file`);
    const known = this.tools.get(given);
    if (known) return known;
    try {
      const read = await readToolsFile(path.resolve(this.dir, given));
      this.tools.set(given, read.tools);
      this.checksums[`tools:${given}`] = read.sha256;
      return read.tools;
    } catch (error) {
      return fail(['tools'], `${named}: tools file ${given}: ${(error as Error).message}`);
    }
  }

  private async expectationOf(item: unknown, named: string, fail: (message: string) => never): Promise<ReadyExpectation> {
    const kinds = EXPECTATION_KINDS.join(', ');
    if (!isRecord(item)) return fail(`${named}: an expectation is one "kind: value" (${kinds}); got ${describe(item)}`);
    const keys = Object.keys(item);
    if (keys.length !== 1) return fail(`${named}: an expectation has exactly one kind, got ${keys.length === 0 ? 'none' : keys.join(' and ')} (write each on its own "- " line)`);
    const kind = keys[0] as string;
    const value = item[kind];
    const text = (what: string): string => {
      if (typeof value === 'string' && value !== '') return value;
      // YAML reads `contains: 30` as a number and forgets how it was written (30.0, 030): ask for quotes rather than guess.
      if (typeof value === 'number' || typeof value === 'boolean') return fail(`${named}: ${kind} needs ${what}; ${JSON.stringify(value)} was read as a ${typeof value}: quote it (${kind}: '${String(value)}')`);
      return fail(`${named}: ${kind} needs ${what}, got ${describe(value)}`);
    };
    switch (kind) {
      case 'contains':
      case 'not-contains':
        return { expectation: { kind, text: text('a non-empty string') } };
      case 'regex':
        return this.regexOf(value, named, fail);
      case 'json-schema':
        return this.schemaOf(value, named, fail);
      case 'tool-call': {
        if (!isRecord(value) || Object.keys(value).some((k) => k !== 'name' && k !== 'arguments')) return fail(`${named}: tool-call needs {name, arguments}, got ${describe(value)}`);
        const name = value['name'];
        const args = value['arguments'] ?? {};
        if (typeof name !== 'string' || name === '') return fail(`${named}: tool-call needs a name (the function's name)`);
        if (!isRecord(args)) return fail(`${named}: tool-call arguments must be a map of the call's arguments, got ${describe(args)}`);
        return { expectation: { kind: 'tool-call', name, arguments: args } };
      }
      case 'rubric':
        return { expectation: { kind: 'rubric', criterion: text('the criterion the judge grades the answer by') } };
      default:
        return fail(`${named}: unknown expectation ${JSON.stringify(kind)}; the known ones are ${kinds}`);
    }
  }

  /** `regex: <pattern>`, or `regex: {pattern, flags}` for flags (`i`, `m`, `s`, `u`). */
  private regexOf(value: unknown, named: string, fail: (message: string) => never): ReadyExpectation {
    const pattern = isRecord(value) ? value['pattern'] : value;
    const flags = isRecord(value) ? (value['flags'] ?? '') : '';
    if (isRecord(value) && Object.keys(value).some((k) => k !== 'pattern' && k !== 'flags')) return fail(`${named}: regex is a pattern, or {pattern, flags}`);
    if (typeof pattern !== 'string' || pattern === '') return fail(`${named}: regex needs a non-empty pattern, got ${describe(pattern)}`);
    if (typeof flags !== 'string' || !/^[imsu]*$/.test(flags)) return fail(`${named}: regex flags may be i, m, s and u, got ${describe(flags)}`);
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, flags);
    } catch (error) {
      return fail(`${named}: regex /${pattern}/${flags} does not compile (${(error as Error).message})`);
    }
    const expectation: Expectation = { kind: 'regex', pattern, flags };
    return { expectation, regex };
  }

  /** `json-schema: <path of a schema file, relative to the case file>`, or a schema written in place. */
  private async schemaOf(value: unknown, named: string, fail: (message: string) => never): Promise<ReadyExpectation> {
    if (isRecord(value) || typeof value === 'boolean') {
      try {
        return { expectation: { kind: 'json-schema', schema: 'inline' }, check: compileJsonSchema(value) };
      } catch (error) {
        return fail(`${named}: json-schema written in place: ${(error as Error).message}`);
      }
    }
    if (typeof value !== 'string' || value === '') return fail(`${named}: json-schema needs the path of a schema file (relative to the case file) or a schema, got ${describe(value)}`);
    const known = this.schemas.get(value);
    if (known) return { expectation: { kind: 'json-schema', schema: value }, check: known };
    let bytes: Buffer;
    try {
      bytes = await readFile(path.resolve(this.dir, value));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return fail(`${named}: schema file ${value}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? String(error)})`}`);
    }
    let schema: unknown;
    try {
      schema = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (error) {
      return fail(`${named}: schema file ${value} is not JSON (${(error as Error).message})`);
    }
    let check: SchemaCheck;
    try {
      check = compileJsonSchema(schema);
    } catch (error) {
      return fail(`${named}: schema file ${value} is not JSON Schema: ${(error as Error).message}`);
    }
    this.schemas.set(value, check);
    this.checksums[`schema:${value}`] = sha256(bytes);
    return { expectation: { kind: 'json-schema', schema: value }, check };
  }
}
