// The comparison page (`assay compare <A> <B> -o file.html`): per model pair the differences B − A
// with their 95% intervals drawn as a forest plot, the paired tests and their p, and the samples
// in buckets (newly failing, newly passing, still failing, unchanged, no verdict, error), each
// sample opening run A's and run B's details side by side from what the file carries. Run A is
// the bundle's first run, run B its second. Every text goes in as text (dom.ts).

const BUCKET_PAGE = 50;

const signed = (v: number | null): string => (v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(3)}`);
const fixed3 = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
const pText = (p: number | null): string => (p === null ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));
const signedInterval = (i: PageInterval | null): string => (i === null ? '—' : `[${signed(i.low)}, ${signed(i.high)}]`);
const pairTitle = (m: PageModelComparison): string => (m.modelA === m.modelB ? m.modelA : `${m.modelA} (A) vs ${m.modelB} (B)`);

interface ForestRow {
  readonly label: string;
  readonly model: string;
  readonly metric: string;
  readonly difference: number | null;
  readonly interval: PageInterval | null;
}

/**
 * A forest plot: one row per model pair, the difference as a dot on its 95% interval, a line at
 * zero (no difference). The axis is symmetric around zero; a pass rate's never wider than ±1.
 * Rows carry data-model / data-metric / data-difference / data-low / data-high for readers and tests.
 */
function forestChart(metric: string, title: string, rows: readonly ForestRow[], share: boolean): SVGElement {
  const left = 230;
  const right = 190;
  const plot = 340;
  const rowHeight = 30;
  const top = 14;
  const width = left + plot + right;
  const height = top + rows.length * rowHeight + 34;
  const bounds = rows.flatMap((r) => [r.difference, r.interval?.low ?? null, r.interval?.high ?? null]).filter((v): v is number => v !== null && Number.isFinite(v));
  const extent = share ? Math.min(1, niceMax(Math.max(0.05, ...bounds.map(Math.abs)))) : niceMax(Math.max(...bounds.map(Math.abs), 1e-9));
  const x = (v: number): number => left + ((Math.max(-extent, Math.min(extent, v)) + extent) / (2 * extent)) * plot;
  const bottom = top + rows.length * rowHeight;
  const svg = svgEl('svg', { class: 'chart forest', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-chart': `forest-${metric}` });
  svg.appendChild(svgEl('title', {}, title));
  for (const tick of [-extent, -extent / 2, 0, extent / 2, extent]) {
    svg.appendChild(svgEl('line', { x1: x(tick), x2: x(tick), y1: top - 4, y2: bottom, class: tick === 0 ? 'zero' : 'grid' }));
    svg.appendChild(svgEl('text', { x: x(tick), y: bottom + 16, 'text-anchor': 'middle', class: 'tick' }, signed(tick)));
  }
  svg.appendChild(svgEl('text', { x: left + plot / 2, y: bottom + 30, 'text-anchor': 'middle', class: 'label' }, '← lower in B · B − A · higher in B →'));
  rows.forEach((row, i) => {
    const y = top + i * rowHeight + rowHeight / 2;
    const g = svgEl('g', {
      class: 'forest-row',
      'data-model': row.model,
      'data-metric': row.metric,
      'data-difference': row.difference === null ? 'n/a' : String(row.difference),
      'data-low': row.interval ? String(row.interval.low) : 'n/a',
      'data-high': row.interval ? String(row.interval.high) : 'n/a',
    });
    g.appendChild(svgEl('text', { x: left - 10, y: y + 4, 'text-anchor': 'end', class: 'label' }, shorten(row.label, 34)));
    if (row.interval) {
      const [x1, x2] = [x(row.interval.low), x(row.interval.high)];
      g.appendChild(svgEl('line', { x1, x2, y1: y, y2: y, class: 'ci-line' }));
      for (const end of [x1, x2]) g.appendChild(svgEl('line', { x1: end, x2: end, y1: y - 6, y2: y + 6, class: 'ci-line' }));
    }
    if (row.difference !== null) g.appendChild(svgEl('circle', { cx: x(row.difference), cy: y, r: 5, class: 'estimate' }));
    g.appendChild(svgEl('text', { x: left + plot + 12, y: y + 4, class: 'tick' }, `${signed(row.difference)} ${signedInterval(row.interval)}`));
    svg.appendChild(g);
  });
  return svg;
}

/** Run A's and run B's rows by sample and model (a run with repeats has one per repeat, in order), read once from the file (or the viewer). */
interface PairLookup {
  readonly source: ReportSource;
  readonly rows: readonly Map<string, number[]>[];
}

const rowKey = (sample: string, model: string): string => `${sample}\u0000${model}`;

async function pairLookup(source: ReportSource): Promise<PairLookup> {
  const rows: Map<string, number[]>[] = [];
  for (const run of [0, 1]) {
    const { index } = await source.samples(run);
    const map = new Map<string, number[]>();
    for (let row = 0; row < index.rows.sample.length; row++) {
      const key = rowKey(index.ids[index.rows.sample[row] as number] ?? '', index.models[index.rows.model[row] as number] ?? '');
      const found = map.get(key);
      if (found) found.push(row);
      else map.set(key, [row]);
    }
    rows.push(map);
  }
  return { source, rows };
}

async function sideEl(lookup: PairLookup, run: number, sample: string, model: string): Promise<HTMLElement> {
  const label = `run ${run === 0 ? 'A' : 'B'} · ${lookup.source.bundle.runs[run]?.overview.run ?? ''}`;
  // Every answer of the sample on this side: one without repeats, each repeat's (labelled by its detail) with them.
  const rows = lookup.rows[run]?.get(rowKey(sample, model)) ?? [];
  const details = [];
  for (const row of rows) {
    const detail = await lookup.source.detail(run, row);
    if (detail) details.push(detailEl(detail, label, undefined, rows.length));
  }
  if (details.length > 0) return el('div', { class: 'side', data: { side: run === 0 ? 'A' : 'B' } }, ...details);
  const policy = lookup.source.bundle.runs[run]?.detailsPolicy;
  const why = rows.length === 0 ? 'has no result for it' : `carries the details of ${policy?.included ?? 0} of ${policy?.rows ?? 0} rows; make it again with --details all to see this one`;
  return el('div', { class: 'side', data: { side: run === 0 ? 'A' : 'B' } }, el('h3', null, `${sample} · ${model}`), el('p', { class: 'note' }, `${label}: this file ${why}.`));
}

async function showPair(lookup: PairLookup, m: PageModelComparison, sample: string, host: HTMLElement): Promise<void> {
  clear(host);
  host.appendChild(el('p', { class: 'note' }, 'loading…'));
  try {
    const [a, b] = [await sideEl(lookup, 0, sample, m.modelA), await sideEl(lookup, 1, sample, m.modelB)];
    clear(host);
    host.appendChild(el('div', { class: 'pair', data: { sample } }, a, b));
  } catch (error) {
    clear(host);
    host.appendChild(el('p', { class: 'bad' }, `could not load the sample: ${String(error)}`));
  }
}

/** The buckets of one model pair as buttons; one opens its samples (paged), a sample opens both runs' details. */
function bucketsEl(lookup: Promise<PairLookup>, m: PageModelComparison): HTMLElement {
  const b = m.passFail?.buckets;
  // With repeats a sample moves by its share of passing repeats.
  const bySample = m.pairing !== undefined;
  const buckets: (readonly [string, string, readonly string[]])[] = b
    ? [
        ['newly-failing', bySample ? 'newly failing (lower pass share in B)' : 'newly failing (A pass, B fail)', b.newlyFailing],
        ['newly-passing', bySample ? 'newly passing (higher pass share in B)' : 'newly passing (A fail, B pass)', b.newlyPassing],
        ['still-failing', bySample ? 'still failing (no pass on either side)' : 'still failing (fail on both)', b.stillFailing],
        ['unchanged', bySample ? 'unchanged (the same share, some passing)' : 'unchanged (pass on both)', b.unchanged],
        ['no-verdict', 'no verdict on a side', b.noVerdict],
        ['error', 'error on a side', m.errorIds],
      ]
    : [
        ['no-verdict', 'no number on a side', m.value?.noVerdictIds ?? []],
        ['error', 'error on a side', m.errorIds],
      ];
  const bar = el('div', { class: 'buckets' });
  const list = el('div', { class: 'bucket-list' });
  const pair = el('div', { class: 'pair-host' });
  const open = (key: string, label: string, ids: readonly string[], page: number): void => {
    for (const button of bar.querySelectorAll('button')) button.classList.toggle('active', button.dataset['bucket'] === key);
    clear(list);
    const start = page * BUCKET_PAGE;
    const shown = ids.slice(start, start + BUCKET_PAGE);
    const prev = el('button', { type: 'button' }, '‹ previous');
    const next = el('button', { type: 'button' }, 'next ›');
    prev.disabled = page === 0;
    next.disabled = start + BUCKET_PAGE >= ids.length;
    prev.addEventListener('click', () => open(key, label, ids, page - 1));
    next.addEventListener('click', () => open(key, label, ids, page + 1));
    const items = shown.map((id) => {
      const button = el('button', { type: 'button', class: 'link', data: { sample: id } }, id);
      button.addEventListener('click', () => void lookup.then((l) => showPair(l, m, id, pair)));
      return el('li', null, button);
    });
    list.append(
      el('h4', null, label),
      ids.length === 0 ? el('p', { class: 'note' }, 'no sample') : el('p', { class: 'pager' }, prev, el('span', { class: 'count', data: { total: String(ids.length) } }, ` ${start + 1}–${start + shown.length} of ${ids.length} `), next),
      el('ul', { class: 'sample-ids', data: { bucket: key } }, ...items),
    );
  };
  for (const [key, label, ids] of buckets) {
    const button = el('button', { type: 'button', class: 'bucket', data: { bucket: key, count: String(ids.length) } }, `${label}: ${ids.length}`);
    button.addEventListener('click', () => open(key, label, ids, 0));
    bar.appendChild(button);
  }
  return el('div', { class: 'bucket-browser' }, bar, list, pair);
}

function statsTable(m: PageModelComparison): HTMLTableElement {
  const rows: Child[][] = [];
  const pf = m.passFail;
  const v = m.value;
  if (pf) {
    const name = pf.passMeans === 'pass' ? 'pass rate' : `pass rate (pass = ${pf.passMeans})`;
    const head = [name, String(pf.decided), fixed3(pf.rateA), fixed3(pf.rateB), signed(pf.difference), signedInterval(pf.interval)];
    if (pf.intervalMethod === 'newcombe-paired-hybrid-score') rows.push([...head, pText(pf.decided > 0 ? pf.mcnemar.exactP : null), `McNemar exact (${pf.mcnemar.firstOnly} newly failing vs ${pf.mcnemar.secondOnly} newly passing)`]);
    else rows.push([...head, pText(pf.test.p), `sign-flip ${pf.test.exact ? '(exact)' : `(${pf.test.resamples ?? 0} draws)`} on the per-sample differences; higher in B ${pf.buckets.newlyPassing.length}, lower ${pf.buckets.newlyFailing.length}`]);
  }
  if (v) rows.push([`mean ${v.valueMeans}`, String(v.decided), fixed3(v.meanA), fixed3(v.meanB), signed(v.difference), signedInterval(v.interval), pText(v.test.p), `sign-flip ${v.test.exact ? '(exact)' : `(${v.test.resamples ?? 0} draws)`}; higher in B ${v.higher}, lower ${v.lower}, equal ${v.equal}`]);
  const t = table(['', 'n', 'A', 'B', 'B − A', '95% interval', 'p', 'test'], rows, 'grid metrics comparison-stats');
  t.dataset['model'] = pairTitle(m);
  return t;
}

function passFailNote(pf: PagePassFail): string {
  return pf.intervalMethod === 'newcombe-paired-hybrid-score'
    ? `pass rate: interval Newcombe (1998) method 10, over the ${pf.decided} samples with a pass or fail on both sides (${pf.noVerdict} without a verdict on a side left out). `
    : `pass rate: the mean of each sample's share of passing repeats, over the ${pf.decided} samples with a pass or fail on both sides (${pf.noVerdict} without a verdict on a side left out); interval: cluster bootstrap over samples (percentile), ${pf.bootstrapResamples} resamples. `;
}

function valueNote(v: PageValueComparison): string {
  return v.intervalMethod === 'paired-percentile-bootstrap'
    ? `mean: paired percentile bootstrap, ${v.bootstrapResamples} resamples, over the ${v.decided} samples with a number on both sides.`
    : `mean: each side's mean over its repeats per sample; cluster bootstrap over samples (percentile), ${v.bootstrapResamples} resamples, over the ${v.decided} samples with a number on both sides.`;
}

function modelComparisonEl(lookup: Promise<PairLookup>, m: PageModelComparison): HTMLElement {
  const { shared, onlyInA, onlyInB, inputDiffers, errors } = m.samples;
  const differ = inputDiffers ? `, ${inputDiffers} input differs (one id, another question: not paired)` : '';
  return el(
    'article',
    { class: 'run model-comparison', data: { model: pairTitle(m) } },
    el('h3', null, pairTitle(m)),
    el('p', { class: 'note' }, `samples: ${shared} in both runs, ${onlyInA} only in A, ${onlyInB} only in B${differ}; ${errors} ended in error on a side (left out of every figure)`),
    // Runs with repeats only: the unit of every figure.
    ...(m.pairing ? [el('p', { class: 'note pairing', data: { unit: m.pairing.unit } }, m.pairing.description)] : []),
    statsTable(m),
    el('p', { class: 'note' }, m.passFail ? passFailNote(m.passFail) : '', m.value ? valueNote(m.value) : ''),
    bucketsEl(lookup, m),
  );
}

function comparisonBlock(source: ReportSource, c: PageComparison, host: HTMLElement): void {
  const lookup = pairLookup(source);
  const runLine = (label: string, run: PageComparedRun): HTMLElement =>
    el('li', null, `run ${label} `, el('code', null, run.id), ` — ${run.createdAt.slice(0, 19).replace('T', ' ')} UTC, ${run.status}, task version ${run.taskVersion}, models ${run.models.join(', ')}`);
  const forests: HTMLElement[] = [];
  const passRows = c.comparisons.filter((m) => m.passFail).map((m): ForestRow => ({ label: pairTitle(m), model: pairTitle(m), metric: 'pass-rate', difference: m.passFail?.difference ?? null, interval: m.passFail?.interval ?? null }));
  const valueRows = c.comparisons.filter((m) => m.value).map((m): ForestRow => ({ label: pairTitle(m), model: pairTitle(m), metric: 'mean', difference: m.value?.difference ?? null, interval: m.value?.interval ?? null }));
  if (passRows.length > 0) forests.push(el('div', { class: 'chart-card' }, el('h4', null, 'pass rate, B − A, with its 95% interval'), el('div', { class: 'chart-wrap' }, forestChart('pass-rate', 'pass rate B − A', passRows, true))));
  if (valueRows.length > 0) {
    const means = c.comparisons.find((m) => m.value)?.value?.valueMeans ?? 'value';
    forests.push(el('div', { class: 'chart-card' }, el('h4', null, `mean ${means}, B − A, with its 95% interval`), el('div', { class: 'chart-wrap' }, forestChart('mean', `mean ${means} B − A`, valueRows, false))));
  }
  host.append(
    el(
      'article',
      { class: 'run' },
      el('h2', null, `compare ${c.task}: B against A`),
      el('ul', { class: 'runs' }, runLine('A', c.runA), runLine('B', c.runB)),
      ...c.notes.map((n) => el('p', { class: 'warning' }, n)),
      ...forests,
    ),
    ...c.comparisons.map((m) => modelComparisonEl(lookup, m)),
  );
}
