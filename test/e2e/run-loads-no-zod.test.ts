import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { assay } from '../../src/testing/cli-harness.js';

// A run and a resume whose models the command line names do not need zod: their engine
// settings, the run record's parts and the preflight are checked without it, and a judge's JSON
// schema is loaded by a JSON-mode judge only (zod costs ~14 MB and ~80 ms to load). The CLI is
// started with a module hook that writes down every import of zod, and who made it.

const skip = needsData('metatool');
const work = mkdtempSync(path.join(tmpdir(), 'assay-no-zod-'));
after(() => rmSync(work, { recursive: true, force: true }));

const hooks = path.join(work, 'zod-hooks.mjs');
const register = path.join(work, 'register.mjs');
const log = path.join(work, 'zod-imports.log');
writeFileSync(
  hooks,
  [
    "import { appendFileSync } from 'node:fs';",
    'export async function resolve(specifier, context, next) {',
    '  const resolved = await next(specifier, context);',
    "  if (/[/\\\\]node_modules[/\\\\]zod[/\\\\]/.test(resolved.url) && !/[/\\\\]node_modules[/\\\\]zod[/\\\\]/.test(context.parentURL ?? '')) appendFileSync(process.env.ZOD_LOG, `${context.parentURL} imports ${specifier}\\n`);",
    '  return resolved;',
    '}',
  ].join('\n'),
);
writeFileSync(
  register,
  [
    "import { appendFileSync } from 'node:fs';",
    "import { createRequire, register } from 'node:module';",
    `register(${JSON.stringify(pathToFileURL(hooks).href)});`,
    '// A require() of it (not seen by the hook) is in the CommonJS cache at exit.',
    'const require = createRequire(import.meta.url);',
    "process.on('exit', () => { for (const file of Object.keys(require.cache)) if (/[/\\\\]node_modules[/\\\\]zod[/\\\\]/.test(file)) appendFileSync(process.env.ZOD_LOG, `required ${file}\\n`); });",
    "// A module of ours that require() loads (the task registry's) imports without the hook seeing it (Node 20's",
    "// require of an ES module): zod, once evaluated, has made its global settings object.",
    "process.on('exit', () => { if (globalThis.__zod_globalConfig) appendFileSync(process.env.ZOD_LOG, 'zod evaluated\\n'); });",
  ].join('\n'),
);

const env = { ASSAY_DATA_DIR: testDataDir(), NODE_OPTIONS: `--import ${pathToFileURL(register).href}`, ZOD_LOG: log };
const zodImports = (): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');

test('the hook sees an import of zod (so that seeing none below means something)', async () => {
  const probe = path.join(work, 'probe.mjs');
  writeFileSync(probe, `await import(${JSON.stringify(import.meta.resolve('zod'))});\n`);
  const { spawnSync } = await import('node:child_process');
  rmSync(log, { force: true });
  spawnSync(process.execPath, [probe], { env: { ...process.env, ...env } });
  assert.match(zodImports(), /probe\.mjs imports /);
  assert.match(zodImports(), /zod evaluated/);
});

test('assay run and assay resume with models named on the command line do not load zod', { skip }, async () => {
  rmSync(log, { force: true });
  const db = path.join(work, 'assay.db');
  const ran = await assay(['run', 'metatool/similar', '--limit', '5', '-m', 'baseline:lexical', '--db', db, '--json'], env);
  assert.equal(ran.code, 0, ran.stderr);
  const id = (JSON.parse(ran.stdout) as { run: string }).run;
  const resumed = await assay(['resume', id, '--db', db, '--json'], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(zodImports(), '');
});

test('assay show of a run does not load zod (the suite code, which does, is loaded for a suite run only)', { skip }, async () => {
  const db = path.join(work, 'show.db');
  const ran = await assay(['run', 'metatool/similar', '--limit', '5', '-m', 'baseline:lexical', '--db', db, '--json'], env);
  assert.equal(ran.code, 0, ran.stderr);
  const id = (JSON.parse(ran.stdout) as { run: string }).run;
  rmSync(log, { force: true });
  const shown = await assay(['show', id, '--db', db, '--json'], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.deepEqual((JSON.parse(shown.stdout) as { run: string }).run, id);
  assert.equal(zodImports(), '');
});
