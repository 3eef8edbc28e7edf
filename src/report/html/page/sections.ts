// The report's summary pages: overview, model comparison, charts, judge health (one block per run).

const ROLE_NAMES: Readonly<Record<string, string>> = { test: 'under test', user: 'simulated user', judge: 'judge' };

function runHeading(run: PageRun, many: boolean): HTMLElement {
  return el('h2', { class: 'run-title' }, many ? `${run.overview.task} · run ${run.overview.run}` : `${run.overview.task}`);
}

function overviewBlock(run: PageRun, many: boolean): HTMLElement {
  const o = run.overview;
  const judge = o.judge
    ? `${o.judge.model} — ${o.judge.repeats} repeat(s), ${o.judge.format} verdicts, up to ${o.judge.maxParseRetries} re-ask(s)${o.judge.selfGrading ? ', grades its own outputs' : ''}`
    : 'none';
  const block = el('article', { class: 'run', data: { run: o.run } }, runHeading(run, many));
  if (o.modifiedData.length > 0) {
    block.appendChild(
      el('p', { class: 'warning' }, `Data modified: ${o.modifiedData.map((f) => `${f.file} (pinned ${f.pinned.slice(0, 12)}…, read ${f.actual.slice(0, 12)}…)`).join(', ')} — run with --allow-modified-data, so these are not the benchmark’s numbers.`),
    );
  }
  block.appendChild(el('p', { class: 'note' }, o.taskDescription));
  block.appendChild(
    facts([
      ['run', o.run],
      ['task', `${o.task} (version ${o.taskVersion})`],
      ['status', el('span', { class: `status status-${o.status}` }, o.status)],
      ...(o.statusNote ? [['', o.statusNote] as const] : []),
      ['created', o.createdAt],
      ['last updated', o.updatedAt],
      ['duration', fmtDuration(o.durationMs)],
      ['models', o.models.join(', ')],
      ['judge', judge],
      ...(o.userModel ? [['simulated user', o.userModel] as const] : []),
      ...(o.applicationTargetNote ? [['system prompt', o.applicationTargetNote] as const] : []),
      ['samples', o.samples.total === o.samples.stored ? String(o.samples.total) : `${o.samples.total} (${o.samples.stored} stored)`],
      ['settings', jsonBlock(o.settings)],
      ['seed', String(o.seed)],
      ['task options', jsonBlock(o.options)],
      ['prompt version', o.promptVersion],
      ['assay version', o.toolkitVersion],
      ['human reviews', String(o.reviews)],
    ]),
  );
  const models = Object.entries(run.summary.models);
  block.appendChild(el('h3', null, 'Counts'));
  block.appendChild(
    table(
      ['model', 'samples', 'done', 'errors', 'no verdict', 'pending', 'cached', 'tokens in', 'tokens out', 'cost'],
      models.map(([model, { counts }]) => [
        model,
        fmtValue('count', counts.samples),
        fmtValue('count', counts.done),
        el('span', { class: counts.errors > 0 ? 'bad' : '' }, fmtValue('count', counts.errors)),
        el('span', { class: counts.no_verdict > 0 ? 'warn' : '' }, fmtValue('count', counts.no_verdict)),
        fmtValue('count', counts.pending),
        fmtValue('count', counts.cached),
        fmtValue('count', counts.input_tokens),
        fmtValue('count', counts.output_tokens),
        fmtUsd(counts.cost_usd),
      ]),
      'grid counts',
    ),
  );
  const errorLines = models.filter(([, m]) => m.counts.errors > 0);
  if (errorLines.length > 0) {
    block.appendChild(
      el('ul', { class: 'errors' }, ...errorLines.map(([model, m]) => el('li', null, `${model}: `, Object.entries(m.counts.errors_by_kind).map(([k, n]) => `${k} ${n}`).join(', ')))),
    );
  }
  block.appendChild(el('h3', null, 'Cost by role'));
  block.appendChild(
    table(
      ['role', 'model', 'calls', 'failed', 'tokens in', 'tokens out', 'cost'],
      run.summary.cost_by_role.map((r) => [ROLE_NAMES[r.role] ?? r.role, r.model, fmtValue('count', r.calls), fmtValue('count', r.failed_calls), fmtValue('count', r.input_tokens), fmtValue('count', r.output_tokens), fmtUsd(r.cost_usd)]),
    ),
  );
  const sums = Object.entries(o.datasetChecksums);
  block.appendChild(el('h3', null, 'Data files (sha256)'));
  block.appendChild(sums.length > 0 ? table(['file', 'sha256'], sums.map(([file, sha]) => [file, el('code', null, sha)])) : el('p', { class: 'note' }, 'none recorded'));
  block.appendChild(el('details', null, el('summary', null, 'Engine settings'), jsonBlock(o.engine)));
  return block;
}

/**
 * The metric column: its key, with the task's meaning as a tooltip on every row and as a visible
 * line under the first row of each metric (a breakdown's rows share their metric's meaning).
 */
function metricNameEl(key: string, meaning: string | undefined, first: boolean): HTMLElement {
  if (meaning === undefined) return el('code', null, key);
  return el('span', { class: 'metric-name', title: meaning }, el('code', null, key), first ? el('span', { class: 'meaning' }, meaning) : null);
}

function metricTableEl(t: PageTable): HTMLTableElement {
  const topOf = (key: string): string => key.split('.')[0] ?? key;
  return table(
    ['metric', ...t.models],
    t.rows.map((row, i) => [
      metricNameEl(row.key, row.meaning, i === 0 || topOf(t.rows[i - 1]?.key ?? '') !== topOf(row.key)),
      ...row.cells.map((cell) =>
        cell === null ? '—' : el('span', { class: 'metric' }, fmtValue(row.unit, cell.value), cell.low !== undefined ? el('span', { class: 'ci' }, ` ${fmtInterval(row.unit, cell.low, cell.high)}`) : null),
      ),
    ]),
    'grid metrics',
  );
}

function modelsBlock(run: PageRun, many: boolean): HTMLElement {
  const block = el('article', { class: 'run', data: { run: run.overview.run } }, runHeading(run, many));
  block.appendChild(el('p', { class: 'note' }, 'Brackets: 95% intervals, where the task’s metrics give them. Shares are of the scored samples unless the task says otherwise; errors are left out of every rate.'));
  block.appendChild(metricTableEl(run.tables.metrics));
  // Beside the judged numbers, how far the judge behind them can be trusted (details: Judge health).
  if (run.judgeHealth.length > 0) {
    block.appendChild(
      el(
        'ul',
        { class: 'judge-lines' },
        ...run.judgeHealth.map((h) =>
          el(
            'li',
            { data: { model: h.model } },
            `${h.model}: judged by ${h.judge} — ${h.judged} graded, no verdict ${h.noVerdict}${h.noVerdictShare === null ? '' : ` (${fmtShare(h.noVerdictShare)})`}, re-asks ${h.reasks ?? 'not recorded'}, judge errors ${h.judgeErrors}`,
            h.agreement === null ? '' : `, agreement across repeats ${fmtShare(h.agreement)}`,
            h.reviews && h.reviews.share !== null ? `, humans agree on ${fmtShare(h.reviews.share)} of ${h.reviews.compared} reviewed` : '',
          ),
        ),
      ),
    );
  }
  if (run.tables.reviewed) {
    block.appendChild(el('h3', null, 'With human reviews applied'));
    block.appendChild(metricTableEl(run.tables.reviewed));
  }
  // Beside the judge's defect rate, that rate corrected for its error measured on the reviews (PPI).
  const corrected = run.overview.models.flatMap((m) => {
    const c = run.summary.models[m]?.reviewed?.corrected_defect_rate;
    return c ? [[m, c] as const] : [];
  });
  if (corrected.length > 0) block.appendChild(el('ul', { class: 'judge-lines corrected-rate' }, ...corrected.map(([m, c]) => el('li', { data: { model: m } }, correctedRateText(m, c)))));
  return block;
}

/** One model's corrected defect rate as text (the console's line, `report/corrected-rate.ts`). */
function correctedRateText(model: string, c: PageCorrectedRate): string {
  const raw = c.judge_rate === null ? 'the judge’s: —' : `the judge’s ${fmtShare(c.judge_rate)}`;
  const leftOut = c.reviews_left_out > 0 ? `; ${c.reviews_left_out} review(s) of items the judge gave no verdict left out` : '';
  if (c.rate === null || c.ci95 === null) return `${model}: defect rate corrected for the judge’s error — beside ${raw} (needs at least 2 reviews of items the judge rated, has ${c.labelled}${leftOut})`;
  const halve = c.labels_to_halve === null ? 'reviewing more of these items alone cannot halve the interval' : `about ${c.labels_to_halve} reviews in all would halve the interval`;
  return `${model}: defect rate corrected for the judge’s error ${fmtShare(c.rate)} [${fmtShare(c.ci95.low)}, ${fmtShare(c.ci95.high)}] beside ${raw} (PPI: ${c.unlabelled} unreviewed + ${c.labelled} reviewed items, the reviewed taken as a random subset; ${halve}${leftOut})`;
}

function chartsBlock(run: PageRun, many: boolean): HTMLElement {
  const block = el('article', { class: 'run', data: { run: run.overview.run } }, runHeading(run, many));
  if (run.charts.length === 0) block.appendChild(el('p', { class: 'note' }, 'This task declares no charts; its metrics are in the model tables.'));
  for (const chart of run.charts) block.appendChild(chartFigure(chart, run));
  return block;
}

/** How the page shows a declared unit: a share as a percentage, a count as an integer, the rest as a number. */
const pageUnit = (unit: PageDeclaration['unit'] | undefined): Unit => (unit === 'share' || unit === 'count' ? unit : 'number');

/**
 * Agreement with human labels as facts: each figure named by its key with the meaning its task
 * declares (`human_agreement`'s parts) and formatted by its declared unit, as everywhere else (an
 * interval beside its figure); a figure nothing declares is shown as a number.
 */
function labelFacts(labels: Metric, declaration: PageDeclaration | undefined): HTMLElement {
  if (labels === null || typeof labels !== 'object') return el('p', null, fmtValue(pageUnit(declaration?.unit), labels));
  const rows: [Child, Child][] = [];
  for (const [key, value] of Object.entries(labels)) {
    if (key.endsWith('_ci95')) continue;
    const part = declaration?.parts?.find((p) => p.name === key);
    const unit = pageUnit(part?.unit);
    const ci = labels[`${key}_ci95`];
    const interval = ci !== null && typeof ci === 'object' && !Array.isArray(ci) ? ` ${fmtInterval(unit, ci['low'] as number, ci['high'] as number)}` : '';
    rows.push([metricNameEl(key, part?.meaning, true), typeof value === 'number' || value === null ? `${fmtValue(unit, value)}${interval}` : jsonBlock(value)]);
  }
  return facts(rows);
}

function judgeBlock(run: PageRun, many: boolean): HTMLElement {
  const block = el('article', { class: 'run', data: { run: run.overview.run } }, runHeading(run, many));
  if (run.judgeHealth.length === 0) {
    block.appendChild(el('p', { class: 'note' }, 'No judge: every verdict is the scorer’s own.'));
    return block;
  }
  block.appendChild(
    table(
      ['model under test', 'judge', 'judged', 'no verdict', 'judge calls', 're-asks', 'judge errors', 'agreement across repeats', 'unanimous', 'human reviews agree'],
      run.judgeHealth.map((h) => [
        h.model,
        `${h.judge}${h.selfGrading ? ' (grades itself)' : ''}`,
        fmtValue('count', h.judged),
        el('span', { class: h.noVerdict > 0 ? 'warn' : '' }, `${fmtValue('count', h.noVerdict)}${h.noVerdictShare === null ? '' : ` (${fmtShare(h.noVerdictShare)})`}`),
        fmtValue('count', h.calls),
        h.reasks === null ? 'not recorded' : fmtValue('count', h.reasks),
        fmtValue('count', h.judgeErrors),
        h.agreement === null ? (h.repeats > 1 ? 'n/a' : 'one repeat') : fmtShare(h.agreement),
        h.unanimous === null ? '—' : fmtShare(h.unanimous),
        h.reviews === null ? 'no reviews' : h.reviews.share === null ? `${h.reviews.reviewed} reviewed, none the judge graded` : `${fmtShare(h.reviews.share)} of ${h.reviews.compared} (${h.reviews.changed} changed)`,
      ]),
      'grid judge',
    ),
  );
  for (const h of run.judgeHealth) {
    if (h.labels !== null) block.appendChild(el('div', { class: 'human-labels', data: { model: h.model } }, el('h3', null, `Agreement with human labels — ${h.model}`), labelFacts(h.labels, run.metricDeclarations.find((d) => d.name === 'human_agreement'))));
  }
  return block;
}
