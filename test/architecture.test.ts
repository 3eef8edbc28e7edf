import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { packageRoot } from '../src/version.js';

// The rule set is built from docs/architecture.md's table by .dependency-cruiser.cjs.
const config = createRequire(import.meta.url)(path.join(packageRoot, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

async function violations(folder: string, forbidden: IForbiddenRuleType[]): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(packageRoot);
  try {
    const result = await cruise([folder], { ruleSet: { forbidden }, ...config.options, validate: true });
    if (typeof result.output === 'string') throw new Error('expected a JSON result');
    return result.output.summary.violations.map((v) => `${v.from} → ${v.to} (${v.rule.name})`);
  } finally {
    process.chdir(previous);
  }
}

test('every import of src/ keeps to the dependency rule of docs/architecture.md', async () => {
  assert.ok(config.forbidden.length >= 15, 'one rule per folder row of the table');
  assert.deepEqual(await violations('src', config.forbidden), []);
});

test('the check catches an import the table forbids (runner forbidden from core, as a probe)', async () => {
  const probe = config.forbidden.map((rule) => (rule.name?.startsWith('runner-') ? { ...rule, to: { path: '^src/core/' } } : rule));
  const found = await violations('src/runner', probe);
  assert.ok(found.some((v) => v.startsWith('src/runner/run.ts → src/core/index.ts')), found.join('\n'));
});
