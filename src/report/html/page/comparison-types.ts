// The shapes the comparison page reads: a view of `RunComparison` (src/runner/compare/run-comparison.ts),
// inlined by `assay compare -o` as <script type="application/json" id="assay-comparison">.

interface PageComparedRun {
  readonly id: string;
  readonly taskVersion: string;
  readonly createdAt: string;
  readonly status: string;
  readonly models: readonly string[];
}

interface PagePassFail {
  readonly passMeans: string;
  readonly decided: number;
  readonly noVerdict: number;
  readonly rateA: number | null;
  readonly rateB: number | null;
  readonly difference: number | null;
  readonly interval: PageInterval | null;
  readonly intervalMethod: string;
  readonly mcnemar: { readonly firstOnly: number; readonly secondOnly: number; readonly exactP: number; readonly chiSquare: number | null };
  readonly buckets: {
    readonly newlyFailing: readonly string[];
    readonly newlyPassing: readonly string[];
    readonly stillFailing: readonly string[];
    readonly unchanged: readonly string[];
    readonly noVerdict: readonly string[];
  };
}

interface PageValueComparison {
  readonly valueMeans: string;
  readonly decided: number;
  readonly noVerdict: number;
  readonly noVerdictIds: readonly string[];
  readonly meanA: number | null;
  readonly meanB: number | null;
  readonly difference: number | null;
  readonly interval: PageInterval | null;
  readonly intervalMethod: string;
  readonly bootstrapResamples: number;
  readonly test: { readonly p: number | null; readonly exact: boolean; readonly resamples: number | null };
  readonly higher: number;
  readonly lower: number;
  readonly equal: number;
}

interface PageModelComparison {
  readonly modelA: string;
  readonly modelB: string;
  /** `inputDiffers`: absent in a comparison made before inputs were checked. */
  readonly samples: { readonly shared: number; readonly onlyInA: number; readonly onlyInB: number; readonly inputDiffers?: number; readonly errors: number };
  readonly errorIds: readonly string[];
  readonly passFail: PagePassFail | null;
  readonly value: PageValueComparison | null;
}

interface PageComparison {
  readonly task: string;
  readonly runA: PageComparedRun;
  readonly runB: PageComparedRun;
  readonly notes: readonly string[];
  readonly comparisons: readonly PageModelComparison[];
}
