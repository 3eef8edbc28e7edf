import { z } from 'zod';
import { malformedEnvReference, malformedEnvReferenceMessage, replaceEnvReferences } from '../core/index.js';
import { modelOwnSettingFields, samplingParamsSchema } from '../core/engine-settings.js';

/**
 * The `models:` map of a config file (`assay.yaml`) as zod schemas: the one definition the loader
 * validates with, the TypeScript types are inferred from, and `schemas/assay-config.schema.json`
 * is generated from. Every object is strict: a misspelt key is an error naming the nearest valid
 * one, never a setting silently ignored. Documented key by key in docs/targets.md.
 */

/** The wire formats a `provider` entry may speak: the providers that call a model over a network or in-process. */
export const DECLARABLE_PROVIDERS = ['openai', 'anthropic', 'gemini', 'ollama', 'local'] as const;
export type DeclarableProvider = (typeof DECLARABLE_PROVIDERS)[number];

/** The keys that say what kind of target an entry is: exactly one per entry. */
export const TARGET_KINDS = ['provider', 'http', 'module', 'exec'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/**
 * A declared name is the model id everywhere (`-m small`, the store, reports, exports), so it
 * never has a `:` — that is how `provider:model` ids are told apart — and it stays a plain word
 * a flag, a file name and a CSV cell take as it is.
 */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MODEL_NAME_RULE = 'a name starts with a letter or digit and holds only letters, digits, ".", "_" and "-"';
export const MODEL_NAME = z.string().regex(MODEL_NAME_PATTERN, MODEL_NAME_RULE);

/** A shell-style environment variable name, as `apiKeyEnv` and `${VAR}` take. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envName = z.string().regex(ENV_NAME_PATTERN, 'must be an environment variable name (letters, digits and "_", not starting with a digit)');

/** A URL with `${VAR}` references standing for any part of it (each replaced by `1` for the check: a valid host, port and path segment). */
function isHttpUrlTemplate(text: string): boolean {
  try {
    const url = new URL(replaceEnvReferences(text, () => '1'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
/** A `${...}` that is not a reference is refused where the file says it (a typo would otherwise be sent as text). */
function refuseMalformedReference(text: string, ctx: z.RefinementCtx): void {
  const bad = malformedEnvReference(text);
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: malformedEnvReferenceMessage(bad) });
}
const endpointUrl = z
  .string()
  .superRefine(refuseMalformedReference)
  .refine(isHttpUrlTemplate, 'must be an http:// or https:// URL (a ${VAR} may stand for any part of it)');

/** RFC 9110 token characters: a header name is sent as written. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headers = z
  .record(
    z.string().regex(HEADER_NAME, 'must be an HTTP header name (letters, digits and !#$%&\'*+.^_`|~-)'),
    // A line break would let a value add headers of its own.
    z.string().regex(/^[^\r\n\0]*$/, 'must be one line (no line break or NUL)').superRefine(refuseMalformedReference),
  )
  .superRefine((values, ctx) => {
    // Header names are case-insensitive: `X-Team` and `x-team` would both be sent, and the server would pick one.
    const seen = new Map<string, string>();
    for (const name of Object.keys(values)) {
      const first = seen.get(name.toLowerCase());
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: `the same header as ${first} (header names ignore case); keep one` });
      seen.set(name.toLowerCase(), name);
    }
  })
  .describe('HTTP headers sent with every call, name → value. A value may hold ${VAR} references, read from the environment at call time; a value without one is recorded as *** (it may be a secret written into the file).');

/**
 * A model's own settings — `params`, `price`, `rpm`, `tpm`, `concurrency`, `timeoutMs` — are
 * declared once, in core/engine-settings.ts (`MODEL_OWN_SETTINGS`: an engine setting's schema is
 * the engine's own); the entries below take their fields from there. What every kind of target
 * goes through: the middleware's limits and the cost accounting; `params` only a provider entry.
 */
const CALL_SETTINGS = modelOwnSettingFields();
const PROVIDER_SETTINGS = modelOwnSettingFields({ providerOnly: true });

/** Sampling parameters, in the wire formats' own snake_case (`SAMPLING_PARAMS`). */
export const MODEL_PARAMS = samplingParamsSchema;

export const PROVIDER_ENTRY = z
  .strictObject({
    provider: z.enum(DECLARABLE_PROVIDERS).describe('The wire format the model speaks: openai (any OpenAI-compatible server), anthropic, gemini, ollama, or local (a GGUF file run in-process).'),
    model: z.string().min(1).describe('The model\'s name on that server (for local: a .gguf path or a Hugging Face file).'),
    baseUrl: endpointUrl.optional().describe('The server\'s base URL (OpenAI: with /v1); default: the provider\'s own. May hold ${VAR} references.'),
    apiKeyEnv: envName.optional().describe('The environment variable holding this model\'s key. Without it: with a baseUrl, no key is sent (never the provider\'s usual variable, whose key belongs to the provider\'s own endpoint); without a baseUrl, the provider\'s usual one (OPENAI_API_KEY, …). The key itself is never in the file or the store.'),
    headers: headers.optional(),
    ...PROVIDER_SETTINGS,
  })
  .superRefine((entry, ctx) => {
    // A local model is a file run in this process: there is no server to address or authenticate to.
    if (entry.provider === 'local') {
      for (const key of ['baseUrl', 'apiKeyEnv', 'headers'] as const) {
        if (entry[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'a local model runs in this process: it has no server, so no baseUrl, apiKeyEnv or headers' });
      }
    }
    if (entry.provider === 'ollama' && entry.apiKeyEnv !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['apiKeyEnv'], message: 'ollama takes no key; for an OpenAI-compatible server that wants one, use provider: openai with its baseUrl' });
    }
  })
  .describe('A model behind a wire format assay speaks.');

export const HTTP_TARGET = z
  .strictObject({
    url: endpointUrl.describe('Where each call is POSTed. May hold ${VAR} references.'),
    headers: headers.optional(),
    body: z.string().min(1).describe('The request body: a Jinja template rendering to JSON, with messages, prompt, system, tools, session, sample_id, model, settings and response_format. Write each value as {{ name | tojson }}.'),
    output: z.string().min(1).describe('JMESPath into the JSON answer: the reply text.'),
    toolCalls: z.string().min(1).optional().describe('JMESPath into the JSON answer: the tool calls, a list of {name, arguments}.'),
    usage: z.string().min(1).optional().describe('JMESPath into the JSON answer: the token counts, {inputTokens, outputTokens} or {prompt_tokens, completion_tokens}, for the run\'s cost.'),
  })
  .describe('An application with an HTTP API of its own.');

export const HTTP_ENTRY = z.strictObject({ http: HTTP_TARGET, ...CALL_SETTINGS }).describe('An application over HTTP.');

export const MODULE_ENTRY = z
  .strictObject({
    module: z.string().min(1).describe('A JavaScript module, relative to the config file, whose default export is async (request) => ({ text, toolCalls?, usage? }).'),
    ...CALL_SETTINGS,
  })
  .describe('A function in the user\'s code.');

export const EXEC_ENTRY = z
  .strictObject({
    exec: z.array(z.string().min(1)).min(1, 'needs at least the program: [program, argument, …]').describe('A command and its arguments (no shell): the request as JSON on stdin, the answer as JSON on stdout. Run in the config file\'s folder.'),
    ...CALL_SETTINGS,
  })
  .describe('A program run once per call.');

/** Each kind's schema, by the key that marks it. */
export const ENTRY_SCHEMAS = { provider: PROVIDER_ENTRY, http: HTTP_ENTRY, module: MODULE_ENTRY, exec: EXEC_ENTRY } as const satisfies Record<TargetKind, z.ZodType>;

export const MODEL_ENTRY = z.union([PROVIDER_ENTRY, HTTP_ENTRY, MODULE_ENTRY, EXEC_ENTRY]);

export type ModelParams = z.output<typeof MODEL_PARAMS>;
export type ProviderEntry = z.output<typeof PROVIDER_ENTRY>;
export type HttpTarget = z.output<typeof HTTP_TARGET>;
export type HttpEntry = z.output<typeof HTTP_ENTRY>;
export type ModuleEntry = z.output<typeof MODULE_ENTRY>;
export type ExecEntry = z.output<typeof EXEC_ENTRY>;
export type ModelEntry = z.output<typeof MODEL_ENTRY>;
