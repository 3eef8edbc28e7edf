/** Header map as undici returns it: lower-case names, repeated headers as arrays. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

function firstHeader(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long the server asks us to wait, in ms: `retry-after-ms` (milliseconds, an OpenAI
 * extension) wins over the standard `Retry-After` (delta-seconds or an HTTP date). Returns
 * `undefined` when neither header is present or readable; a date in the past gives 0.
 */
export function parseRetryAfterMs(headers: ResponseHeaders, now: number = Date.now()): number | undefined {
  const msText = firstHeader(headers, 'retry-after-ms');
  if (msText !== undefined && msText.trim() !== '') {
    const ms = Number(msText);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  const text = firstHeader(headers, 'retry-after')?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // HTTP dates always name a month or weekday; V8's lenient Date.parse would read "-3" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
