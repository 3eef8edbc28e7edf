// The shapes the comparison page reads: `RunComparison` as `assay compare -o` inlines it
// (<script type="application/json" id="assay-comparison">), declared once in
// src/analysis/compare/comparison-shapes.ts; `import()` types keep this file a script of the page.

type PageComparison = import('../../../analysis/compare/comparison-shapes.js').RunComparison;
type PageComparedRun = import('../../../analysis/compare/comparison-shapes.js').ComparedRun;
type PageModelComparison = import('../../../analysis/compare/comparison-shapes.js').ModelComparison;
type PagePassFail = import('../../../analysis/compare/comparison-shapes.js').PassFailComparison;
type PageValueComparison = import('../../../analysis/compare/comparison-shapes.js').ValueComparison;
