import { statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/index.js';
import { dottedPath } from './dotted-path.js';
import { findCommand } from '../core/find-command.js';
import { envReferences } from '../core/index.js';
import type { AssayConfig } from './load-config.js';
import type { ExecDeclaration, ModelDeclaration } from './model-declaration.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A variable a declaration reads from the environment, and the field that asks for it. */
export interface EnvironmentNeed {
  readonly variable: string;
  /** Inside the declaration: `['apiKeyEnv']`, `['http', 'headers', 'Authorization']`. */
  readonly field: readonly string[];
}

/**
 * Every variable a declaration needs: its `apiKeyEnv` and the `${VAR}`s of its URL and header
 * values. (A `provider` entry without `apiKeyEnv` is sent no key when it has a `baseUrl`, and
 * otherwise its provider's usual variable, which the provider itself asks for.)
 */
export function environmentNeeds(declaration: ModelDeclaration): EnvironmentNeed[] {
  const needs: EnvironmentNeed[] = [];
  const referencesIn = (text: string | undefined, field: readonly string[]) => {
    for (const variable of envReferences(text ?? '', field.join('.'))) needs.push({ variable, field });
  };
  const headers = (values: Readonly<Record<string, string>> | undefined, at: readonly string[]) => {
    for (const [name, value] of Object.entries(values ?? {})) referencesIn(value, [...at, 'headers', name]);
  };
  if (declaration.kind === 'provider') {
    if (declaration.apiKeyEnv !== undefined) needs.push({ variable: declaration.apiKeyEnv, field: ['apiKeyEnv'] });
    referencesIn(declaration.baseUrl, ['baseUrl']);
    headers(declaration.headers, []);
  } else if (declaration.kind === 'http') {
    referencesIn(declaration.http.url, ['http', 'url']);
    headers(declaration.http.headers, ['http']);
  }
  return needs;
}

/** The needs of the named models that the environment leaves unset or empty, each with where the file asks for it. */
export function missingEnvironment(config: AssayConfig, names: readonly string[], env: Env): { readonly variable: string; readonly where: string; readonly field: string }[] {
  return [...new Set(names)].flatMap((name) => {
    const declaration = config.models.get(name);
    if (!declaration) return [];
    return environmentNeeds(declaration)
      .filter(({ variable }) => env[variable] === undefined || env[variable] === '')
      .map(({ variable, field }) => ({ variable, where: config.where(name, field), field: dottedPath(['models', name, ...field]) }));
  });
}

/**
 * Why an `exec` target's command cannot be started, or undefined when it is found: a path (with a
 * `/`) relative to the config file's folder, else a name on PATH, as the program will be run.
 */
export function execCommandProblem(declaration: ExecDeclaration, env: Env): string | undefined {
  const [command = ''] = declaration.exec;
  if (command.includes('/')) {
    const file = path.resolve(declaration.cwd, command);
    return findCommand(command, declaration.cwd, env) !== undefined ? undefined : `${command} is not an executable file (looked at ${file})`;
  }
  return findCommand(command, declaration.cwd, env) !== undefined ? undefined : `command "${command}" is not found on PATH`;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Before anything is recorded or called: every variable the named models need is set, every
 * `exec` command and `module` file exists (whether the module has a default export is known only
 * once it is imported, by the `module` target). Names that are not declared (a `provider:model` id) are skipped.
 * @throws InputError one line: the first problem with where the file asks for it, and the others
 * named after it, so one attempt tells everything to set.
 */
export function checkModelsReady(config: AssayConfig, names: readonly string[], env: Env): void {
  const problems = missingEnvironment(config, names, env).map(({ variable, where, field }) => ({ where, field, text: `environment variable ${variable} is not set`, short: variable }));
  for (const name of new Set(names)) {
    const declaration = config.models.get(name);
    if (declaration?.kind === 'exec') {
      const problem = execCommandProblem(declaration, env);
      if (problem) problems.push({ where: config.where(name, ['exec']), field: `models.${name}.exec`, text: problem, short: 'the command' });
    } else if (declaration?.kind === 'module' && !isFile(declaration.modulePath)) {
      problems.push({ where: config.where(name, ['module']), field: `models.${name}.module`, text: `${declaration.module} is not a file (looked at ${declaration.modulePath})`, short: 'the file' });
    }
  }
  const [first, ...others] = problems;
  if (!first) return;
  const also = others.length > 0 ? ` (also: ${others.map((other) => `${other.short} for ${other.field}`).join(', ')})` : '';
  throw new InputError(`${first.where}: ${first.text}${also}`);
}
