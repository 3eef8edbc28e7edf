// The dependency rule of docs/architecture.md, enforced: each folder of src/ may import only the
// folders its row of the architecture table names in its "depends on" column (in backticks), so
// the table cannot drift from the code. `npm run check:deps` prints violations; a test fails on them.
const { readFileSync } = require('node:fs');
const path = require('node:path');

/** The architecture table's rows: folder → the folders it may import. */
function allowedImports() {
  const doc = readFileSync(path.join(__dirname, 'docs', 'architecture.md'), 'utf8');
  const rows = doc.split('\n').filter((line) => /^\| `[a-z]+\/` \|/.test(line));
  const layers = rows.map((row) => /^\| `([a-z]+)\/`/.exec(row)[1]);
  const allowed = {};
  for (const [i, row] of rows.entries()) {
    const cells = row.split('|');
    const dependsOn = cells[cells.length - 2];
    allowed[layers[i]] = [...dependsOn.matchAll(/`([a-z]+)`/g)].map((m) => m[1]).filter((name) => layers.includes(name));
  }
  return allowed;
}

const ALLOWED = allowedImports();
const LAYERS = Object.keys(ALLOWED);

module.exports = {
  forbidden: LAYERS.map((layer) => ({
    name: `${layer}-imports-only-${ALLOWED[layer].join('-') || 'nothing'}`,
    comment: `src/${layer}/ may import only ${ALLOWED[layer].map((l) => `src/${l}/`).join(', ') || 'nothing of ours'} and src/version.ts (docs/architecture.md)`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: { path: `^src/(${[...LAYERS.filter((l) => l !== layer && !ALLOWED[layer].includes(l)), 'index\\.ts'].join('|')})(/|$)` },
  })),
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
