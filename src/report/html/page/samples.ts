// The sample browser: filters over every run's index (model, verdict, error kind, no verdict,
// changed by review, run, sample id, and the repeat when a run has repeats), pages of rows, and a
// detail view of one sample (with repeats: one answer, and the way to its sample's other answers).

const PAGE_SIZE = 50;
const FLAG_REVIEWED = 1;
const FLAG_CHANGED = 2;
const FLAG_CACHED = 4;
const FLAG_DETAILED = 8;

interface Filters {
  run: number;
  model: string;
  verdict: string;
  error: string;
  noVerdict: boolean;
  changed: boolean;
  /** Only rows whose details this file carries. */
  detailed: boolean;
  id: string;
  /** Only rows of this repeat (0-based; a run without repeats answered once: repeat 0); −1 any. */
  repeat: number;
}

interface Browser {
  readonly source: ReportSource;
  readonly samples: readonly PageSamples[];
  /** Each run's answers per (sample, model): its repeats, 1 for a run without. */
  readonly repeats: readonly number[];
  filters: Filters;
  /** The matching rows as (run, row) pairs. */
  matches: { run: number[]; row: number[] };
  page: number;
}

/** How many answers a run's index has per (sample, model): its repeats (rows carry their repeat only then), else 1. */
function repeatsOf(index: PageIndex): number {
  let last = 0;
  for (const repeat of index.rows.repeat ?? []) if (repeat > last) last = repeat;
  return index.rows.repeat ? last + 1 : 1;
}

/** A repeat as the page says it: 1-based, out of the run's repeats (`repeat 2/3` is the store's and export's repeat 1). */
const repeatLabel = (repeat: number, repeats: number): string => `repeat ${repeat + 1}/${repeats}`;

/** The index rows of one (sample, model)'s answers, repeat by repeat: the rows around `row` (the index lists a sample's repeats together). */
function answerRows(index: PageIndex, row: number, repeats: number): number[] {
  const first = row - (index.rows.repeat?.[row] ?? 0);
  const rows = Array.from({ length: repeats }, (_, r) => first + r);
  const same = (j: number): boolean => index.rows.sample[j] === index.rows.sample[row] && index.rows.model[j] === index.rows.model[row];
  return rows.every((j, r) => same(j) && index.rows.repeat?.[j] === r) ? rows : [row];
}

/** The way from one answer's detail to its sample's others: each repeat with its verdict, the one shown marked. */
interface RepeatNav {
  readonly repeats: number;
  readonly answers: readonly { readonly row: number; readonly repeat: number; readonly verdict: string }[];
  open(row: number): void;
}

function repeatNavEl(nav: RepeatNav, current: number): HTMLElement {
  return el(
    'p',
    { class: 'repeats', data: { repeats: String(nav.repeats) } },
    el('span', { class: 'note' }, `this sample's ${nav.repeats} answers: `),
    ...nav.answers.map(({ row, repeat, verdict }) => {
      const label = `${repeatLabel(repeat, nav.repeats)} `;
      const badge = el('span', { class: `verdict v-${verdict.replace(/\W/g, '-')}` }, verdict);
      if (repeat === current) return el('strong', { class: 'repeat current', data: { repeat: String(repeat) } }, label, badge);
      const button = el('button', { class: 'link repeat', type: 'button', data: { repeat: String(repeat) } }, label, badge);
      button.addEventListener('click', () => nav.open(row));
      return button;
    }),
  );
}

function messageEl(message: PageMessage): HTMLElement {
  return el(
    'div',
    { class: `message role-${message.role === 'system' || message.role === 'user' || message.role === 'assistant' || message.role === 'tool' ? message.role : 'other'}` },
    el('div', { class: 'role' }, message.role, message.toolCallId ? ` (answers ${message.toolCallId})` : ''),
    pre(message.content ?? ''),
    ...(message.toolCalls ?? []).map((c) => pre(`${c.name}(${c.rawArguments})`, 'text toolcall')),
  );
}

function outputEl(output: PageOutput | null): HTMLElement {
  if (!output) return el('p', { class: 'note' }, 'no output');
  return el(
    'div',
    { class: 'output' },
    pre(output.text, 'text raw-output'),
    ...output.toolCalls.map((c) => pre(`${c.name}(${c.rawArguments})${c.parseError ? `  — unparsable: ${c.parseError}` : ''}`, 'text toolcall')),
    el('p', { class: 'note' }, `finish: ${output.finishReason}${output.warnings.length > 0 ? ` · warnings: ${JSON.stringify(output.warnings)}` : ''}`),
  );
}

/**
 * A call's step in words: `coverage/answers-from-article` → `coverage answers from article`, `verdict/repeat-2` →
 * `verdict · judge repeat 2`, `claims#2` → `claims · re-ask 1` (the judges label the k-th ask of a
 * step `step#k`); a call with no step is the sample's one answer.
 */
function stepName(step: string | undefined): string {
  if (step === undefined) return 'answer';
  const reask = /#(\d+)$/.exec(step);
  const base = reask ? step.slice(0, reask.index) : step;
  const named = base.replace(/\/repeat-(\d+)/g, ' · judge repeat $1').replace(/[/-]/g, ' ');
  return reask ? `${named} · re-ask ${Number(reask[1]) - 1}` : named;
}

/**
 * Each call's label: who made it and its step, with `retry k` only on a call that retried the
 * one before it — the same role, model and step right after a call that failed (every step a
 * sample takes has its own label, so only a retry repeats one). The stored `attempt` numbers a
 * sample's calls across its steps, so it is not shown.
 */
function callLabels(calls: readonly PageCall[]): string[] {
  let retries = 0;
  return calls.map((call, i) => {
    const before = calls[i - 1];
    const retry = before !== undefined && before.error !== null && before.role === call.role && before.actor === call.actor && before.step === call.step;
    retries = retry ? retries + 1 : 0;
    const who = call.role === 'judge' ? 'judge' : call.role === 'user' ? 'simulated user' : 'model under test';
    return [who, call.actor, stepName(call.step), retry ? `retry ${retries}` : ''].filter(Boolean).join(' · ');
  });
}

function callEl(call: PageCall, index: number, head: string): HTMLElement {
  return el(
    'details',
    { class: `call role-${call.role === 'judge' || call.role === 'user' || call.role === 'test' ? call.role : 'other'}`, data: { role: call.role } },
    el('summary', null, `${index + 1}. ${head}`, call.error ? el('span', { class: 'bad' }, ` — error ${call.error.kind}`) : null),
    call.messages === null ? el('p', { class: 'note' }, 'sent: the sample’s prompt (above)') : el('div', { class: 'messages' }, ...call.messages.map(messageEl)),
    call.responseFormat ? el('p', { class: 'note' }, `structured output: ${call.responseFormat}`) : null,
    el('h5', null, 'reply'),
    call.error ? pre(`${call.error.kind}: ${call.error.message}`, 'text error') : outputEl(call.output),
    el('p', { class: 'note' }, `${Math.round(call.latencyMs)} ms · tokens in ${call.inputTokens ?? '?'} out ${call.outputTokens ?? '?'} · cost ${fmtUsd(call.costUsd)}`),
  );
}

function callList(calls: readonly PageCall[]): HTMLElement[] {
  const labels = callLabels(calls);
  return calls.map((call, i) => callEl(call, i, labels[i] ?? ''));
}

/** A row's details; `repeats`: how many answers its sample has (the comparison page, which has no `nav`, counts them itself). */
function detailEl(detail: PageDetail, runLabel: string, nav?: RepeatNav, repeats = nav?.repeats ?? (detail.repeat ?? 0) + 1): HTMLElement {
  const judge = detail.scoreMetadata?.['judge'] as { responses?: unknown; votes?: unknown; agreement?: unknown } | undefined;
  const responses = Array.isArray(judge?.responses) ? (judge.responses as unknown[]).map(String) : [];
  const section = (title: string, ...children: Child[]): HTMLElement => el('section', { class: 'part' }, el('h4', null, title), ...children);
  // A run with repeats: which answer this is, in the title and over its calls (they are that answer's alone).
  const repeat = detail.repeat !== undefined ? ` · ${repeatLabel(detail.repeat, repeats)}` : undefined;
  return el(
    'div',
    { class: 'detail', data: { sample: detail.sample, model: detail.model, ...(repeat !== undefined ? { repeat: String(detail.repeat) } : {}) } },
    el('h3', null, `${detail.sample} · ${detail.model}${repeat ?? ''}`, el('span', { class: `verdict v-${detail.verdict.replace(/\W/g, '-')}` }, detail.verdict), runLabel ? el('span', { class: 'note' }, ` ${runLabel}`) : null),
    nav && detail.repeat !== undefined ? repeatNavEl(nav, detail.repeat) : null,
    section('Prompt', ...detail.input.map(messageEl)),
    detail.tools && detail.tools.length > 0
      ? section(`Tools offered (${detail.tools.length})`, el('p', null, detail.tools.map((t) => t.name).join(', ')), el('details', null, el('summary', null, 'schemas'), jsonBlock(detail.tools)))
      : null,
    section('Expected', jsonBlock(detail.target)),
    section('Raw output', outputEl(detail.output)),
    section('Parsed answer', jsonBlock(detail.answer)),
    section('Score', facts([['value', detail.value === null ? 'no verdict' : String(detail.value)], ['explanation', detail.explanation ?? '']])),
    detail.review
      ? section('Human review', facts([['verdict', detail.review.verdict ? 'pass' : 'fail'], ['changed the stored verdict', detail.review.changed ? 'yes' : 'no'], ['note', detail.review.note], ['file', detail.review.source], ['at', detail.review.reviewedAt]]))
      : null,
    detail.error ? section('Error', pre(`${detail.error.kind}: ${detail.error.message}`, 'text error')) : null,
    responses.length > 0 ? section(`Judge replies (${responses.length})`, ...responses.map((r, i) => el('div', { class: 'judge-reply' }, el('div', { class: 'role' }, `repeat ${i + 1}`), pre(r)))) : null,
    detail.transcript
      ? section(
          `Transcript (${detail.transcript.length} steps)`,
          el(
            'ol',
            { class: 'transcript' },
            ...detail.transcript.map((step) =>
              el(
                'li',
                { data: { role: step.role } },
                el('div', { class: 'role' }, `${step.step} · ${step.role} · ${step.model}`),
                step.text !== null ? pre(step.text) : null,
                ...(step.toolCalls ?? []).map((c) => pre(`${c.name}(${c.rawArguments})`, 'text toolcall')),
                step.error ? pre(`${step.error.kind}: ${step.error.message}`, 'text error') : null,
              ),
            ),
          ),
        )
      : null,
    section(repeat === undefined ? `Every call (${detail.calls.length})` : `Every call of this answer${repeat} (${detail.calls.length})`, ...callList(detail.calls)),
    section('Sample metadata', el('details', null, el('summary', null, 'show'), jsonBlock(detail.metadata))),
    detail.scoreMetadata ? section('Score metadata', el('details', null, el('summary', null, 'show'), jsonBlock(detail.scoreMetadata))) : null,
  );
}

function applyFilters(browser: Browser): void {
  const f = browser.filters;
  const run: number[] = [];
  const row: number[] = [];
  const needle = f.id.trim().toLowerCase();
  browser.samples.forEach((samples, r) => {
    if (f.run >= 0 && f.run !== r) return;
    const ix = samples.index;
    const model = f.model === '' ? -2 : ix.models.indexOf(f.model);
    const verdict = f.verdict === '' ? -2 : ix.verdicts.indexOf(f.verdict);
    const error = f.error === '' ? -2 : ix.errorKinds.indexOf(f.error);
    const repeats = ix.rows.repeat;
    // A run without repeats answered once: its rows are repeat 0's.
    if (f.repeat > 0 && !repeats) return;
    const noVerdict = ix.verdicts.indexOf('no verdict');
    const manual = ix.verdicts.indexOf('manual');
    if (model === -1 || verdict === -1 || error === -1) return;
    const n = ix.rows.sample.length;
    for (let i = 0; i < n; i++) {
      if (model >= 0 && ix.rows.model[i] !== model) continue;
      if (verdict >= 0 && ix.rows.verdict[i] !== verdict) continue;
      if (error >= 0 && ix.rows.error[i] !== error) continue;
      if (f.noVerdict && ix.rows.verdict[i] !== noVerdict && ix.rows.verdict[i] !== manual) continue;
      if (f.changed && ((ix.rows.flags[i] as number) & FLAG_CHANGED) === 0) continue;
      if (f.detailed && ((ix.rows.flags[i] as number) & FLAG_DETAILED) === 0) continue;
      if (needle !== '' && !(ix.ids[ix.rows.sample[i] as number] ?? '').toLowerCase().includes(needle)) continue;
      if (f.repeat >= 0 && repeats && repeats[i] !== f.repeat) continue;
      run.push(r);
      row.push(i);
    }
  });
  browser.matches = { run, row };
  browser.page = 0;
}

function select(name: string, label: string, values: readonly string[], all: string): HTMLElement {
  const control = el('select', { data: { filter: name } }, el('option', { value: '' }, all), ...values.map((v) => el('option', { value: v }, v)));
  return el('label', null, `${label} `, control);
}

/** The details cell of a row the file carries no details for: why, and the flag that brings them. */
function notInFile(policy: PageRun['detailsPolicy'] | undefined): HTMLElement {
  const given = policy?.mode === 'limit' ? String(policy.limit) : (policy?.mode ?? '');
  const why = `This file carries the details of ${policy?.included ?? 0} of ${policy?.rows ?? 0} rows (--details ${given}); make the report again with --details all (or failing) to see this one.`;
  return el('span', { class: 'note not-in-file', title: why }, `not in this file (--details ${given}): make it with --details all`);
}

function renderRows(browser: Browser, host: HTMLElement, detailHost: HTMLElement): void {
  clear(host);
  const total = browser.matches.row.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  browser.page = Math.min(browser.page, pages - 1);
  const start = browser.page * PAGE_SIZE;
  const end = Math.min(total, start + PAGE_SIZE);
  const many = browser.samples.length > 1;
  // The repeat column only when some run has repeats: a run without renders as it always has.
  const withRepeats = browser.repeats.some((k) => k > 1);
  const header = [...(many ? ['run'] : []), 'sample', 'model', ...(withRepeats ? ['repeat'] : []), 'verdict', 'error', 'review', 'cached', 'details'];
  const body = el('tbody', null);
  for (let k = start; k < end; k++) {
    const r = browser.matches.run[k] as number;
    const i = browser.matches.row[k] as number;
    const ix = (browser.samples[r] as PageSamples).index;
    const flags = ix.rows.flags[i] as number;
    const verdict = ix.verdicts[ix.rows.verdict[i] as number] ?? '?';
    const value = ix.values[String(i)];
    const errorKind = (ix.rows.error[i] as number) >= 0 ? (ix.errorKinds[ix.rows.error[i] as number] ?? '') : '';
    const sampleId = ix.ids[ix.rows.sample[i] as number] ?? '';
    // A row this file has no details for opens nothing: it says so itself, and how to get them.
    const openable = (flags & FLAG_DETAILED) !== 0 || browser.source.remote;
    const open = openable ? el('button', { class: 'link', type: 'button' }, sampleId) : el('code', null, sampleId);
    const repeats = browser.repeats[r] ?? 1;
    const repeat = ix.rows.repeat?.[i];
    const tr = el(
      'tr',
      { data: { run: String(r), row: String(i), verdict, ...(repeat !== undefined ? { repeat: String(repeat) } : {}) } },
      ...(many ? [el('td', null, browser.source.bundle.runs[r]?.overview.run ?? '')] : []),
      el('td', null, open),
      el('td', null, ix.models[ix.rows.model[i] as number] ?? ''),
      ...(withRepeats ? [el('td', { class: 'repeat' }, repeat !== undefined ? repeatLabel(repeat, repeats) : '')] : []),
      el('td', null, el('span', { class: `verdict v-${verdict.replace(/\W/g, '-')}` }, value === undefined ? verdict : `${verdict} ${value}`)),
      el('td', null, errorKind),
      el('td', null, flags & FLAG_CHANGED ? 'changed' : flags & FLAG_REVIEWED ? 'reviewed' : ''),
      el('td', null, flags & FLAG_CACHED ? 'yes' : ''),
      el('td', null, flags & FLAG_DETAILED ? 'in file' : browser.source.remote ? 'on demand' : notInFile(browser.source.bundle.runs[r]?.detailsPolicy)),
    );
    if (openable) open.addEventListener('click', () => void showDetail(browser, r, i, detailHost));
    body.appendChild(tr);
  }
  const prev = el('button', { type: 'button', data: { page: 'prev' } }, '‹ previous');
  const next = el('button', { type: 'button', data: { page: 'next' } }, 'next ›');
  prev.disabled = browser.page === 0;
  next.disabled = browser.page >= pages - 1;
  prev.addEventListener('click', () => {
    browser.page--;
    renderRows(browser, host, detailHost);
  });
  next.addEventListener('click', () => {
    browser.page++;
    renderRows(browser, host, detailHost);
  });
  host.append(
    el('p', { class: 'pager' }, prev, el('span', { class: 'count', data: { total: String(total) } }, total === 0 ? ' no rows match ' : ` rows ${start + 1}–${end} of ${total.toLocaleString('en-US')} `), next),
    el('table', { class: 'grid samples' }, el('thead', null, el('tr', null, ...header.map((h) => el('th', null, h)))), body),
  );
}

async function showDetail(browser: Browser, run: number, row: number, host: HTMLElement): Promise<void> {
  clear(host);
  host.appendChild(el('p', { class: 'note' }, 'loading…'));
  let detail: PageDetail | undefined;
  try {
    detail = await browser.source.detail(run, row);
  } catch (error) {
    clear(host);
    host.appendChild(el('p', { class: 'bad' }, `could not load the sample: ${String(error)}`));
    return;
  }
  clear(host);
  if (!detail) {
    const policy = browser.source.bundle.runs[run]?.detailsPolicy;
    host.appendChild(
      el('p', { class: 'note' }, `This file carries the details of ${policy?.included ?? 0} of ${policy?.rows ?? 0} rows (--details ${policy?.mode === 'limit' ? String(policy.limit) : (policy?.mode ?? '')}). Make the report again with --details all (or failing) to see this one.`),
    );
    return;
  }
  const index = (browser.samples[run] as PageSamples).index;
  const repeats = browser.repeats[run] ?? 1;
  const nav: RepeatNav | undefined =
    repeats > 1
      ? {
          repeats,
          answers: answerRows(index, row, repeats).map((j) => ({ row: j, repeat: index.rows.repeat?.[j] ?? 0, verdict: index.verdicts[index.rows.verdict[j] as number] ?? '?' })),
          open: (j) => void showDetail(browser, run, j, host),
        }
      : undefined;
  host.appendChild(detailEl(detail, browser.samples.length > 1 ? `run ${browser.source.bundle.runs[run]?.overview.run ?? ''}` : '', nav));
  host.scrollIntoView({ block: 'start' });
}

async function samplesBlock(source: ReportSource, host: HTMLElement): Promise<void> {
  clear(host);
  host.appendChild(el('p', { class: 'note' }, 'loading the sample index…'));
  const samples: PageSamples[] = [];
  for (let r = 0; r < source.bundle.runs.length; r++) samples.push(await source.samples(r));
  clear(host);
  const repeats = samples.map((s) => repeatsOf(s.index));
  const browser: Browser = { source, samples, repeats, filters: { run: -1, model: '', verdict: '', error: '', noVerdict: false, changed: false, detailed: false, id: '', repeat: -1 }, matches: { run: [], row: [] }, page: 0 };
  const most = Math.max(...repeats);
  const repeatSelect = el('select', { data: { filter: 'repeat' } }, el('option', { value: '-1' }, 'every repeat'), ...Array.from({ length: most }, (_, r) => el('option', { value: String(r) }, `repeat ${r + 1}`)));
  const union = (pick: (s: PageSamples) => readonly string[]): string[] => [...new Set(samples.flatMap(pick))];
  const runSelect = el('select', { data: { filter: 'run' } }, el('option', { value: '-1' }, 'all runs'), ...source.bundle.runs.map((run, i) => el('option', { value: String(i) }, `${run.overview.run} (${run.overview.task})`)));
  const noVerdict = el('input', { type: 'checkbox', data: { filter: 'noVerdict' } });
  const changed = el('input', { type: 'checkbox', data: { filter: 'changed' } });
  const detailed = el('input', { type: 'checkbox', data: { filter: 'detailed' } });
  const idInput = el('input', { type: 'search', data: { filter: 'id' } });
  idInput.placeholder = 'sample id contains…';
  const controls = el(
    'div',
    { class: 'filters' },
    source.bundle.runs.length > 1 ? el('label', null, 'run ', runSelect) : null,
    select('model', 'model', union((s) => s.index.models), 'all models'),
    select('verdict', 'verdict', union((s) => s.index.verdicts), 'any verdict'),
    select('error', 'error kind', union((s) => s.index.errorKinds), 'any error kind'),
    most > 1 ? el('label', null, 'repeat ', repeatSelect) : null,
    el('label', null, noVerdict, ' no verdict only'),
    el('label', null, changed, ' changed by review'),
    source.remote ? null : el('label', null, detailed, ' details in this file'),
    idInput,
  );
  const rowsHost = el('div', { class: 'rows' });
  const detailHost = el('div', { class: 'detail-host', id: 'sample-detail' });
  let rendered = false;
  const refresh = (): void => {
    const value = (name: string): string => (controls.querySelector(`[data-filter="${name}"]`) as HTMLSelectElement | null)?.value ?? '';
    const filters: Filters = { run: Number(runSelect.value), model: value('model'), verdict: value('verdict'), error: value('error'), noVerdict: noVerdict.checked, changed: changed.checked, detailed: detailed.checked, id: idInput.value, repeat: Number(repeatSelect.value) };
    // The search box also fires "change" when it loses focus (a click on a row): nothing changed then, so the rows stay.
    if (rendered && JSON.stringify(filters) === JSON.stringify(browser.filters)) return;
    rendered = true;
    browser.filters = filters;
    applyFilters(browser);
    renderRows(browser, rowsHost, detailHost);
  };
  controls.addEventListener('change', refresh);
  idInput.addEventListener('input', refresh);
  host.append(controls, rowsHost, detailHost);
  refresh();
}
