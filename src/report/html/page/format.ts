// Number formats of the report page: shares as percentages, counts as integers, means as numbers.

type Unit = 'share' | 'count' | 'number';

function fmtShare(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** `1.600` → `1.6`, `2.000` → `2`: the digits a number needs, never zeros that say nothing. */
const trimZeros = (fixed: string): string => (fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed);

/** A number for people: integers grouped, others to at most 3 decimals (1 from 100 up), without trailing zeros. */
function fmtNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return trimZeros(Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3));
}

/** As the console reads units: a "share" above 1 is not a share after all, so it is shown as a number. */
function fmtValue(unit: Unit, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  if (unit === 'count') return value.toLocaleString('en-US');
  if (unit === 'share' && Math.abs(value) <= 1) return fmtShare(value);
  return fmtNumber(value);
}

function fmtInterval(unit: Unit, low: number | null | undefined, high: number | null | undefined): string {
  if (low === null || low === undefined || high === null || high === undefined) return '';
  return `[${fmtValue(unit, low)}, ${fmtValue(unit, high)}]`;
}

function fmtUsd(value: number | null): string {
  return value === null ? 'unknown' : `$${value.toFixed(4)}`;
}

function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}
