import { decodeQueryComponent, HIDDEN_CREDENTIAL, InputError, isSecretParameter, redactUrlCredentials } from '../../core/index.js';

/** Trimmed text, or undefined when missing or blank (an empty environment variable means "not set"). */
export const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/**
 * Parses a provider's base URL, refusing anything but http(s). `what` names it in the message
 * (e.g. "Anthropic base URL"), `example` shows a good one.
 */
export function parseBaseURL(what: string, baseURL: string, example: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    throw new InputError(`${what} "${redactUrlCredentials(baseURL)}" is not a URL; expected e.g. ${example}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(`${what} "${redactUrlCredentials(baseURL)}" must start with http:// or https://`);
  }
  return parsed;
}

/**
 * A request's address as messages show it: `origin` + `path` (which holds the base URL's query)
 * with credentials hidden, and any path segment or query value equal to one of `secrets` (the
 * endpoint's key in the path, as some gateways take it).
 */
export const shownUrl = (origin: string, path: string, secrets: readonly string[] = []): string => redactUrlCredentials(`${origin}${path}`, (value) => secrets.includes(value));

/** The base URL's path without trailing slashes, so that `${prefix}/v1/messages` never has `//`. */
export const pathPrefix = (url: URL): string => url.pathname.replace(/\/+$/, '');

/**
 * What an endpoint must never let be stored or shown: its key, and the credentials its base URL
 * carries — the user part's password and the values of query parameters named like credentials
 * (`key=`, `token=`, `sig=`…; `isSecretParameter`) —, so a server echoing one back has it
 * redacted like a key.
 */
export function endpointSecrets(url: URL, apiKey: string | undefined): string[] {
  const secrets: string[] = apiKey !== undefined ? [apiKey] : [];
  if (url.password !== '') secrets.push(url.password, safeDecode(url.password));
  const basic = basicCredentials(url);
  if (basic !== undefined) secrets.push(basic);
  for (const pair of url.search.slice(1).split('&')) {
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    // As written and decoded: a server may echo either.
    if (eq !== -1 && value !== '' && isSecretParameter(pair.slice(0, eq))) secrets.push(value, decodeQueryComponent(value));
  }
  return secrets;
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The user part of a base URL as HTTP Basic credentials (base64 of `user:password`, decoded), or undefined without one. */
export function basicCredentials(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  return Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64');
}

const HIDDEN = HIDDEN_CREDENTIAL.replace(/\*/g, '\\*');
const HIDDEN_SPOT = new RegExp(`:${HIDDEN}@|=${HIDDEN}(?:[&#]|$)|/${HIDDEN}(?:[/?#]|$)`);

/**
 * Whether `full` is `recorded` with its hidden spots filled: each `***` stands for a password
 * (after `:`, before `@`), a query value (after `=`) or a path segment (after `/`) — a run hides
 * query values and path segments that equal one of its keys, whatever their name, which a plain
 * redaction of `full` would not hide again.
 */
export function fillsHidden(recorded: string, full: string): boolean {
  const parts = recorded.split(HIDDEN_CREDENTIAL);
  let pattern = '';
  for (const [i, part] of parts.entries()) {
    pattern += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (i === parts.length - 1) break;
    const before = part.at(-1);
    pattern += before === '=' ? '[^&#]+' : before === '/' ? '[^/?#]+' : '[^?#]+';
  }
  return new RegExp(`^${pattern}$`).test(full);
}

/**
 * A base URL as a run records it has its credentials hidden (`***`, `redactUrlCredentials`). A
 * session that continues the run in a process (a resume) gets them back from the environment's
 * URL (`variable`) when that is the same URL with them; otherwise it is refused, since calling
 * with `***` could only fail. (A queue's worker never calls a recorded URL: it calls its own,
 * `withWorkerEndpoint` in `runner/recorded-base-url.ts`.)
 */
export function restoreCredentials(what: string, baseURL: string, variable: string, environment: string | undefined): string {
  if (!HIDDEN_SPOT.test(baseURL) || redactUrlCredentials(baseURL) !== baseURL) return baseURL;
  if (environment !== undefined && fillsHidden(baseURL, environment)) return environment;
  throw new InputError(`${what} "${baseURL}" has its credentials hidden (a run stores none): give the full URL with --base-url or ${variable}`);
}
