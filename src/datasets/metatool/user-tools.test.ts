import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { InputError, sha256 } from '../../core/index.js';
import { loadUserTools, parseUserTools } from './user-tools.js';

const FILE = '/x/my-tools.json';

/** The InputError thrown by `fn`, whose message must contain every part. */
async function rejects(fn: () => Promise<unknown>, ...parts: string[]): Promise<void> {
  await assert.rejects(fn, (e: unknown) => {
    assert.ok(e instanceof InputError, String(e));
    for (const part of parts) assert.ok(e.message.includes(part), `"${e.message}" lacks "${part}"`);
    return true;
  });
}

test('parseUserTools: plain and OpenAI-style entries, queries optional', async () => {
  const tools = await parseUserTools(
    JSON.stringify([
      { name: 'weather', description: 'Forecasts.', queries: ['Rain tomorrow?'] },
      { type: 'function', function: { name: 'stocks', description: 'Share prices.', parameters: { type: 'object' } }, queries: ['AAPL?', 'MSFT?'] },
      { name: 'maps', description: 'Directions.' },
    ]),
    FILE,
  );
  assert.deepEqual(tools, [
    { name: 'weather', description: 'Forecasts.', queries: ['Rain tomorrow?'] },
    { name: 'stocks', description: 'Share prices.', queries: ['AAPL?', 'MSFT?'] },
    { name: 'maps', description: 'Directions.', queries: [] },
  ]);
});

test('parseUserTools: errors name the file and the entry', async () => {
  await rejects(() => parseUserTools('{"name": "a"}', FILE), FILE, 'expected a JSON array');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x"},\n{"name": "b"', FILE), FILE, 'not valid JSON');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x"}, {"name": "b", "description": ""}]', FILE), FILE, '$[1]');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x", "queries": "q"}]', FILE), FILE, '$[0]');
  await rejects(() => parseUserTools('[{"type": "function", "function": {"name": "a"}}]', FILE), FILE, '$[0]');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x"}, {"name": "a", "description": "y"}]', FILE), FILE, 'entry [1]', 'entry [0]', 'unique');
  await rejects(() => parseUserTools('[{"name": "None", "description": "x"}]', FILE), FILE, 'entry [0]', '"None"');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x", "queries": ["q"]}, {"name": "b", "description": "y", "queries": ["q"]}]', FILE), FILE, 'entry [1]', 'also under "a" (entry [0])');
  await rejects(() => parseUserTools('[{"name": "a", "description": "x", "queries": ["q", "q"]}]', FILE), FILE, 'entry [0]', 'twice');
});

test('loadUserTools: a catalogue sorted by name, queries as the pool, the sha256 keyed by the absolute path', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'assay-user-tools-'));
  try {
    const entries = Array.from({ length: 10 }, (_, i) => ({ name: `tool${9 - i}`, description: `does thing ${i}`, ...(i < 2 ? { queries: [`question ${i}`] } : {}) }));
    const text = JSON.stringify(entries);
    const file = path.join(dir, 'tools.json');
    await writeFile(file, text);
    const loaded = await loadUserTools(path.relative(process.cwd(), file), 10);
    assert.deepEqual(loaded.checksums, { [file]: sha256(Buffer.from(text)) });
    assert.deepEqual(loaded.value.tools, ['tool0', 'tool1', 'tool2', 'tool3', 'tool4', 'tool5', 'tool6', 'tool7', 'tool8', 'tool9']);
    assert.equal(loaded.value.descriptions.get('tool9'), 'does thing 0');
    assert.deepEqual(loaded.value.pool.queriesByTool.get('tool9'), ['question 0']);
    assert.deepEqual(loaded.value.pool.queriesByTool.get('tool0'), [], 'a tool without queries is a candidate with no samples');
    assert.equal(loaded.value.pool.toolOfQuery.get('question 1'), 'tool8');
    await assert.rejects(loadUserTools(file, 11), (e: unknown) => e instanceof InputError && e.message.includes(file) && e.message.includes('10 tools') && e.message.includes('at least 11'));
    await assert.rejects(loadUserTools(path.join(dir, 'missing.json'), 10), (e: unknown) => e instanceof InputError && e.message.includes('missing.json: file not found'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
