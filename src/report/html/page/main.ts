// The report page's entry: where the data comes from, the tabs, and the first paint.
//
// Data comes either inlined in the file (`assay report`: <script type="application/json"
// id="assay-report"> for the summaries and one id="assay-samples-<i>" per run for its sample
// index and details, read only when the sample browser opens) or from URLs (a local server such
// as `assay view`: <script type="application/json" id="assay-source"> holding {bundle, samples,
// detail, progress?}, where samples and detail are URL templates with {run} (a run id) and {row};
// with progress, the page polls it while a run is in progress and repaints when the run moves).
// The viewer's run list is another mode of the same script (<script id="assay-run-list">).

interface ReportSource {
  /** Replaced when a live run moves (`reload`). */
  bundle: PageBundle;
  /** A comparison of the bundle's two runs (`assay compare -o`): the page opens on its tab. */
  readonly comparison?: PageComparison;
  /** Whether details come from a server on demand. */
  readonly remote: boolean;
  samples(run: number): Promise<PageSamples>;
  detail(run: number, row: number): Promise<PageDetail | undefined>;
  /** A served page of runs that may be in progress: the URL of their progress, and how to read the summaries again. */
  readonly live?: { readonly progress: string; reload(): Promise<void> };
}

function jsonScript(id: string): unknown {
  const node = document.getElementById(id);
  return node ? (JSON.parse(node.textContent ?? 'null') as unknown) : undefined;
}

const domReady = (): Promise<void> =>
  document.readyState === 'loading' ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })) : Promise.resolve();

function inlineSource(bundle: PageBundle): ReportSource {
  const cache = new Map<number, PageSamples>();
  const samples = async (run: number): Promise<PageSamples> => {
    await domReady();
    let found = cache.get(run);
    if (!found) {
      found = jsonScript(`assay-samples-${run}`) as PageSamples;
      cache.set(run, found);
    }
    return found;
  };
  const comparison = jsonScript('assay-comparison') as PageComparison | undefined;
  return { bundle, ...(comparison ? { comparison } : {}), remote: false, samples, detail: async (run, row) => (await samples(run)).details[String(row)] };
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

interface RemoteConfig {
  readonly bundle: string;
  readonly samples: string;
  readonly detail: string;
  readonly progress?: string;
}

async function remoteSource(config: RemoteConfig): Promise<ReportSource> {
  const bundle = (await fetchJson(config.bundle)) as PageBundle;
  const fill = (template: string, run: number, row?: number): string =>
    template.replace('{run}', encodeURIComponent(bundle.runs[run]?.overview.run ?? '')).replace('{row}', row === undefined ? '' : String(row));
  const cache = new Map<number, PageSamples>();
  const source: ReportSource = {
    bundle,
    remote: true,
    ...(config.progress
      ? {
          live: {
            progress: config.progress,
            async reload() {
              source.bundle = (await fetchJson(config.bundle)) as PageBundle;
              // The index grew: the sample browser reads it again when it is opened next.
              cache.clear();
            },
          },
        }
      : {}),
    async samples(run) {
      let found = cache.get(run);
      if (!found) {
        found = (await fetchJson(fill(config.samples, run))) as PageSamples;
        cache.set(run, found);
      }
      return found;
    },
    async detail(run, row) {
      const inline = cache.get(run)?.details[String(row)];
      return inline ?? ((await fetchJson(fill(config.detail, run, row))) as PageDetail | undefined);
    },
  };
  return source;
}

const TABS = [
  ['comparison', 'Comparison'],
  ['overview', 'Overview'],
  ['models', 'Models'],
  ['charts', 'Charts'],
  ['judge', 'Judge health'],
  ['samples', 'Samples'],
] as const;
type Tab = (typeof TABS)[number][0];

function start(source: ReportSource): void {
  const app = document.getElementById('app');
  if (!app) return;
  clear(app);
  const runs = (): readonly PageRun[] => source.bundle.runs;
  const many = runs().length > 1;
  const comparison = source.comparison;
  const title = comparison
    ? `assay compare — ${comparison.task} · ${comparison.runB.id} against ${comparison.runA.id}`
    : many
      ? `assay report — ${runs().length} runs`
      : `assay report — ${runs()[0]?.overview.task ?? ''} · ${runs()[0]?.overview.run ?? ''}${runs()[0]?.summary.demo ? ' (demo)' : ''}`;
  document.title = title;
  const nav = el('nav', { class: 'tabs' });
  const panels = new Map<Tab, HTMLElement>();
  const rendered = new Set<Tab>();
  const render: Record<Tab, (host: HTMLElement) => void> = {
    comparison: (host) => (comparison ? comparisonBlock(source, comparison, host) : undefined),
    overview: (host) => host.append(...runs().map((run) => overviewBlock(run, many))),
    models: (host) => host.append(...runs().map((run) => modelsBlock(run, many))),
    charts: (host) => host.append(...runs().map((run) => chartsBlock(run, many))),
    judge: (host) => host.append(...runs().map((run) => judgeBlock(run, many))),
    samples: (host) => void samplesBlock(source, host),
  };
  const show = (tab: Tab): void => {
    for (const [name, panel] of panels) panel.hidden = name !== tab;
    for (const button of nav.querySelectorAll('button')) button.classList.toggle('active', button.dataset['tab'] === tab);
    const panel = panels.get(tab);
    if (panel && !rendered.has(tab)) {
      rendered.add(tab);
      render[tab](panel);
    }
  };
  for (const [tab, label] of TABS) {
    if (tab === 'comparison' && !comparison) continue;
    const button = el('button', { type: 'button', data: { tab } }, label);
    button.addEventListener('click', () => show(tab));
    nav.appendChild(button);
    // Several runs: each summary tab sets them side by side, one column per run (the sample browser is one list over every run).
    const columns = many && tab !== 'samples' && tab !== 'comparison';
    panels.set(tab, el('section', { class: columns ? 'panel columns' : 'panel', id: `panel-${tab}`, hidden: true }));
  }
  const made = el('p', { class: 'note' }, `made ${source.bundle.generatedAt} by assay ${source.bundle.toolkitVersion}`);
  const header = el('header', null, el('h1', null, title), made);
  // A demo's numbers are its script's: said above every tab, once per demo run.
  for (const run of runs()) if (run.summary.demo) header.appendChild(el('p', { class: 'warning demo' }, `${many ? `run ${run.overview.run}: ` : ''}${run.summary.demo}`));
  app.append(header, nav, ...panels.values());
  show(comparison ? 'comparison' : 'overview');
  if (source.live) {
    // A live run: the summary tabs shown so far are drawn again from the new summaries; the sample browser reads the grown index when it is opened next.
    const live = source.live;
    const repaint = async (): Promise<void> => {
      await live.reload();
      made.textContent = `made ${source.bundle.generatedAt} by assay ${source.bundle.toolkitVersion}`;
      for (const tab of [...rendered]) {
        const panel = panels.get(tab);
        if (!panel || (tab === 'samples' && !panel.hidden)) continue;
        clear(panel);
        rendered.delete(tab);
        if (!panel.hidden) show(tab);
      }
    };
    header.appendChild(liveStatus(live.progress, source.bundle.runs.map((r) => r.overview.status), repaint));
  }
  performance.mark('assay-overview');
  // The frame that shows the overview: marked, so a benchmark can read when it came (ms from navigation start).
  requestAnimationFrame(() => {
    performance.mark('assay-overview-painted');
    document.documentElement.dataset['overview'] = 'painted';
  });
}

function fail(error: unknown): void {
  const app = document.getElementById('app');
  if (app) {
    clear(app);
    app.appendChild(el('p', { class: 'bad' }, `This report could not be read: ${String(error)}`));
  }
  document.documentElement.dataset['overview'] = 'failed';
}

(function main(): void {
  try {
    const list = jsonScript('assay-run-list') as RunListConfig | undefined;
    if (list) {
      startRunList(list);
      return;
    }
    const inline = jsonScript('assay-report');
    if (inline !== undefined) {
      start(inlineSource(inline as PageBundle));
      return;
    }
    const config = jsonScript('assay-source') as RemoteConfig | undefined;
    if (!config) throw new Error('no report data in this page');
    remoteSource(config).then(start, fail);
  } catch (error) {
    fail(error);
  }
})();
