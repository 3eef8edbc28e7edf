// The shapes the page reads: a view of `RunReport` (src/report/run-report.ts), schema 1.
// The page is compiled on its own: what the server declares without imports (report-shapes.ts,
// benchmarks/metric-value.ts) it reads through `import()` types; the rest is declared here, and
// a test checks a built report against them.

interface PageInterval { readonly low: number; readonly high: number }
type Metric = import('../../../benchmarks/metric-value.js').MetricValue;

interface PageCell { readonly value: number | null; readonly low?: number; readonly high?: number }
interface PageTable {
  readonly models: readonly string[];
  readonly rows: readonly { readonly key: string; readonly unit: Unit; readonly meaning?: string; readonly cells: readonly (PageCell | null)[] }[];
}

interface PageSeries {
  readonly model: string;
  readonly values: readonly (number | null)[];
  readonly low?: readonly (number | null)[];
  readonly high?: readonly (number | null)[];
}
interface PageChart {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly unit: Unit;
  readonly interval: 'given' | 'wilson' | null;
  readonly categories: readonly string[];
  readonly labels: readonly string[];
  readonly series: readonly PageSeries[];
  readonly matrix?: { readonly rows: readonly string[]; readonly columns: readonly string[]; readonly cells: readonly (readonly string[])[] };
}

type PageJudgeHealth = import('../../report-shapes.js').JudgeHealth;

interface PageModelCounts {
  readonly samples: number;
  readonly done: number;
  readonly errors: number;
  readonly pending: number;
  readonly no_verdict: number;
  readonly cached: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number | null;
  readonly errors_by_kind: Readonly<Record<string, number>>;
}

interface PageRoleCost {
  readonly role: string;
  readonly model: string;
  readonly calls: number;
  readonly failed_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number | null;
}

interface PageOverview {
  readonly run: string;
  readonly task: string;
  readonly taskVersion: string;
  readonly taskDescription: string;
  readonly status: string;
  readonly statusNote?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly durationMs: number;
  readonly models: readonly string[];
  readonly judge: { readonly model: string; readonly repeats: number; readonly format: string; readonly maxParseRetries: number; readonly selfGrading: boolean; readonly temperature?: number } | null;
  readonly userModel: string | null;
  readonly settings: unknown;
  readonly seed: number;
  readonly options: unknown;
  readonly datasetChecksums: Readonly<Record<string, string>>;
  readonly modifiedData: readonly { readonly file: string; readonly pinned: string; readonly actual: string }[];
  readonly applicationTargetNote?: string;
  readonly promptVersion: string;
  readonly toolkitVersion: string;
  readonly engine: unknown;
  readonly samples: { readonly total: number; readonly stored: number };
  readonly reviews: number;
}

/** A task's declaration of a metric (`MetricDeclaration` in src/benchmarks/task.ts). */
interface PageDeclaration {
  readonly name: string;
  readonly meaning: string;
  readonly unit: 'share' | 'count' | 'mean' | 'level' | 'coefficient';
  readonly direction: 'higher' | 'lower' | 'none';
  readonly interval: 'wilson' | 'bootstrap' | 'none';
  readonly readings?: readonly string[];
  readonly parts?: readonly PageDeclaration[];
}

/** A defect rate corrected for the judge's error (`CorrectedDefectRateSummary` in src/benchmarks/corrected-rate.ts). */
interface PageCorrectedRate {
  readonly judge_rate: number | null;
  readonly rate: number | null;
  readonly ci95: { readonly low: number; readonly high: number } | null;
  readonly labelled: number;
  readonly unlabelled: number;
  readonly labels_to_halve: number | null;
  readonly reviews_left_out: number;
}

interface PageRun {
  readonly schema: number;
  readonly overview: PageOverview;
  readonly summary: {
    /** Present on a run made by `assay demo`: the line saying its answers are scripted. */
    readonly demo?: string;
    readonly models: Readonly<Record<string, { readonly counts: PageModelCounts; readonly metrics: Readonly<Record<string, Metric>>; readonly reviewed?: { readonly corrected_defect_rate?: PageCorrectedRate } }>>;
    readonly cost_by_role: readonly PageRoleCost[];
  };
  readonly tables: { readonly metrics: PageTable; readonly reviewed?: PageTable };
  /** The task's declarations of the metrics the run has. */
  readonly metricDeclarations: readonly PageDeclaration[];
  readonly charts: readonly PageChart[];
  readonly judgeHealth: readonly PageJudgeHealth[];
  readonly detailsPolicy: { readonly mode: string; readonly limit?: number; readonly included: number; readonly rows: number };
}

interface PageBundle {
  readonly schema: number;
  readonly generatedAt: string;
  readonly toolkitVersion: string;
  readonly runs: readonly PageRun[];
}

type PageIndex = import('../../report-shapes.js').SampleIndex;

interface PageMessage { readonly role: string; readonly content: string; readonly toolCalls?: readonly { readonly name: string; readonly rawArguments: string }[]; readonly toolCallId?: string }
interface PageOutput { readonly text: string; readonly toolCalls: readonly { readonly name: string; readonly rawArguments: string; readonly parseError?: string }[]; readonly finishReason: string; readonly warnings: readonly unknown[] }
interface PageCall {
  readonly role: string;
  readonly actor?: string;
  readonly step?: string;
  readonly attempt: number;
  readonly messages: readonly PageMessage[] | null;
  readonly responseFormat?: string;
  readonly settings?: unknown;
  readonly output: PageOutput | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly latencyMs: number;
  readonly costUsd: number | null;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}
interface PageDetail {
  readonly sample: string;
  readonly model: string;
  /** The row's repeat (0-based), for a run whose model answers each sample several times. */
  readonly repeat?: number;
  readonly verdict: string;
  readonly input: readonly PageMessage[];
  readonly tools?: readonly { readonly name: string; readonly description: string; readonly parameters: unknown }[];
  readonly target: unknown;
  readonly metadata: unknown;
  readonly output: PageOutput | null;
  readonly answer: unknown;
  readonly value: boolean | number | null;
  readonly explanation: string | null;
  readonly scoreMetadata: Readonly<Record<string, unknown>> | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly review?: { readonly verdict: boolean; readonly note: string; readonly source: string; readonly reviewedAt: string; readonly changed: boolean };
  readonly transcript?: readonly { readonly role: string; readonly step: string; readonly model: string; readonly text: string | null; readonly toolCalls?: readonly { readonly name: string; readonly rawArguments: string }[]; readonly error?: { readonly kind: string; readonly message: string } }[];
  readonly calls: readonly PageCall[];
}

/** A run's samples: its index and the details this file carries (inline), by index row. */
interface PageSamples {
  readonly index: PageIndex;
  readonly details: Readonly<Record<string, PageDetail>>;
}
