// The public library surface of assay: a curated list of re-exports, nothing else.
// Runs, resumes, re-scores, reviews, reports, comparisons, the viewer and copying stores are
// reachable from here (see README "Library"); some commands are the CLI's alone (`assay demo`,
// `assay worker`, `assay agreement`, `--estimate`).

// Core shapes
export * from './core/index.js';

// Tasks
export type { Task, PreparedTask, TaskOptions, TaskContext, Metrics, MetricValue, ScoredSample, TextEmbedder, ScoreComparison, ComparableScore, ChartSpec, MetricDeclaration, MetricUnit, MetricDirection, MetricInterval, MetricsContext, TaskBaselines } from './benchmarks/task.js';
export { DEFAULT_COMPARISON } from './benchmarks/comparison.js';
export { allTasks, findTask, registerTask } from './benchmarks/registry.js';
export { metatoolTasks } from './benchmarks/metatool/index.js';
export { METATOOL_ANSWERERS } from './benchmarks/metatool/baselines/index.js';
export { isManualAnalysis } from './benchmarks/metatool/scoring.js';
export { functionchatTasks } from './benchmarks/functionchat/index.js';

// Models: the provider contract, the registry, the middleware, the providers
export type { ModelProvider, GenerateOptions } from './models/spec.js';
export { createProvider, createTargetProvider, type ProviderConfig, type TargetDeclaration, type HttpTargetOptions, type ModuleTargetOptions, type ExecTargetOptions } from './models/registry.js';
export type { TargetRequest } from './models/targets/index.js';
export { Model, defaultModelSettings, type ModelOptions, type ModelSettings, type CallOutcome, type CallCache } from './models/middleware/model.js';
export { defaultRetryPolicy, type RetryPolicy } from './models/middleware/retry-policy.js';
export { KNOWN_PRICES, costOf, type Price } from './models/pricing.js';
export { createOpenAIProvider, type OpenAIProviderOptions } from './models/providers/openai/index.js';
export { createAnthropicProvider, type AnthropicProviderOptions } from './models/providers/anthropic/index.js';
export { createGeminiProvider, type GeminiProviderOptions } from './models/providers/gemini/index.js';
export { createOllamaProvider, type OllamaProviderOptions } from './models/providers/ollama/index.js';
export { createReplayProvider } from './models/providers/replay/index.js';
export { createBaselineProvider, type BaselineProviderOptions } from './models/providers/baseline/index.js';
export { createScriptedProvider } from './models/providers/scripted/index.js';

// Judges
export * from './judges/index.js';

// Scorers and metrics
export { parseYesNoStrict, parseYesNoPaper, parseToolSelection, parseToolSelectionPaper, type PaperYesNo, type PaperSelection, type Selection, type SelectionOptions } from './scorers/index.js';
export { scoreWith, type Scorer, type ScoringContext, type ExplainedScore } from './scorers/scorer.js';
export { binaryClassification, ratio, rateBy, wilsonInterval, type Interval } from './metrics/index.js';

// Running, storing, reporting
export { startRun, resumeRun, summarizeStoredRun, type RunDependencies, type ResumeOptions } from './runner/run.js';
export { rescoreRun, type RescoreOptions, type RescoreOutcome } from './analysis/rescore.js';
export { readRunBothWays, type RunReadings, type ModelReadings } from './analysis/readings.js';
export { compareRuns } from './analysis/compare/compare-runs.js';
export { buildRunComparison, type RunComparison, type ModelComparison, type ComparedRun, type ComparisonInput } from './analysis/compare/run-comparison.js';
export type { PassFailComparison, PassFailBuckets } from './analysis/compare/pass-fail.js';
export type { ValueComparison } from './analysis/compare/values.js';
export { defaultJudgeSpec, type RunSpec, type EngineSettings, type JudgeSpec } from './runner/run-spec.js';
export type { RunSummary, ModelSummary, ModelCounts, JudgeCounts, ReviewedSummary } from './analysis/summary.js';
export { applyReviewFile, type ReviewOutcome } from './analysis/review.js';
export type { JudgeMetadata } from './judges/judge-metadata.js';
export type { ProgressEvent } from './runner/execute.js';
export { HeldLease, RunLeasedError, leaseSettings, DEFAULT_LEASE_TTL_MS, type LeaseSettings } from './runner/run-lease.js';
export { STOP_AFTER, STOP_UNANSWERED, type FailFastStop } from './runner/fail-fast.js';
export { modifiedDataFiles, type ModifiedDataFile } from './datasets/pinned.js';
export type { Store, RunImport } from './store/store.js';
export { runState, readRunState, type RunState, type StoredLease } from './store/run-state.js';
export type * from './store/records.js';
export { openSqliteStore, SqliteStore } from './store/sqlite/index.js';
export { openStore } from './store/open-store.js';
export { parseStoreUrl, redactStoreUrl, type StoreUrl } from './store/store-url.js';
export { copyRuns, type CopyOptions, type CopyOutcome, type CopyProgress } from './store/copy/copy-runs.js';
export { openStorePair } from './store/copy/store-pair.js';
export { runChecksum, type RunChecksum, type RunPart } from './store/copy/run-digest.js';
// Types only: the PostgreSQL client is loaded when `openStore` is given a postgres:// URL.
export type { PostgresStore } from './store/postgres/postgres-store.js';
export { exportRows, formatRows, type ExportFormat, type ExportRow } from './report/export.js';
export {
  buildRunReport,
  buildReportBundle,
  parseDetailsPolicy,
  DEFAULT_DETAILS,
  RUN_REPORT_SCHEMA,
  type RunReport,
  type ReportBundle,
  type RunOverview,
  type DetailsPolicy,
  type RunReportOptions,
} from './report/run-report.js';
export type { ChartData, ChartSeries } from './report/report-charts.js';
export type { JudgeHealth } from './report/judge-health.js';
export type { MetricTable, MetricRow, MetricCell } from './report/metric-table.js';
export { VERDICTS, ROW_FLAGS, type SampleIndex, type SampleDetail, type CallView, type OutputView, type Verdict } from './report/sample-rows.js';
export { renderReportHtml, renderReportShell, reportCsp, reportPageScript } from './report/html/html-report.js';
export { startViewServer, type ViewServer, type ViewServerOptions } from './report/view/view-server.js';
export type { RunProgress } from './report/view/run-progress.js';

// Data
export { resolveDataDir } from './datasets/data-dir.js';
export { ensureDataset, verifyDataset } from './datasets/fetch/index.js';
