// The shapes of `assay compare`'s view-model, declared once: the comparison builds them
// (run-comparison.ts, pass-fail.ts, values.ts) and the comparison page reads them
// (src/report/html/page/comparison.ts). No imports: the page, compiled apart for the browser,
// reads these declarations through type-only `import()` types, and anything imported here would
// be compiled with it. The statistics' own types (metrics/) are checked against these where the
// comparison is built.

/** What a comparison says of each run. */
export interface ComparedRun {
  readonly id: string;
  readonly taskVersion: string;
  readonly createdAt: string;
  readonly status: string;
  readonly models: readonly string[];
}

/** One model of run A against one model of run B. */
export interface ModelComparison {
  readonly modelA: string;
  readonly modelB: string;
  readonly samples: {
    /** Samples with a result in both runs and the same input. */
    readonly shared: number;
    readonly onlyInA: number;
    readonly onlyInB: number;
    /** Samples with a result in both runs under one id but another input (another question): not paired. */
    readonly inputDiffers: number;
    /** Shared samples that ended in error on either side: left out of every figure below. */
    readonly errors: number;
  };
  /** Present only when a run has repeats (k > 1): the unit of every figure below is then the sample, not the answer. */
  readonly pairing?: SamplePairing;
  /** Ids of the shared samples with an error on either side. */
  readonly errorIds: readonly string[];
  /** Null when the task's scores have no pass/fail reading. */
  readonly passFail: PassFailComparison | null;
  /** Null when the task's scores have no number. */
  readonly value: ValueComparison | null;
}

/**
 * The view-model of `assay compare`: everything the console, `--json` and a report page show,
 * computed once from the stored results. Keys are stable; no figure depends on the clock.
 */
export interface RunComparison {
  readonly task: string;
  readonly runA: ComparedRun;
  readonly runB: ComparedRun;
  /** Things a reader must know to read the figures (models left out, task versions that differ…). */
  readonly notes: readonly string[];
  readonly comparisons: readonly ModelComparison[];
}

/**
 * How a comparison of runs with repeats pairs (docs/suites.md): by sample, each sample one unit
 * whatever its number of repeats, each side read over its own run's repeats. Absent for runs
 * without repeats, which pair answer with answer as they always did.
 */
export interface SamplePairing {
  readonly unit: 'sample';
  /** Answers per sample of run A and of run B (`--repeats`; 1 for a run without). */
  readonly repeatsA: number;
  readonly repeatsB: number;
  /** Repeats that ended in error in samples with another repeat read on that side: left out of their sample's share or mean. */
  readonly repeatErrors: number;
  /** The unit as a reader is told it: "paired by sample: 40 samples × up to 3 repeats, cluster bootstrap over samples". */
  readonly description: string;
}

/** The sample ids of each way a decided pair can go, and of the pairs left out for lack of a verdict. */
export interface PassFailBuckets {
  /** A pass, B fail. */
  readonly newlyFailing: readonly string[];
  /** A fail, B pass. */
  readonly newlyPassing: readonly string[];
  /** Fail on both sides. */
  readonly stillFailing: readonly string[];
  /** Pass on both sides. */
  readonly unchanged: readonly string[];
  /** No verdict on one side or both (neither pass nor fail): left out of the rates and the test. */
  readonly noVerdict: readonly string[];
}

/** What every pass/fail comparison has, whatever its unit. */
interface PassFailFigures {
  /** What a pass is for this task ("pass", "no defect"). */
  readonly passMeans: string;
  /** Units (answers paired with answers; with repeats, samples) with a pass or a fail on both sides: the denominator of both rates. */
  readonly decided: number;
  readonly noVerdict: number;
  readonly rateA: number | null;
  readonly rateB: number | null;
  /** rateB − rateA; null when nothing was decided on both sides. */
  readonly difference: number | null;
  readonly interval: { readonly low: number; readonly high: number } | null;
  /**
   * Units by how they moved. With repeats, by each sample's share of passing repeats: newly failing
   * = a lower share in B, newly passing = a higher one, still failing = none passing on either
   * side, unchanged = the same share with some passing.
   */
  readonly buckets: PassFailBuckets;
}

/** Pass rates of A and B over the answers decided on both sides (runs without repeats), their difference and McNemar's test. */
export interface PairedPassFail extends PassFailFigures {
  /** 95% interval of the difference for paired proportions (Newcombe 1998, method 10). */
  readonly intervalMethod: 'newcombe-paired-hybrid-score';
  /** McNemar on the discordant pairs: firstOnly = newly failing, secondOnly = newly passing. */
  readonly mcnemar: { readonly firstOnly: number; readonly secondOnly: number; readonly exactP: number; readonly chiSquare: number | null };
}

/**
 * Runs with repeats: per sample its share of passing repeats (over the repeats with a verdict) in A
 * and in B; rateA and rateB are the means of those shares over the samples decided on both sides,
 * the difference the mean of the per-sample differences.
 */
export interface SamplePassFail extends PassFailFigures {
  /** 95% percentile bootstrap interval, samples resampled with both their shares (a cluster bootstrap). */
  readonly intervalMethod: 'cluster-percentile-bootstrap';
  readonly bootstrapResamples: number;
  /** Two-sided sign-flip permutation test of the per-sample differences (instead of McNemar, whose units are answers). */
  readonly test: { readonly p: number | null; readonly exact: boolean; readonly resamples: number | null; readonly method: 'sign-flip-permutation' };
}

/** The pass/fail reading of a comparison: by answer without repeats, by sample with them (`intervalMethod` says which). */
export type PassFailComparison = PairedPassFail | SamplePassFail;

/** Mean of the task's number in A and B over the samples with a number on both sides, and their difference. */
export interface ValueComparison {
  /** What the number is ("score", "severity"). */
  readonly valueMeans: string;
  readonly decided: number;
  /** Pairs without a number on one side or both: left out. */
  readonly noVerdict: number;
  readonly noVerdictIds: readonly string[];
  readonly meanA: number | null;
  readonly meanB: number | null;
  /** meanB − meanA (the mean of the per-sample differences). */
  readonly difference: number | null;
  /**
   * 95% paired percentile bootstrap interval of the difference (samples resampled with both values).
   * With repeats each side's value of a sample is the mean over its repeats with a number, and the
   * bootstrap resamples samples (`cluster-percentile-bootstrap`).
   */
  readonly interval: { readonly low: number; readonly high: number } | null;
  readonly intervalMethod: 'paired-percentile-bootstrap' | 'cluster-percentile-bootstrap';
  readonly bootstrapResamples: number;
  /** Two-sided sign-flip permutation test of the per-sample differences. */
  readonly test: { readonly p: number | null; readonly exact: boolean; readonly resamples: number | null; readonly method: 'sign-flip-permutation' };
  /** Samples whose number is higher in B, lower in B, the same. */
  readonly higher: number;
  readonly lower: number;
  readonly equal: number;
}
