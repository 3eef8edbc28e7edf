// Charts drawn as SVG by hand: grouped bars (one series per model) with 95% interval whiskers, and
// a matrix of counts. Each bar carries data-model / data-category / data-value, so a reader (or a
// test) can check what is drawn without reading pixels.

const PALETTE = ['#3366cc', '#dc7633', '#28a745', '#a23bc4', '#c0392b', '#16a2b8', '#8a6d3b', '#5d6d7e'];
const seriesColor = (i: number): string => PALETTE[i % PALETTE.length] as string;

function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function legend(models: readonly string[]): HTMLElement {
  return el(
    'ul',
    { class: 'legend' },
    ...models.map((model, i) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.backgroundColor = seriesColor(i);
      return el('li', null, swatch, model);
    }),
  );
}

function shorten(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

function barChart(chart: PageChart): SVGElement {
  const seriesCount = Math.max(1, chart.series.length);
  const barWidth = Math.max(6, Math.min(28, Math.floor(120 / seriesCount)));
  const groupWidth = seriesCount * barWidth + 18;
  const left = 56;
  const top = 12;
  const plotHeight = 200;
  const bottom = 70;
  const width = Math.max(360, left + chart.categories.length * groupWidth + 16);
  const height = top + plotHeight + bottom;
  const allValues = chart.series.flatMap((s) => [...s.values, ...(s.high ?? [])]).filter((v): v is number => v !== null && Number.isFinite(v));
  const share = chart.unit === 'share' && allValues.every((v) => v <= 1 && v >= 0);
  const max = share ? 1 : niceMax(Math.max(0, ...allValues));
  const y = (v: number): number => top + plotHeight - (Math.max(0, Math.min(max, v)) / max) * plotHeight;
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-chart': chart.id });
  svg.appendChild(svgEl('title', {}, chart.title));
  // Axis and grid: five steps.
  for (let i = 0; i <= 5; i++) {
    const value = (max * i) / 5;
    const yy = y(value);
    svg.appendChild(svgEl('line', { x1: left, x2: width - 8, y1: yy, y2: yy, class: i === 0 ? 'axis' : 'grid' }));
    svg.appendChild(svgEl('text', { x: left - 6, y: yy + 4, 'text-anchor': 'end', class: 'tick' }, share ? `${Math.round(value * 100)}%` : fmtNumber(value)));
  }
  chart.series.forEach((series, s) => {
    const group = svgEl('g', { class: 'series', 'data-model': series.model, fill: seriesColor(s) });
    chart.categories.forEach((category, c) => {
      const value = series.values[c] ?? null;
      const x = left + c * groupWidth + 9 + s * barWidth;
      if (value === null) {
        group.appendChild(svgEl('text', { x: x + barWidth / 2, y: y(0) - 4, 'text-anchor': 'middle', class: 'na', 'data-category': category, 'data-value': 'n/a' }, '–'));
        return;
      }
      const bar = svgEl('rect', { x, y: y(value), width: barWidth - 2, height: Math.max(0, y(0) - y(value)), 'data-category': category, 'data-value': String(value) });
      const low = series.low?.[c] ?? null;
      const high = series.high?.[c] ?? null;
      const interval = low !== null && high !== null ? ` ${fmtInterval(chart.unit, low, high)}` : '';
      bar.appendChild(svgEl('title', {}, `${series.model} · ${chart.labels[c] ?? category}: ${fmtValue(chart.unit, value)}${interval}`));
      group.appendChild(bar);
      if (low !== null && high !== null) {
        const cx = x + (barWidth - 2) / 2;
        const whisker = svgEl('g', { class: 'whisker', 'data-category': category, 'data-low': String(low), 'data-high': String(high) });
        whisker.appendChild(svgEl('line', { x1: cx, x2: cx, y1: y(low), y2: y(high) }));
        whisker.appendChild(svgEl('line', { x1: cx - 3, x2: cx + 3, y1: y(low), y2: y(low) }));
        whisker.appendChild(svgEl('line', { x1: cx - 3, x2: cx + 3, y1: y(high), y2: y(high) }));
        group.appendChild(whisker);
      }
    });
    svg.appendChild(group);
  });
  chart.categories.forEach((category, c) => {
    const x = left + c * groupWidth + groupWidth / 2;
    const label = chart.labels[c] ?? category;
    const text = svgEl('text', { x, y: top + plotHeight + 14, 'text-anchor': 'end', class: 'label', transform: `rotate(-30 ${x} ${top + plotHeight + 14})` }, shorten(label, 18));
    text.appendChild(svgEl('title', {}, label));
    svg.appendChild(text);
  });
  return svg;
}

/** One table of counts per model: rows × columns of the declared cells, shaded by size. */
function matrixChart(chart: PageChart): HTMLElement {
  const matrix = chart.matrix;
  const wrap = el('div', { class: 'matrices', data: { chart: chart.id } });
  if (!matrix) return wrap;
  chart.series.forEach((series) => {
    const valueOf = (key: string): number | null => {
      const i = chart.categories.indexOf(key);
      return i < 0 ? null : (series.values[i] ?? null);
    };
    const cells = matrix.cells.flat().map(valueOf).filter((v): v is number => v !== null);
    const max = Math.max(1, ...cells);
    const head = el('tr', null, el('th', null, ''), ...matrix.columns.map((c) => el('th', null, c)));
    const body = matrix.rows.map((rowName, r) =>
      el(
        'tr',
        null,
        el('th', null, rowName),
        ...(matrix.cells[r] ?? []).map((key) => {
          const value = valueOf(key);
          const td = el('td', { class: 'cell', data: { category: key, value: value === null ? 'n/a' : String(value) } }, el('strong', null, value === null ? 'n/a' : fmtValue(chart.unit, value)), el('span', { class: 'key' }, key));
          if (value !== null) td.style.backgroundColor = `rgba(51, 102, 204, ${(0.08 + 0.6 * (value / max)).toFixed(3)})`;
          return td;
        }),
      ),
    );
    const outside = chart.categories.filter((c) => !matrix.cells.flat().includes(c));
    wrap.appendChild(
      el(
        'figure',
        { class: 'matrix', data: { model: series.model } },
        el('figcaption', null, series.model),
        el('table', { class: 'confusion' }, el('thead', null, head), el('tbody', null, ...body)),
        outside.length > 0 ? el('p', { class: 'note' }, outside.map((c) => `${c}: ${fmtValue(chart.unit, valueOf(c))}`).join(' · ')) : null,
      ),
    );
  });
  return wrap;
}

/** Whether a chart has nothing to draw: no category, or no value anywhere (a count chart whose every count is 0). */
function chartIsEmpty(chart: PageChart): boolean {
  const values = chart.series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v));
  return chart.categories.length === 0 || values.length === 0 || (chart.unit === 'count' && values.every((v) => v === 0));
}

/**
 * Why a chart has no data, from the run's counts: no model has a scored sample (each model's no
 * verdicts, errors and pending samples said), or the scored samples have no value in it.
 */
function noDataReason(chart: PageChart, run: PageRun): string {
  const models = chart.series.map((s) => s.model);
  const counts = models.map((m) => [m, run.summary.models[m]?.counts] as const);
  const scored = counts.reduce((n, [, c]) => n + (c ? c.done - c.no_verdict : 0), 0);
  if (scored > 0) return `none of the ${fmtValue('count', scored)} scored samples has a value here.`;
  const parts = counts.map(([m, c]) => {
    if (!c) return `${m}: no samples`;
    const why = [c.no_verdict > 0 ? `${fmtValue('count', c.no_verdict)} no verdict` : '', c.errors > 0 ? `${fmtValue('count', c.errors)} errors` : '', c.pending > 0 ? `${fmtValue('count', c.pending)} pending` : ''].filter(Boolean);
    return `${m}: ${why.length > 0 ? why.join(', ') : 'no samples'}`;
  });
  return `no sample has a verdict to draw (${parts.join('; ')}).`;
}

function chartFigure(chart: PageChart, run: PageRun): HTMLElement {
  const empty = chartIsEmpty(chart);
  const body = empty
    ? el('p', { class: 'no-data', data: { chart: chart.id } }, el('strong', null, 'No data'), ` — ${noDataReason(chart, run)}`)
    : chart.matrix
      ? matrixChart(chart)
      : el('div', { class: 'chart-wrap' }, barChart(chart));
  const intervals = chart.interval === 'wilson' ? 'Whiskers: Wilson 95% intervals from the counts.' : chart.interval === 'given' ? 'Whiskers: the metrics’ 95% intervals.' : '';
  return el(
    'section',
    { class: 'chart-card', id: `chart-${chart.id}`, data: { chart: chart.id } },
    el('h3', null, chart.title),
    chart.description ? el('p', { class: 'note' }, chart.description, intervals ? ` ${intervals}` : '') : null,
    body,
    chart.matrix || empty ? null : legend(chart.series.map((s) => s.model)),
  );
}
