/**
 * The viewer's URLs, read into what to answer. Pure: the server does the reading of the store.
 * Run ids in URLs are checked against a strict pattern before any store read, and are full ids
 * (never prefixes).
 */
export type Route =
  /** The run list page. */
  | { readonly kind: 'list-page' }
  /** The report page of one or more runs (side by side). */
  | { readonly kind: 'report-page'; readonly runs: readonly string[] }
  /** JSON: every run's progress, newest first. */
  | { readonly kind: 'runs' }
  /** JSON: the report bundle's summaries (no sample index, no details). */
  | { readonly kind: 'report'; readonly runs: readonly string[] }
  /** JSON: these runs' progress (what an open page polls). */
  | { readonly kind: 'progress'; readonly runs: readonly string[] }
  /** JSON: a run's sample index. */
  | { readonly kind: 'samples'; readonly run: string }
  /** JSON: one index row's full detail. */
  | { readonly kind: 'detail'; readonly run: string; readonly row: number };

export type RouteError = { readonly kind: 'error'; readonly status: 400 | 404 | 405; readonly message: string };

/** Letters, digits and `._:-`, starting with a letter or digit: every id assay makes (`20260301-120000-ab12`) and nothing a path or a query could hide in. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** At most this many runs side by side. */
export const MAX_RUNS = 12;

function runList(url: URL): readonly string[] | RouteError {
  const text = url.searchParams.get('runs') ?? '';
  const runs = text.split(',').filter((r) => r !== '');
  if (runs.length === 0) return { kind: 'error', status: 400, message: 'give ?runs=<run id>[,<run id>…]' };
  if (runs.length > MAX_RUNS) return { kind: 'error', status: 400, message: `at most ${MAX_RUNS} runs side by side` };
  const bad = runs.find((r) => !RUN_ID_PATTERN.test(r));
  if (bad !== undefined) return { kind: 'error', status: 400, message: 'not a run id' };
  if (new Set(runs).size !== runs.length) return { kind: 'error', status: 400, message: 'a run is named twice' };
  return runs;
}

const isError = (value: unknown): value is RouteError => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'error';

export function route(method: string, url: URL): Route | RouteError {
  if (method !== 'GET' && method !== 'HEAD') return { kind: 'error', status: 405, message: 'the viewer only reads: GET' };
  const path = url.pathname;
  if (path === '/') return { kind: 'list-page' };
  if (path === '/api/runs') return { kind: 'runs' };
  if (path === '/report' || path === '/api/report' || path === '/api/progress') {
    const runs = runList(url);
    if (isError(runs)) return runs;
    return path === '/report' ? { kind: 'report-page', runs } : path === '/api/report' ? { kind: 'report', runs } : { kind: 'progress', runs };
  }
  const samples = /^\/api\/runs\/([^/]+)\/samples(?:\/([^/]+))?$/.exec(path);
  if (samples) {
    // Run ids need no escaping: a percent sign (or anything else) in this segment is simply not one.
    const run = samples[1] as string;
    if (!RUN_ID_PATTERN.test(run)) return { kind: 'error', status: 400, message: 'not a run id' };
    if (samples[2] === undefined) return { kind: 'samples', run };
    if (!/^\d{1,9}$/.test(samples[2])) return { kind: 'error', status: 400, message: 'a row is a number' };
    return { kind: 'detail', run, row: Number(samples[2]) };
  }
  return { kind: 'error', status: 404, message: 'no such page' };
}
