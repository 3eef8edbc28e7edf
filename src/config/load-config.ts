import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fsReason, InputError, parseYamlFile, type YamlFile } from '../core/index.js';
import type { ConfigLocation } from './config-location.js';
import { describeValue, entryProblems, unknownKeyProblem, type ConfigProblem } from './config-problems.js';
import { dottedPath } from './dotted-path.js';
import type { ModelDeclaration } from './model-declaration.js';
import { nearestName } from '../core/nearest-name.js';
import { CONFIG_FILE_SCHEMA } from './config-file-schema.js';
import { readSuites, type SuiteDeclaration } from './read-suites.js';
import { ENTRY_SCHEMAS, MODEL_NAME_PATTERN, MODEL_NAME_RULE, TARGET_KINDS, type TargetKind } from './model-entry-schema.js';

/**
 * Why a JMESPath expression does not parse, or undefined when it does. The JMESPath library
 * belongs to the `http` target (models/providers/), which passes its parser in, so this folder
 * needs no package of its own for it.
 */
export type ExpressionCheck = (expression: string) => string | undefined;

/**
 * Why an `http` target's body template cannot be used (for the declared name `model`), or
 * undefined when it can: the `http` target's own check (`bodyTemplateProblem`, with the Jinja
 * engine it renders bodies with), passed in like the JMESPath parser.
 */
export type BodyTemplateCheck = (body: string, model: string) => string | undefined;

export interface LoadConfigOptions {
  /** Checks `http.output`, `http.toolCalls` and `http.usage` at load; without it they are checked when the target is built. */
  readonly checkJmesPath?: ExpressionCheck;
  /**
   * Checks every `http.body` at load, once: the target built from the file then does not check
   * it again (`AssayConfig.checkedBodies`). Without it, each body is checked when its target is built.
   */
  readonly checkBodyTemplate?: BodyTemplateCheck;
}

/** A config file, read and validated: every declared model by name. */
export interface AssayConfig {
  /** The file as messages name it. */
  readonly file: string;
  readonly path: string;
  /** The file's folder: what `module` paths and `exec` commands are relative to. */
  readonly dir: string;
  /** In file order. */
  readonly models: ReadonlyMap<string, ModelDeclaration>;
  /** Whether every `http.body` was checked at load (`checkBodyTemplate` given): its target does not check it again. */
  readonly checkedBodies: boolean;
  /** `file:line: models.NAME.field`: where a declared model's field is written, for a message about it. */
  where(name: string, field?: readonly PropertyKey[]): string;
  /** The `suites:` map, in file order (empty without one). */
  readonly suites: ReadonlyMap<string, SuiteDeclaration>;
  /** `file:line: suites.NAME.field`: where a suite's field is written (`validateSuite`'s messages). */
  whereSuite(name: string, field?: readonly PropertyKey[]): string;
  /** The line {@link whereSuite} names. */
  suiteLine(name: string, field?: readonly PropertyKey[]): number;
}

/**
 * Reads and validates a config file.
 * @throws InputError `file:line: field.path: what is wrong` for the first problem in file order
 * (and how many more there are): YAML syntax, an unknown key (with the nearest valid one), a
 * missing or mistyped value, a name with `:`, an entry of no kind or of two, and with the checks
 * of `options`, a body template that does not render to JSON, a JMESPath expression that does not parse.
 */
export function loadConfig(location: ConfigLocation, options: LoadConfigOptions = {}): AssayConfig {
  let text: string;
  try {
    text = readFileSync(location.path, 'utf8');
  } catch (error) {
    throw new InputError(`${location.shown}: cannot read the config file (${fsReason(error) ?? String(error)})`, { file: location.shown });
  }
  return parseConfig(location.shown, location.path, text, options);
}

/** {@link loadConfig} on text already read: `file` names it in messages, `filePath` locates relative paths. */
export function parseConfig(file: string, filePath: string, text: string, options: LoadConfigOptions = {}): AssayConfig {
  const yaml = parseYamlFile(file, text);
  const dir = path.dirname(filePath);
  const problems: ConfigProblem[] = [];
  const models = new Map<string, ModelDeclaration>();
  let suites = new Map<string, SuiteDeclaration>();
  const top = yaml.value;
  if (!isMapping(top)) {
    problems.push({ line: yaml.lineOf([]), message: `expected a mapping with a models: key, got ${top === null || top === undefined ? 'an empty file' : describeValue(top)}` });
  } else {
    const topKeys = Object.keys(CONFIG_FILE_SCHEMA.shape);
    for (const key of Object.keys(top)) if (!topKeys.includes(key)) problems.push(unknownKeyProblem(yaml, [], key, topKeys));
    const declared = top['models'];
    // A misspelt `models:` is told once, as the unknown key it is, not again as a missing one.
    const misspelt = Object.keys(top).some((key) => key !== 'models' && nearestName(key, topKeys) === 'models');
    if (declared === undefined) {
      if (!misspelt) problems.push({ line: yaml.lineOf([]), message: 'models: missing (required): the mapping of names to models and applications' });
    } else if (!isMapping(declared)) problems.push({ line: yaml.lineOf(['models']), message: `models: expected a mapping of names to declarations, got ${describeValue(declared)}` });
    else {
      for (const [name, entry] of Object.entries(declared)) {
        const declaration = readEntry(yaml, dir, name, entry, options, problems);
        if (declaration) models.set(name, declaration);
      }
    }
    // Names of entries refused above still count as declared: their own problem is told, not a second one here.
    suites = readSuites(yaml, top['suites'], isMapping(declared) ? Object.keys(declared) : [], problems);
  }
  if (problems.length > 0) {
    // The first problem in file order: a user fixes a file top to bottom.
    const sorted = problems.sort((a, b) => a.line - b.line);
    const first = sorted[0] as ConfigProblem;
    const more = sorted.length > 1 ? ` (and ${sorted.length - 1} more problem${sorted.length > 2 ? 's' : ''})` : '';
    throw new InputError(`${file}:${first.line}: ${first.message}${more}`, { file, line: first.line });
  }
  return {
    file,
    path: filePath,
    dir,
    models,
    checkedBodies: options.checkBodyTemplate !== undefined,
    where: (name, field = []) => {
      const at = ['models', name, ...field];
      return `${file}:${yaml.lineOf(at)}: ${dottedPath(at)}`;
    },
    suites,
    whereSuite: (name, field = []) => {
      const at = ['suites', name, ...field];
      return `${file}:${yaml.lineOf(at)}: ${dottedPath(at)}`;
    },
    suiteLine: (name, field = []) => yaml.lineOf(['suites', name, ...field]),
  };
}

/** One entry of `models:`, or undefined with its problems added. */
function readEntry(yaml: YamlFile, dir: string, name: string, entry: unknown, options: LoadConfigOptions, problems: ConfigProblem[]): ModelDeclaration | undefined {
  const base = ['models', name];
  const line = yaml.lineOf(base);
  const at = dottedPath(base);
  const before = problems.length;
  if (name.includes(':')) {
    problems.push({ line, message: `${at}: a name has no ":" — "provider:model" is how a provider's model is written, so "${name}" would be read as one; name it without the colon` });
  } else if (!MODEL_NAME_PATTERN.test(name)) {
    problems.push({ line, message: `${at}: ${MODEL_NAME_RULE}` });
  }
  if (!isMapping(entry)) {
    problems.push({ line, message: `${at}: expected a mapping (${TARGET_KINDS.join(', ')} and its settings), got ${describeValue(entry)}` });
    return undefined;
  }
  const kinds = TARGET_KINDS.filter((kind) => kind in entry);
  if (kinds.length !== 1) {
    problems.push(kindProblem(yaml, base, entry, kinds));
    return undefined;
  }
  const kind = kinds[0] as TargetKind;
  const schema = ENTRY_SCHEMAS[kind];
  const parsed = schema.safeParse(entry);
  if (!parsed.success) {
    problems.push(...entryProblems(yaml, schema, base, entry, parsed.error.issues));
    return undefined;
  }
  const source = { file: yaml.file, line };
  let declaration: ModelDeclaration;
  const data = parsed.data;
  if ('http' in data) {
    const problem = (field: string, text: string) => problems.push({ line: yaml.lineOf([...base, 'http', field]), message: `${dottedPath([...base, 'http', field])}: ${text}` });
    const body = options.checkBodyTemplate?.(data.http.body, name);
    if (body) problem('body', body);
    for (const field of ['output', 'toolCalls', 'usage'] as const) {
      const expression = data.http[field];
      const why = expression === undefined ? undefined : options.checkJmesPath?.(expression);
      if (why) problem(field, `not a JMESPath expression (${why})`);
    }
    declaration = { name, source, kind: 'http', ...data };
  } else if ('module' in data) {
    declaration = { name, source, kind: 'module', ...data, modulePath: path.resolve(dir, data.module) };
  } else if ('exec' in data) {
    declaration = { name, source, kind: 'exec', ...data, cwd: dir };
  } else {
    declaration = { name, source, kind: 'provider', ...data };
  }
  return problems.length === before ? declaration : undefined;
}

/** An entry with no kind key (perhaps a misspelt one) or with several. */
function kindProblem(yaml: YamlFile, base: readonly string[], entry: Record<string, unknown>, kinds: readonly TargetKind[]): ConfigProblem {
  const at = dottedPath(base);
  if (kinds.length > 1) {
    return { line: yaml.lineOf([...base, kinds[1] as string]), message: `${at}: declares both ${kinds[0]} and ${kinds[1]}; an entry is one target (give each its own name)` };
  }
  const everyKey = [...new Set(Object.values(ENTRY_SCHEMAS).flatMap((schema) => Object.keys(schema.shape)))];
  // A misspelt kind key (`provder:`) is the likeliest reason an entry has none.
  const misspelt = Object.keys(entry).find((key) => !everyKey.includes(key) && nearestName(key, everyKey) !== undefined);
  if (misspelt !== undefined) return unknownKeyProblem(yaml, base, misspelt, everyKey);
  return {
    line: yaml.lineOf(base),
    message: `${at}: declares no target; give one of provider: (a model behind a wire format assay speaks), http: (an application's HTTP API), module: (a JavaScript function) or exec: (a program)`,
  };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
