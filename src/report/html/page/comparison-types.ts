// The shapes the comparison page reads: `RunComparison` as `assay compare -o` inlines it
// (<script type="application/json" id="assay-comparison">), declared once in
// src/runner/compare/comparison-shapes.ts; `import()` types keep this file a script of the page.

type PageComparison = import('../../../runner/compare/comparison-shapes.js').RunComparison;
type PageComparedRun = import('../../../runner/compare/comparison-shapes.js').ComparedRun;
type PageModelComparison = import('../../../runner/compare/comparison-shapes.js').ModelComparison;
type PagePassFail = import('../../../runner/compare/comparison-shapes.js').PassFailComparison;
type PageValueComparison = import('../../../runner/compare/comparison-shapes.js').ValueComparison;
