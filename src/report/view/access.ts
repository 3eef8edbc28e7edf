import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The cookie that carries the access token after the first visit (`?token=` in the printed URL). */
export const TOKEN_COOKIE = 'assay_view_token';

/** Who may reach the viewer: the names its Host header may carry, and the token, when one is needed. */
export interface AccessPolicy {
  readonly port: number;
  /** Host names (lower case, IPv6 without brackets) a request's Host header may name. */
  readonly hosts: ReadonlySet<string>;
  /** Required on every request when the server is bound to anything but loopback; undefined on loopback. */
  readonly token: string | undefined;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** Whether binding to `host` keeps the viewer on this machine (no token needed). */
export function isLoopback(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** A fresh token: 32 random bytes, URL-safe. */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/**
 * The policy for a server bound to `host` on `port`. The Host header may name loopback, the bound
 * address, or — bound to every interface (0.0.0.0, ::) — one of this machine's addresses
 * (`interfaceAddresses`); any other name is refused, so a page on another site whose name is made
 * to resolve here (DNS rebinding) cannot read the viewer.
 */
export function accessPolicy(host: string, port: number, interfaceAddresses: readonly string[], token = newAccessToken()): AccessPolicy {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  const wildcard = bare === '0.0.0.0' || bare === '::';
  const hosts = new Set([...LOOPBACK, bare, ...(wildcard ? interfaceAddresses.map((a) => a.toLowerCase()) : [])]);
  return { port, hosts, token: isLoopback(host) ? undefined : token };
}

/** Reads a Host header's name and port (`[::1]:8080`, `example:80`, `127.0.0.1`); undefined when it is not one. */
export function parseHostHeader(value: string | undefined): { name: string; port: number | undefined } | undefined {
  if (!value) return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return undefined;
  const name = (match[1] ?? match[2] ?? '').toLowerCase();
  if (match[1] !== undefined && isIP(name) !== 6) return undefined;
  return { name, port: match[3] === undefined ? undefined : Number(match[3]) };
}

/** Whether the Host header names this server: an allowed name and, when a port is given, its port. */
export function hostAllowed(policy: AccessPolicy, header: string | undefined): boolean {
  const host = parseHostHeader(header);
  if (!host || !policy.hosts.has(host.name)) return false;
  return host.port === undefined ? policy.port === 80 : host.port === policy.port;
}

/** Compares in constant time (both sides hashed to the same length first, so the length leaks nothing either). */
export function tokensEqual(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token a request carries: `?token=`, then `Authorization: Bearer`, then the cookie. */
export function presentedToken(url: URL, authorization: string | undefined, cookie: string | undefined): string | undefined {
  const query = url.searchParams.get('token');
  if (query !== null) return query;
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (bearer) return bearer[1];
  for (const part of (cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return value.join('=');
  }
  return undefined;
}

/** Whether a request may be answered: its Host names this server and, when a token is needed, it carries the right one. */
export function accessDecision(policy: AccessPolicy, request: { host: string | undefined; url: URL; authorization?: string | undefined; cookie?: string | undefined }): 'ok' | 'bad-host' | 'no-token' {
  if (!hostAllowed(policy, request.host)) return 'bad-host';
  if (policy.token === undefined) return 'ok';
  const given = presentedToken(request.url, request.authorization, request.cookie);
  return given !== undefined && tokensEqual(given, policy.token) ? 'ok' : 'no-token';
}
