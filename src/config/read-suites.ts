import { InputError, parseModelId, type YamlFile } from '../core/index.js';
import { describeValue, entryProblems, type ConfigProblem } from './config-problems.js';
import { dottedPath } from './dotted-path.js';
import { MODEL_NAME_PATTERN } from './model-entry-schema.js';
import { nearestName } from '../core/nearest-name.js';
import { SUITE, type SuiteEntry } from './suite-schema.js';

/** A suite as the loader read it: its entry, its name, and the line it starts at. */
export interface SuiteDeclaration extends SuiteEntry {
  readonly name: string;
  readonly source: { readonly file: string; readonly line: number };
}

/**
 * The `suites:` map, each suite validated by its schema and each model it names checked against
 * `models:` (a name must be declared there; a `provider:model` id must name a known provider).
 * Problems are added to `problems` (the loader tells the first in file order); a suite with any
 * is left out.
 */
export function readSuites(yaml: YamlFile, suites: unknown, declaredModels: readonly string[], problems: ConfigProblem[]): Map<string, SuiteDeclaration> {
  const read = new Map<string, SuiteDeclaration>();
  if (suites === undefined) return read;
  if (suites === null || typeof suites !== 'object' || Array.isArray(suites)) {
    problems.push({ line: yaml.lineOf(['suites']), message: `suites: expected a mapping of suite names to suites, got ${describeValue(suites)}` });
    return read;
  }
  for (const [name, entry] of Object.entries(suites as Record<string, unknown>)) {
    const base = ['suites', name];
    const before = problems.length;
    if (!MODEL_NAME_PATTERN.test(name)) {
      problems.push({ line: yaml.lineOf(base), message: `${dottedPath(base)}: a suite name starts with a letter or digit and holds only letters, digits, ".", "_" and "-"` });
    }
    const parsed = SUITE.safeParse(entry);
    if (!parsed.success) {
      // A gate with a misspelt key is told as that key, not again as a gate without min or max.
      const unknownAt = new Set(parsed.error.issues.filter((i) => i.code === 'unrecognized_keys').map((i) => dottedPath(i.path)));
      const issues = parsed.error.issues.filter((i) => !(i.code === 'custom' && unknownAt.has(dottedPath(i.path))));
      problems.push(...entryProblems(yaml, SUITE, base, entry, issues));
      continue;
    }
    const suite = parsed.data;
    const reference = (field: readonly PropertyKey[], argument: string | undefined): void => {
      if (argument === undefined) return;
      const why = modelReferenceProblem(argument, declaredModels);
      if (why) problems.push({ line: yaml.lineOf([...base, ...field]), message: `${dottedPath([...base, ...field])}: ${why}` });
    };
    suite.models.forEach((model, i) => reference(['models', i], model));
    reference(['judge'], suite.judge);
    reference(['userModel'], suite.userModel);
    suite.tasks.forEach((task, i) => {
      reference(['tasks', i, 'judge'], task.judge);
      reference(['tasks', i, 'userModel'], task.userModel);
      for (const [metric, gate] of Object.entries(task.gates ?? {})) {
        if (gate.require === 'non-inferior' && suite.regression === undefined) {
          const at = [...base, 'tasks', i, 'gates', metric, 'require'];
          problems.push({ line: yaml.lineOf(at), message: `${dottedPath(at)}: non-inferior is judged against a baseline; give the suite a regression: { baseline, margin }` });
        }
      }
    });
    const seen = new Set<string>();
    suite.models.forEach((model, i) => {
      if (seen.has(model)) problems.push({ line: yaml.lineOf([...base, 'models', i]), message: `${dottedPath([...base, 'models', i])}: ${model} is named twice` });
      seen.add(model);
    });
    if (problems.length === before) read.set(name, { ...suite, name, source: { file: yaml.file, line: yaml.lineOf(base) } });
  }
  return read;
}

/** Why a suite's model argument names nothing, or undefined when it names a declared model or a provider's model. */
function modelReferenceProblem(argument: string, declared: readonly string[]): string | undefined {
  if (argument.includes(':')) {
    try {
      parseModelId(argument);
      return undefined;
    } catch (error) {
      return error instanceof InputError ? error.message : String(error);
    }
  }
  if (declared.includes(argument)) return undefined;
  const nearest = nearestName(argument, declared);
  const names = declared.length > 0 ? `models: declares ${declared.join(', ')}` : 'models: declares none';
  return `"${argument}" is not declared${nearest !== undefined ? ` (did you mean "${nearest}"?)` : ''}: ${names}; a provider's model is written provider:model`;
}
