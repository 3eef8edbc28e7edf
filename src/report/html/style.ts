/** The report page's stylesheet (inlined, allowed by its hash in the page's CSP). */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5d6677; --line: #d9dee7; --bg: #f6f7fa; --accent: #3366cc; --bad: #b3261e; --warn: #9a6700; --good: #1e7b34; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--fg); background: var(--bg); }
#app { max-width: 1200px; margin: 0 auto; padding: 16px 20px 48px; }
header h1 { font-size: 20px; margin: 4px 0; word-break: break-all; }
h2 { font-size: 17px; margin: 8px 0 12px; }
h3 { font-size: 15px; margin: 18px 0 8px; }
h4 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
h5 { font-size: 12px; margin: 8px 0 4px; color: var(--muted); }
.note { color: var(--muted); font-size: 13px; }
.warning { background: #fff4d6; border: 1px solid #e3c46c; padding: 8px 12px; border-radius: 6px; }
.bad { color: var(--bad); } .warn { color: var(--warn); }
nav.tabs { display: flex; gap: 4px; border-bottom: 1px solid var(--line); margin: 12px 0 16px; flex-wrap: wrap; }
nav.tabs button { border: 1px solid transparent; border-bottom: none; background: none; padding: 8px 14px; font: inherit; cursor: pointer; color: var(--muted); border-radius: 6px 6px 0 0; }
nav.tabs button.active { background: #fff; border-color: var(--line); color: var(--fg); font-weight: 600; margin-bottom: -1px; }
#app:has(.panel.columns:not([hidden])) { max-width: none; }
.panel.columns:not([hidden]) { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(600px, 1fr); gap: 12px; align-items: start; overflow-x: auto; }
.panel.columns article.run { min-width: 0; overflow-x: auto; margin-bottom: 0; }
.no-data { color: var(--muted); background: #f3f4f7; border: 1px dashed var(--line); border-radius: 6px; padding: 14px 16px; }
.meaning { display: block; color: var(--muted); font-size: 12px; }
article.run { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 18px 16px; margin-bottom: 16px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; min-width: 0; }
table.grid { border-collapse: collapse; width: 100%; margin: 6px 0; font-variant-numeric: tabular-nums; }
table.grid th, table.grid td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
table.grid th { background: #f0f2f6; font-weight: 600; }
table.metrics td:not(:first-child), table.counts td:not(:first-child) { text-align: right; white-space: nowrap; }
.ci { color: var(--muted); font-size: 12px; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; background: #f3f4f7; border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 4px 0; max-height: 420px; overflow: auto; }
pre.error { background: #fdecea; border-color: #f1b0aa; }
pre.toolcall { background: #eef4ff; }
.status { font-weight: 600; } .status-finished { color: var(--good); } .status-interrupted, .status-stale { color: var(--warn); } .status-failed { color: var(--bad); }
.chart-card { margin: 8px 0 20px; }
.chart-wrap { overflow-x: auto; }
svg.chart { background: #fff; font: 11px system-ui, sans-serif; }
svg.chart .grid { stroke: #e6e9ef; } svg.chart .axis { stroke: #9aa3b2; }
svg.chart .tick, svg.chart .label { fill: #4a5263; } svg.chart .na { fill: #9aa3b2; }
svg.chart .whisker line { stroke: #1d2330; stroke-width: 1.2; }
ul.legend { list-style: none; padding: 0; display: flex; gap: 14px; flex-wrap: wrap; margin: 4px 0; }
ul.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.matrices { display: flex; gap: 24px; flex-wrap: wrap; }
figure.matrix { margin: 0; } figure.matrix figcaption { font-weight: 600; margin-bottom: 4px; }
table.confusion { border-collapse: collapse; }
table.confusion th, table.confusion td { border: 1px solid var(--line); padding: 8px 12px; text-align: center; }
table.confusion td strong { display: block; font-size: 16px; } table.confusion .key { color: var(--muted); font-size: 11px; }
.filters { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }
.filters select, .filters input[type=search] { font: inherit; padding: 3px 6px; }
.pager { display: flex; align-items: center; gap: 8px; }
button.link { background: none; border: none; padding: 0; color: var(--accent); cursor: pointer; font: 12px ui-monospace, monospace; text-align: left; word-break: break-all; }
table.runs button.link { white-space: nowrap; word-break: normal; }
.verdict { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; background: #e9ecf2; margin-left: 6px; }
.v-pass { background: #dff3e4; color: var(--good); } .v-fail { background: #fde2df; color: var(--bad); } .v-error { background: #f9d2cf; color: var(--bad); } .v-no-verdict, .v-manual { background: #fff1c9; color: var(--warn); }
table.samples td:first-child .verdict { margin-left: 0; }
.detail { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 18px; margin-top: 16px; }
.detail .repeats { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 14px; margin: 6px 0 0; }
.detail .repeats .current { font: 12px ui-monospace, monospace; }
.detail .part { margin: 14px 0; }
.message .role, .judge-reply .role, .transcript .role { font-size: 12px; color: var(--muted); font-weight: 600; }
details.call { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
details.call.role-judge { border-left: 4px solid #a23bc4; } details.call.role-user { border-left: 4px solid #dc7633; } details.call.role-test { border-left: 4px solid #3366cc; }
details.call summary { cursor: pointer; }
ol.transcript { padding-left: 20px; }
ul.judge-lines { color: var(--muted); font-size: 13px; padding-left: 18px; }
svg.forest .zero { stroke: #1d2330; stroke-width: 1.2; } svg.forest .ci-line { stroke: #3366cc; stroke-width: 2; } svg.forest .estimate { fill: #3366cc; }
.buckets { display: flex; gap: 6px; flex-wrap: wrap; margin: 10px 0; }
.buckets button { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 14px; background: #fff; cursor: pointer; }
.buckets button.active { background: #e8effc; border-color: var(--accent); }
ul.sample-ids { columns: 3; padding-left: 18px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.pair .side { min-width: 0; }
`;
