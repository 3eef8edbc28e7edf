import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { abortable, describeError, InputError, ModelCallError, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import { errorFromAbort } from '../../http/call-errors.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { createSessionIds } from '../../targets/session-ids.js';
import { readTargetAnswer } from '../../targets/target-answer.js';
import { targetError } from '../../targets/target-error.js';
import { buildTargetRequest, type TargetRequest } from '../../targets/target-request.js';

/** A function in the user's code: what the config file's `module:` declaration maps to. */
export interface ModuleTargetOptions {
  /** The declared name: the provider's id (and model id everywhere). */
  readonly name: string;
  /** The JavaScript module (`.mjs`, `.js`, `.cjs`): its default export answers. */
  readonly path: string;
  /** What a relative `path` is relative to (default the working directory; the config file's folder for a declaration). */
  readonly baseDir?: string;
  /** Whether identical requests may be answered from the call cache (default true; false for a function that keeps state by `session`). */
  readonly cacheable?: boolean;
  /** How bad-input errors name a field of the declaration (default `<name>: <field>`). */
  readonly locate?: (field: string) => string;
}

/** What a module target's default export is: the request's fields in, `{ text, toolCalls?, usage? }` out. */
export type TargetFunction = (request: TargetRequest, context: { readonly signal: AbortSignal }) => unknown;

/**
 * A provider whose answers come from the default export of a JavaScript module, called in this
 * process with the `TargetRequest` (and `{ signal }`, which a function may pass to its own
 * fetches). A thrown error or an answer without the `{ text, … }` shape is a `target` error with
 * the thrown message; an abort (the run's stop, the middleware's timeout) ends the call at once
 * even if the function goes on.
 *
 * @throws InputError when the file is missing, does not load, or has no default export function.
 */
export async function createModuleTarget(options: ModuleTargetOptions): Promise<ModelProvider> {
  const { name } = options;
  const where = (options.locate ?? ((field: string) => `${name}: ${field}`))('module');
  const file = isAbsolute(options.path) ? options.path : resolve(options.baseDir ?? process.cwd(), options.path);
  if (!existsSync(file)) throw new InputError(`${where}: no such file ${file}`);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new InputError(`${where}: ${file} does not load: ${describeError(error)}`);
  }
  const fn = loaded.default;
  if (typeof fn !== 'function') {
    throw new InputError(`${where}: ${file} has no default export function (write \`export default async function (request) { return { text }; }\`)`);
  }
  const answer = fn as TargetFunction;
  const sessions = createSessionIds();
  const plain = (text: string): string => text;

  async function generate(request: GenerateRequest, { signal, sampleId }: GenerateOptions): Promise<GenerateResult> {
    if (signal.aborted) throw errorFromAbort(signal);
    const fields = buildTargetRequest(name, request, sessions(sampleId), sampleId);
    let returned: unknown;
    try {
      returned = await abortable(Promise.resolve().then(() => answer(fields, { signal })), signal);
    } catch (error) {
      if (signal.aborted) throw errorFromAbort(signal);
      if (error instanceof ModelCallError) throw error;
      throw targetError(name, `the function threw: ${describeError(error)}`, plain);
    }
    const read = readTargetAnswer(returned);
    if (!read.ok) throw targetError(name, read.problem, plain);
    return read.value;
  }

  return { specVersion: 'v1', id: name, cacheable: options.cacheable ?? true, generate };
}
