import { type GenerateSettings, InputError, resolveEnvReferences } from '../core/index.js';
import type { AssayConfig } from '../config/load-config.js';
import type { ModelDeclaration } from '../config/model-declaration.js';
import { modelOwnSettings, type ModelOwnSettings } from '../core/model-own-settings.js';
import { checkModelsReady } from '../config/preflight.js';
import { declarationChangeMessage, declarationHash, recordedDeclaration, type RecordedDeclaration } from '../config/recorded-declaration.js';
import { createProvider, createTargetProvider, type ProviderConfig } from '../models/registry.js';
import type { ModelSettings } from '../models/middleware/model.js';
import type { ModelProvider } from '../models/spec.js';
import type { RunRecord } from '../store/records.js';
import { recordedModels, type RecordedModel } from '../analysis/recorded-run.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A model id without `:` is a name a config file declares (`provider:model` ids always have one). */
export const isDeclaredName = (id: string): boolean => !id.includes(':');

/** Every model of a run in every role (under test, judge, simulated user), each once. */
export function runModelIds(run: Pick<RunRecord, 'models' | 'judge' | 'userModel'>): string[] {
  return [...new Set([...run.models, ...(run.judge ? [run.judge.model] : []), ...(run.userModel !== undefined ? [run.userModel] : [])])];
}

/**
 * The declarations of a run's declared models as the run records them, or undefined when it has
 * none. Before this, each name is checked: declared in the file, and every environment variable,
 * `exec` command and `module` file it needs there (`checkModelsReady`), so a run that cannot call
 * its models is refused before anything is recorded.
 */
export function declarationsToRecord(ids: readonly string[], config: AssayConfig | undefined, env: Env | undefined): Record<string, RecordedModel> | undefined {
  const names = ids.filter(isDeclaredName);
  if (names.length === 0) return undefined;
  const found = requireConfig(names, config);
  // Without an environment (a queued run's submitter, which calls nothing), the workers check theirs.
  if (env) checkModelsReady(found, names, env);
  return Object.fromEntries(
    names.map((name) => {
      const declaration = recordedDeclaration(declarationOf(name, found));
      return [name, { declaration, hash: declarationHash(declaration) }];
    }),
  );
}

/**
 * For a session that continues a run (a resume, a queue worker): every declared model of the run
 * is declared the same way in this session's config file, or the session is refused naming the
 * first field that changed (`what`: "the resume", "this worker"); then every variable and file
 * the models need is there.
 */
export function checkDeclarationsUnchanged(run: RunRecord, config: AssayConfig | undefined, env: Env, what: string): void {
  const names = runModelIds(run).filter(isDeclaredName);
  if (names.length === 0) return;
  const found = requireConfig(names, config, run.id);
  const recorded = recordedModels(run);
  for (const name of names) {
    const current = recordedDeclaration(declarationOf(name, found));
    const stored = recorded[name];
    if (!stored) throw new InputError(`run ${run.id} does not record how ${name} was declared: it cannot be checked against ${found.file}`);
    const change = declarationChangeMessage(name, stored.declaration, current, what);
    if (change) throw new InputError(`${found.where(name)}: ${change}`);
  }
  checkModelsReady(found, names, env);
}

function requireConfig(names: readonly string[], config: AssayConfig | undefined, runId?: string): AssayConfig {
  if (config) return config;
  const whose = runId !== undefined ? `run ${runId} was made with a config file declaring` : 'no config file declares';
  throw new InputError(`${whose} ${names.join(', ')}: give the same file (--config FILE, ASSAY_CONFIG, or assay.yaml in the working directory)`);
}

function declarationOf(name: string, config: AssayConfig): ModelDeclaration {
  const declaration = config.models.get(name);
  if (declaration) return declaration;
  const declared = [...config.models.keys()];
  throw new InputError(`model "${name}" is not declared in ${config.file}: ${declared.length > 0 ? `it declares ${declared.join(', ')}` : 'it declares no models'}`);
}

/** A declared model's provider, and the settings of its own that replace the run's for its middleware. */
export interface DeclaredModel {
  readonly provider: ModelProvider;
  readonly settings: ModelOwnSettings & Partial<Pick<ModelSettings, keyof ModelOwnSettings>>;
  /** The key it sends, for the run's secrets. */
  readonly key?: string;
}

/**
 * Builds the model a config file declares under `name`: a provider entry through the registry
 * with its own endpoint, key (from its `apiKeyEnv`, never another model's; with a `baseUrl` and no
 * `apiKeyEnv`, no key at all, not the provider's usual variable), headers and connections; an application target through `createTargetProvider`. Its id is the name, so the
 * store, reports and the call cache know it by the name. Run-wide `--base-url`/`--api-key-env`
 * never apply to it.
 */
export async function buildDeclaredModel(name: string, config: AssayConfig, env: Env, seed: number): Promise<DeclaredModel> {
  const declaration = declarationOf(name, config);
  // The model's own settings, read through the one table that declares them (core/engine-settings.ts).
  const { params: ownParams, ...settings } = modelOwnSettings(declaration);
  const connections = declaration.concurrency;
  const locate = (field: string) => config.where(name, field.split('.'));
  switch (declaration.kind) {
    case 'provider': {
      const where = (field: readonly string[]) => config.where(name, field);
      const key = declaration.apiKeyEnv !== undefined ? env[declaration.apiKeyEnv] : undefined;
      const baseUrl = declaration.baseUrl !== undefined ? resolveEnvReferences(declaration.baseUrl, env, where(['baseUrl'])) : undefined;
      const headers = declaration.headers !== undefined ? Object.fromEntries(Object.entries(declaration.headers).map(([header, value]) => [header, resolveEnvReferences(value, env, where(['headers', header]))])) : undefined;
      if (headers && declaration.provider !== 'openai') throw new InputError(`${where(['headers'])}: headers are sent only by provider openai (an OpenAI-compatible server)`);
      const providerConfig: ProviderConfig = {
        seed,
        // A model with its own baseUrl is sent its own apiKeyEnv's key or none: the provider's
        // usual variable (OPENAI_API_KEY, …) holds the key of the provider's own endpoint, and
        // must never reach a URL the file names. Without a baseUrl, the usual variables hold.
        env: declaration.baseUrl !== undefined ? {} : env,
        ...(connections !== undefined ? { connections } : {}),
        ...endpointOf(declaration.provider, baseUrl, key),
        ...(headers ? { openaiHeaders: headers } : {}),
      };
      const provider = await createProvider(`${declaration.provider}:${declaration.model}`, providerConfig);
      const params = ownParams ?? {};
      return { provider: named(name, provider, [key, ...Object.values(headers ?? {})]), settings: { ...settings, ...(Object.keys(params).length > 0 ? { params } : {}) }, ...(key !== undefined ? { key } : {}) };
    }
    case 'http': {
      const { url, headers, body, output, toolCalls, usage } = declaration.http;
      const provider = await createTargetProvider({
        kind: 'http', name, url, body, output, env,
        // Its fields are under `http:` in the file (`models.bot.http.body`).
        locate: (field: string) => locate(`http.${field}`),
        // Checked once, at load, when the file was loaded with the target's check (the CLI's).
        ...(config.checkedBodies ? { bodyChecked: true } : {}),
        ...(headers !== undefined ? { headers } : {}),
        ...(toolCalls !== undefined ? { toolCalls } : {}),
        ...(usage !== undefined ? { usage } : {}),
        ...(connections !== undefined ? { connections } : {}),
      });
      return { provider, settings };
    }
    case 'module':
      return { provider: await createTargetProvider({ kind: 'module', name, path: declaration.modulePath, locate }), settings };
    case 'exec':
      return {
        provider: await createTargetProvider({ kind: 'exec', name, argv: declaration.exec, cwd: declaration.cwd, env, locate, ...(declaration.timeoutMs !== undefined ? { timeoutMs: declaration.timeoutMs } : {}) }),
        settings,
      };
  }
}

/** The registry's settings for one provider's endpoint and key. */
function endpointOf(provider: string, baseUrl: string | undefined, key: string | undefined): Partial<ProviderConfig> {
  const url = (field: keyof ProviderConfig) => (baseUrl !== undefined ? { [field]: baseUrl } : {});
  const secret = (field: keyof ProviderConfig) => (key !== undefined ? { [field]: key } : {});
  switch (provider) {
    case 'openai':
      return { ...url('openaiBaseURL'), ...secret('openaiApiKey') };
    case 'anthropic':
      return { ...url('anthropicBaseURL'), ...secret('anthropicApiKey') };
    case 'gemini':
      return { ...url('geminiBaseURL'), ...secret('geminiApiKey') };
    case 'ollama':
      return url('ollamaBaseURL');
    default:
      return {};
  }
}

/** The provider under the declared name: its id is the name (the store's, the reports' and the call cache's). */
function named(name: string, provider: ModelProvider, secrets: readonly (string | undefined)[]): ModelProvider {
  const sent = [...(provider.secrets ?? []), ...secrets.filter((secret): secret is string => secret !== undefined && secret !== '')];
  return {
    specVersion: 'v1',
    id: name,
    cacheable: provider.cacheable,
    ...(provider.billed !== undefined ? { billed: provider.billed } : {}),
    ...(provider.sampleIds !== undefined ? { sampleIds: provider.sampleIds } : {}),
    ...(sent.length > 0 ? { secrets: sent } : {}),
    generate: (request, options) => provider.generate(request, options),
    ...(provider.close ? { close: () => (provider.close as () => Promise<void>)() } : {}),
  };
}
