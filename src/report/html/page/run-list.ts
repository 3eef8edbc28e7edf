// The viewer's first page: every run in the store with its progress, newest first; a run opens
// its report page, several checked runs open side by side. Live while any run is in progress.

interface RunListConfig {
  /** Answers every run's progress (PageProgress[]). */
  readonly runs: string;
  /** A report page's URL, with {runs}: run ids, comma-separated. */
  readonly open: string;
}

function openRuns(config: RunListConfig, ids: readonly string[]): void {
  // Navigation by script from the server's own template: no URL attribute is built from data.
  window.location.assign(config.open.replace('{runs}', ids.map(encodeURIComponent).join(',')));
}

function finishedOf(p: PageProgress): string {
  const done = p.progress.reduce((n, m) => n + m.done + m.errors, 0);
  const total = p.samples === null ? null : p.samples * p.models.length;
  return total === null ? `${done.toLocaleString('en-US')} / ?` : `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`;
}

function runRow(config: RunListConfig, p: PageProgress, checked: Set<string>, onCheck: () => void): HTMLTableRowElement {
  const box = el('input', { type: 'checkbox', data: { select: p.run } });
  box.checked = checked.has(p.run);
  box.addEventListener('change', () => {
    if (box.checked) checked.add(p.run);
    else checked.delete(p.run);
    onCheck();
  });
  const open = el('button', { class: 'link', type: 'button' }, p.run);
  open.addEventListener('click', () => openRuns(config, [p.run]));
  const errors = p.progress.reduce((n, m) => n + m.errors, 0);
  return el(
    'tr',
    { data: { run: p.run, status: p.status } },
    el('td', null, box),
    el('td', null, open),
    el('td', null, p.task),
    el('td', null, p.models.join(', ')),
    el('td', null, el('span', { class: `status status-${p.status.replace(/\W/g, '-')}` }, p.status)),
    el('td', null, p.createdAt.replace('T', ' ').slice(0, 19)),
    el('td', { class: 'done', title: p.progress.map((m) => `${m.model}: ${m.done} done, ${m.errors} errors`).join('\n') }, finishedOf(p)),
    el('td', { class: errors > 0 ? 'bad' : '' }, fmtValue('count', errors)),
    el('td', null, `${fmtUsd(p.cost.usd)}${p.cost.unpriced > 0 ? ` (+${p.cost.unpriced} unpriced)` : ''}`),
  );
}

function startRunList(config: RunListConfig): void {
  const app = document.getElementById('app');
  if (!app) return;
  clear(app);
  document.title = 'assay — runs';
  const checked = new Set<string>();
  const body = el('tbody', null);
  const side = el('button', { type: 'button', data: { action: 'side-by-side' } }, 'open the checked runs side by side');
  side.disabled = true;
  const onCheck = (): void => void (side.disabled = checked.size < 2);
  side.addEventListener('click', () => openRuns(config, [...checked]));
  const count = el('p', { class: 'note' });
  const paint = (list: readonly PageProgress[]): void => {
    clear(body);
    for (const p of list) body.appendChild(runRow(config, p, checked, onCheck));
    count.textContent = list.length === 0 ? 'No runs in this store yet: start one with assay run <task> --model <id>.' : `${list.length} run(s), newest first.`;
    document.documentElement.dataset['runs'] = String(list.length);
  };
  const headers = ['', 'run', 'task', 'models', 'status', 'created (UTC)', 'samples done', 'errors', 'cost'];
  const runningIn = (answer: unknown): boolean => inProgress((answer as PageProgress[]).map((p) => p.status));
  fetchJson(config.runs).then(
    (answer) => {
      const list = answer as PageProgress[];
      paint(list);
      const live = pollWhile(config.runs, runningIn(list), runningIn, async (next) => paint(next as PageProgress[]));
      app.append(
        el('header', null, el('h1', null, 'assay — runs'), live),
        count,
        el('table', { class: 'grid runs' }, el('thead', null, el('tr', null, ...headers.map((h) => el('th', null, h)))), body),
        el('p', null, side),
      );
      document.documentElement.dataset['overview'] = 'painted';
    },
    (error: unknown) => fail(error),
  );
}
