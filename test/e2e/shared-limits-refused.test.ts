import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// --shared-limits refused in one line, exit 2, before anything is recorded (no Redis needed).

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'assay-shared-refused-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (db: string, ...extra: string[]) =>
  runAssay(['run', 'metatool/similar', '--model', 'openai:m', '--base-url', 'http://127.0.0.1:9', '--per-tool', '1', '--limit', '2', '--db', db, ...extra], { ASSAY_DATA_DIR: testDataDir(), OPENAI_API_KEY: 'sk-x' });

test('--shared-limits: a URL that is not redis://, a Redis nobody answers at, no --rpm/--tpm, a bad prefix: one line each, exit 2, no database made', { skip }, async () => {
  const cases: [string[], RegExp][] = [
    [['--rpm', '60', '--shared-limits', 'http://127.0.0.1:6379'], /^assay: --shared-limits http:\/\/127\.0\.0\.1:6379\/?: expected a redis:\/\/ or rediss:\/\/ URL, got http:$/],
    [['--rpm', '60', '--shared-limits', 'redis://:hunter2@127.0.0.1:1'], /^assay: --shared-limits redis:\/\/:\*\*\*@127\.0\.0\.1:1: cannot reach Redis \(.*ECONNREFUSED.*\)$/],
    [['--shared-limits', 'redis://127.0.0.1:1'], /^assay: --shared-limits shares the --rpm and --tpm limits: give at least one of them$/],
    [['--tpm', '600', '--shared-limits', 'redis://127.0.0.1:1', '--shared-limits-prefix', 'a b*'], /^assay: --shared-limits-prefix "a b\*": use 1–100 letters, digits/],
  ];
  for (const [i, [extra, expected]] of cases.entries()) {
    const db = join(dir, `r${i}.db`);
    const result = await run(db, ...extra);
    assert.equal(result.code, 2, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', expected);
    assert.ok(!result.stderr.includes('hunter2'), 'the password is never printed');
    assert.equal(existsSync(db), false, 'nothing recorded');
  }
});
