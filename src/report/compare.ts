import { visibleControls } from '../core/index.js';
import type { ComparedRun, ModelComparison, RunComparison } from '../analysis/compare/run-comparison.js';
import type { PassFailComparison } from '../analysis/compare/pass-fail.js';

/** Sample ids shown per bucket on the console (`--json` lists them all). */
const IDS_SHOWN = 5;

const fixed = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
const signed = (v: number | null): string => (v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(3)}`);
const pValue = (p: number | null): string => (p === null ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));
const interval = (i: { low: number; high: number } | null): string => (i === null ? '—' : `[${signed(i.low)}, ${signed(i.high)}]`);
const when = (iso: string): string => iso.slice(0, 19).replace('T', ' ');
const runLine = (label: string, run: ComparedRun): string => visibleControls(`  run ${label} ${run.id} (${when(run.createdAt)} UTC, ${run.status}, task version ${run.taskVersion})`);

function ids(list: readonly string[]): string {
  // Sample ids are the data's: each shown on one line, whatever it holds.
  const shown = list.slice(0, IDS_SHOWN).map((id) => visibleControls(id)).join(', ');
  return list.length > IDS_SHOWN ? `${shown}, … (${list.length - IDS_SHOWN} more)` : shown;
}

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: readonly (readonly string[])[], indent: string): string[] {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => `${indent}${r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ')}`.trimEnd());
}

/** What each bucket holds: a pair's move without repeats, a sample's share of passing repeats with them. */
function bucketNames(bySample: boolean): readonly [string, string, string, string] {
  return bySample
    ? ['newly failing (lower pass share in B)', 'newly passing (higher pass share in B)', 'still failing (no pass on either side)', 'unchanged (the same share, some passing)']
    : ['newly failing (A pass, B fail)', 'newly passing (A fail, B pass)', 'still failing (fail on both)', 'unchanged (pass on both)'];
}

function passFailRow(pf: PassFailComparison): string[] {
  const name = pf.passMeans === 'pass' ? 'pass rate' : `pass rate (pass = ${pf.passMeans})`;
  const head = [name, String(pf.decided), fixed(pf.rateA), fixed(pf.rateB), signed(pf.difference), interval(pf.interval)];
  if (pf.intervalMethod === 'newcombe-paired-hybrid-score') return [...head, pValue(pf.decided > 0 ? pf.mcnemar.exactP : null), 'McNemar exact'];
  return [...head, pValue(pf.test.p), `sign-flip${pf.test.exact ? ' (exact)' : ` (${pf.test.resamples ?? 0} draws)`}`];
}

function passFailLines(pf: PassFailComparison): string[] {
  if (pf.intervalMethod === 'newcombe-paired-hybrid-score') {
    const chi = pf.mcnemar.chiSquare === null ? '' : `, χ² with continuity correction ${pf.mcnemar.chiSquare.toFixed(3)}`;
    return [
      `  pass rate: over the ${pf.decided} samples with a pass or a fail on both sides (${pf.noVerdict} without a verdict on a side left out);`,
      `    interval: Newcombe (1998) method 10; McNemar on ${pf.mcnemar.firstOnly} newly failing vs ${pf.mcnemar.secondOnly} newly passing${chi}`,
    ];
  }
  const b = pf.buckets;
  return [
    `  pass rate: the mean over the ${pf.decided} samples with a pass or a fail on both sides of each sample's share of passing repeats (${pf.noVerdict} without a verdict on a side left out);`,
    `    interval: cluster bootstrap over samples (percentile), ${pf.bootstrapResamples} resamples; sign-flip test on the per-sample differences: higher in B ${b.newlyPassing.length}, lower in B ${b.newlyFailing.length}, equal ${b.stillFailing.length + b.unchanged.length}`,
  ];
}

function modelLines(m: ModelComparison): string[] {
  const title = visibleControls(m.modelA === m.modelB ? m.modelA : `${m.modelA} (A) vs ${m.modelB} (B)`);
  const { shared, onlyInA, onlyInB, inputDiffers, errors } = m.samples;
  // Said only when some: a comparison of the same questions reads as before.
  const differ = inputDiffers > 0 ? `, ${inputDiffers} input differs (one id, another question: not paired)` : '';
  const lines = [title, `  samples: ${shared} in both runs, ${onlyInA} only in A, ${onlyInB} only in B${differ}; ${errors} ended in error on a side (left out of every figure)`];
  // Runs with repeats only: the unit of every figure below.
  if (m.pairing) lines.push(`  ${m.pairing.description}`);
  const rows: string[][] = [['', 'n', 'A', 'B', 'B − A', '95% interval', 'p', 'test']];
  const { passFail: pf, value: v } = m;
  if (pf) rows.push(passFailRow(pf));
  if (v) rows.push([`mean ${v.valueMeans}`, String(v.decided), fixed(v.meanA), fixed(v.meanB), signed(v.difference), interval(v.interval), pValue(v.test.p), `sign-flip${v.test.exact ? ' (exact)' : ` (${v.test.resamples ?? 0} draws)`}`]);
  lines.push('', ...table(rows, '  '));
  if (pf) lines.push(...passFailLines(pf));
  if (v) {
    const bySample = v.intervalMethod === 'cluster-percentile-bootstrap';
    lines.push(
      bySample
        ? `  mean ${v.valueMeans}: over the ${v.decided} samples with a number on both sides, each side the mean over its repeats (${v.noVerdict} without one left out);`
        : `  mean ${v.valueMeans}: over the ${v.decided} samples with a number on both sides (${v.noVerdict} without one left out);`,
      `    interval: ${bySample ? 'cluster bootstrap over samples (percentile)' : 'paired bootstrap'}, ${v.bootstrapResamples} resamples; higher in B ${v.higher}, lower in B ${v.lower}, equal ${v.equal}`,
    );
  }
  if (pf) {
    const b = pf.buckets;
    const [failing, passing, still, unchanged] = bucketNames(m.pairing !== undefined);
    const bucketRows = [
      [failing, b.newlyFailing],
      [passing, b.newlyPassing],
      [still, b.stillFailing],
      [unchanged, b.unchanged],
      ['no verdict on a side', b.noVerdict],
      ['error on a side', m.errorIds],
    ] as const;
    lines.push('', ...table(bucketRows.map(([name, list]) => [name, String(list.length), ids(list)]), '  '));
  } else if (m.errorIds.length > 0) lines.push(`  error on a side: ${m.errorIds.length}  ${ids(m.errorIds)}`);
  return lines;
}

/** The console form of `assay compare`: per model pair, a table of B against A, then the buckets with their first ids. */
export function renderComparison(c: RunComparison): string {
  const lines = [visibleControls(`compare ${c.task}: B against A`), runLine('A', c.runA), runLine('B', c.runB), ...c.notes.map((n) => visibleControls(`note: ${n}`))];
  for (const m of c.comparisons) lines.push('', ...modelLines(m));
  return `${lines.join('\n')}\n`;
}
