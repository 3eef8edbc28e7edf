import { canonicalJson, hasEnvReference, HIDDEN_CREDENTIAL, redactUrlCredentials, sha256 } from '../core/index.js';
import { MODEL_OWN_SETTING_ROWS, OPERATIONAL_SETTING_KEYS, type ModelOwnSettingKey } from '../core/model-own-settings.js';
import type { ModelDeclaration } from './model-declaration.js';

/**
 * A declaration as a run records it: what was measured, never a secret. URLs lose their
 * credentials (the whole user part, and credential-named query values as `core/url-credentials.ts`
 * hides them); a header value stays as written when it holds a `${VAR}` reference (the secret is in
 * the environment) and is `***` otherwise (it may be a key written into the file); `apiKeyEnv`
 * is the variable's name. Relative paths stay as written, so two machines with the same file in
 * different folders record the same declaration. Plain JSON: it is stored with the run.
 */
export type RecordedDeclaration = Readonly<Record<string, unknown>> & { readonly kind: ModelDeclaration['kind'] };

/**
 * Settings that say how hard a model may be called, not what it answers: a resume or a fleet
 * worker may set them its own way, so they are recorded but outside the declaration's identity.
 */
export const OPERATIONAL_FIELDS: readonly string[] = OPERATIONAL_SETTING_KEYS;

/** A model's own settings every kind takes, in the order `MODEL_OWN_SETTING_ROWS` declares them (a provider's own, `params`, is recorded with its other fields). */
const CALL_SETTING_KEYS = (Object.keys(MODEL_OWN_SETTING_ROWS) as ModelOwnSettingKey[]).filter((key) => !('providerOnly' in MODEL_OWN_SETTING_ROWS[key]));

export function recordedDeclaration(declaration: ModelDeclaration): RecordedDeclaration {
  // Built field by field, in the schema's order, so a difference is named in the order the file reads.
  const operational = pick(declaration, CALL_SETTING_KEYS);
  switch (declaration.kind) {
    case 'provider':
      return {
        kind: 'provider',
        provider: declaration.provider,
        model: declaration.model,
        ...(declaration.baseUrl !== undefined ? { baseUrl: recordedUrl(declaration.baseUrl) } : {}),
        ...(declaration.apiKeyEnv !== undefined ? { apiKeyEnv: declaration.apiKeyEnv } : {}),
        ...(declaration.headers !== undefined ? { headers: recordedHeaders(declaration.headers) } : {}),
        ...(declaration.params !== undefined ? { params: structuredClone(declaration.params) } : {}),
        ...operational,
      };
    case 'http': {
      const { url, headers, body, output, toolCalls, usage } = declaration.http;
      return {
        kind: 'http',
        http: {
          url: recordedUrl(url),
          ...(headers !== undefined ? { headers: recordedHeaders(headers) } : {}),
          body,
          output,
          ...(toolCalls !== undefined ? { toolCalls } : {}),
          ...(usage !== undefined ? { usage } : {}),
        },
        ...operational,
      };
    }
    case 'module':
      return { kind: 'module', module: declaration.module, ...operational };
    case 'exec':
      return { kind: 'exec', exec: [...declaration.exec], ...operational };
  }
}

/**
 * A URL without its user part, whole: `redactUrlCredentials` (which also hides credential-named
 * query values) keeps a user name, which tells an account apart on a command line, but a user
 * name with no password is often the token itself (`https://TOKEN@host/`), and the record needs
 * neither. The part ends at the last `@` before the query, as a password may hold `@` or `/`.
 */
function recordedUrl(url: string): string {
  const redacted = redactUrlCredentials(url);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(redacted);
  if (!scheme) return redacted;
  const queryAt = redacted.indexOf('?');
  const at = redacted.lastIndexOf('@', queryAt === -1 ? redacted.length : queryAt);
  return at < scheme[0].length ? redacted : `${scheme[0]}${HIDDEN_CREDENTIAL}${redacted.slice(at)}`;
}

function recordedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, hasEnvReference(value) ? value : HIDDEN_CREDENTIAL]));
}

function pick(declaration: ModelDeclaration, fields: readonly string[]): Record<string, unknown> {
  const source = declaration as unknown as Record<string, unknown>;
  return Object.fromEntries(fields.filter((field) => source[field] !== undefined).map((field) => [field, structuredClone(source[field])]));
}

/** The part of a recorded declaration that says which system answers: all but {@link OPERATIONAL_FIELDS}. */
export function declarationIdentity(recorded: RecordedDeclaration): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(recorded).filter(([field]) => !(OPERATIONAL_FIELDS as readonly string[]).includes(field)));
}

/** sha256 of the identity's canonical JSON: equal for equal declarations whatever order the file wrote their keys in. */
export function declarationHash(recorded: RecordedDeclaration): string {
  return sha256(canonicalJson(declarationIdentity(recorded)));
}

/** One field two declarations disagree on, with both values as recorded (no secrets: they are recorded forms). */
export interface DeclarationDifference {
  /** Dotted, as the file writes it: `params.temperature`, `http.headers.Authorization`, `exec[1]`. */
  readonly field: string;
  readonly stored: unknown;
  readonly current: unknown;
}

/**
 * The first field (in the current declaration's order, then fields only the stored one has) where
 * two recorded declarations' identities differ, or undefined when they are the same system. For
 * "a resume whose declaration changed is refused, naming the field".
 */
export function firstDeclarationDifference(stored: RecordedDeclaration, current: RecordedDeclaration): DeclarationDifference | undefined {
  return firstDifference(declarationIdentity(stored), declarationIdentity(current), '');
}

function firstDifference(stored: unknown, current: unknown, at: string): DeclarationDifference | undefined {
  if (canonicalJson(stored) === canonicalJson(current)) return undefined;
  if (Array.isArray(stored) && Array.isArray(current)) {
    for (let i = 0; i < Math.max(stored.length, current.length); i++) {
      const found = firstDifference(stored[i], current[i], `${at}[${i}]`);
      if (found) return found;
    }
  } else if (isRecord(stored) && isRecord(current)) {
    const fields = [...new Set([...Object.keys(current), ...Object.keys(stored)])];
    for (const field of fields) {
      const found = firstDifference(stored[field], current[field], at === '' ? field : `${at}.${field}`);
      if (found) return found;
    }
  }
  return { field: at, stored, current };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The one line refusing a session whose declaration of `name` is not the recorded one, or
 * undefined when they are the same system (`what`: "the resume", "this worker").
 */
export function declarationChangeMessage(name: string, stored: RecordedDeclaration, current: RecordedDeclaration, what = 'this session'): string | undefined {
  const difference = firstDeclarationDifference(stored, current);
  if (!difference) return undefined;
  const show = (value: unknown) => (value === undefined ? '(not set)' : JSON.stringify(value));
  return `model "${name}": ${what} declares it differently from the run's record: ${difference.field} was ${show(difference.stored)}, is ${show(difference.current)}; measure the changed system in a new run, or restore the declaration`;
}
