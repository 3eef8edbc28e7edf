import { InputError } from '../../core/index.js';

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
    throw new InputError(`${what} "${baseURL}" is not a URL; expected e.g. ${example}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(`${what} "${baseURL}" must start with http:// or https://`);
  }
  return parsed;
}

/** The base URL's path without trailing slashes, so that `${prefix}/v1/messages` never has `//`. */
export const pathPrefix = (url: URL): string => url.pathname.replace(/\/+$/, '');
