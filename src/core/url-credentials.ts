/** What a hidden credential is shown as. */
export const HIDDEN_CREDENTIAL = '***';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * Query parameters whose values are credentials: passwords, keys, tokens, signatures (`key=`,
 * `api_key=`, `access_token=`, `sig=`, `X-Amz-Signature=`, `sslpassword=`…). Over-matching only
 * hides a value from what is shown and stored.
 */
const SECRET_PARAMETER = /^(?:.*(?:pass(?:word|wd)?|secret|token|signature|credential|auth)|(?:.*[_-])?(?:api-?)?key|apikey|sig|pwd)$/i;

/** Whether a query parameter's name says its value is a credential. */
export function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETER.test(decodeQueryComponent(name));
}

/** A query component decoded (`+` is a space); a malformed escape leaves it as written. */
export function decodeQueryComponent(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return component;
  }
}

/**
 * A URL as it may be shown or stored: the password of its user part and the values of query
 * parameters named like credentials become `***` (the user name stays: it tells which account).
 * Works on text that does not parse as a URL too (a message about a bad URL shows it), and leaves
 * text without a `scheme://` as it is. The one redaction of store URLs (`--db`, `--to`/`--from`),
 * Redis URLs and model base URLs (`--base-url`). `isSecret` adds the parameters, and the path
 * segments (`https://gw.example/sk-…/v1`: some gateways take the key there), whose value as
 * written or decoded is a secret known otherwise, whatever their name (a run's keys).
 */
export function redactUrlCredentials(text: string, isSecret: (value: string) => boolean = () => false): string {
  const scheme = SCHEME.exec(text);
  if (!scheme) return text;
  const start = scheme[0].length;
  const queryAt = text.indexOf('?', start);
  const end = queryAt === -1 ? text.length : queryAt;
  // The user part ends at the last `@` before the query: a password may hold `@` or `/` unescaped.
  const at = text.lastIndexOf('@', end);
  let head = text.slice(0, end);
  if (at >= start) {
    const colon = text.indexOf(':', start);
    if (colon !== -1 && colon < at) head = `${text.slice(0, colon + 1)}${HIDDEN_CREDENTIAL}${text.slice(at, end)}`;
  }
  head = hideSecretSegments(head, Math.max(start, head.lastIndexOf('@') + 1), isSecret);
  if (queryAt === -1) return head;
  const hashAt = text.indexOf('#', queryAt);
  const query = text.slice(queryAt + 1, hashAt === -1 ? text.length : hashAt);
  const fragment = hashAt === -1 ? '' : text.slice(hashAt);
  const parameters = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    const value = pair.slice(eq + 1);
    if (!isSecretParameter(pair.slice(0, eq)) && !isSecret(value) && !isSecret(decodeQueryComponent(value))) return pair;
    return `${pair.slice(0, eq + 1)}${HIDDEN_CREDENTIAL}`;
  });
  return `${head}?${parameters.join('&')}${fragment}`;
}

/** The path segments of `head` (the URL before its query; its authority from `authorityAt`) that are secrets, as `***`. */
function hideSecretSegments(head: string, authorityAt: number, isSecret: (value: string) => boolean): string {
  const hashAt = head.indexOf('#', authorityAt);
  const pathEnd = hashAt === -1 ? head.length : hashAt;
  const pathAt = head.indexOf('/', authorityAt);
  if (pathAt === -1 || pathAt > pathEnd) return head;
  const segments = head.slice(pathAt, pathEnd).split('/').map((segment) => (segment !== '' && (isSecret(segment) || isSecret(decodePathSegment(segment))) ? HIDDEN_CREDENTIAL : segment));
  return `${head.slice(0, pathAt)}${segments.join('/')}${head.slice(pathEnd)}`;
}

/** A path segment decoded (`+` stays a plus); a malformed escape leaves it as written. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
