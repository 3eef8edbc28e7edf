import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { MetaToolDataset, openMetaTool } from './dataset.js';
import { writeSyntheticMetaTool } from '../../testing/synthetic-metatool.js';
import { metatoolFile, needsData, testDataDir } from '../../testing/test-data.js';

const skip = needsData('metatool');
const dataDir = testDataDir();
const dataset = openMetaTool(dataDir);
const fileSha = (relative: string): string => createHash('sha256').update(readFileSync(metatoolFile(relative))).digest('hex');

const temps: string[] = [];
/** A fresh data dir in the system temp folder, removed after the tests. */
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-metatool-'));
  temps.push(dir);
  mkdirSync(path.join(dir, 'metatool'));
  return dir;
}
/** Links a real data file into a temp data dir (no copy of the data). */
function link(dir: string, relative: string): void {
  const target = path.join(dir, 'metatool', ...relative.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(metatoolFile(relative), target);
}
function write(dir: string, relative: string, text: string): string {
  const target = path.join(dir, 'metatool', ...relative.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
  return target;
}
const CATALOGUE_FILES = ['data/all_clean_data.csv', 'plugin_des.json', 'big_tool_des.json', 'plugin_info.json'];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Asserts that `promise` rejects with an InputError whose message contains every fragment. */
async function rejectsInput(promise: Promise<unknown>, ...fragments: string[]): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof InputError, `expected an InputError, got ${String(e)}`);
    for (const f of fragments) assert.ok(e.message.includes(f), `message "${e.message}" lacks "${f}"`);
    return true;
  });
}

describe('MetaTool data set (shipped files)', { skip }, () => {
  it('ToolE: 199 tools; 20,614 rows, 64 repeated queries, 11 ambiguous queries dropped', async () => {
    const { value } = await dataset.catalogue();
    assert.equal(value.tools.length, 199);
    // 20,614 rows − 64 repeats = 20,550 distinct queries, − 11 with two labels = 20,539.
    assert.deepEqual(value.pool.stats, { rows: 20614, duplicateRows: 64, ambiguousQueries: 11, queries: 20539 });
    assert.equal(value.pool.toolOfQuery.get('What is the weather forecast for tomorrow?'), undefined);
    assert.deepEqual([...value.tools].sort(), value.tools);
  });

  it('records the sha256 of every catalogue file under its data-dir-relative path', async () => {
    const { checksums } = await dataset.catalogue();
    assert.deepEqual(checksums, Object.fromEntries(CATALOGUE_FILES.map((f) => [`metatool/${f}`, fileSha(f)])));
  });

  it('describes tools as upstream prints them: big_tool_des text, else the Python repr of the plugin_info list', async () => {
    const { descriptions } = (await dataset.catalogue()).value;
    assert.equal(descriptions.get('NewsTool'), 'Stay connected to global events with our up-to-date news around the world.');
    assert.equal(descriptions.get('web_scraper'), "['Scrape content from webpages by providing a URL.', 'Scrape content from webpages by providing a URL.']");
    assert.equal(descriptions.get('recipe_retrieval'), `["Discover recipe ideas, meal plans and cooking tips from Tasty's millions of users!"]`);
    assert.equal(descriptions.size, 199);
  });

  it('awareness set: 1,040 items, 520 needing a tool', async () => {
    const { value, checksums } = await dataset.awarenessItems();
    assert.equal(value.length, 1040);
    assert.equal(value.filter((i) => i.needsTool).length, 520);
    assert.deepEqual(checksums, { 'metatool/tmp_dataset/Task1.json': fileSha('tmp_dataset/Task1.json') });
  });

  it('multi-tool queries: 497, each with two tools', async () => {
    const { value, checksums } = await dataset.multiToolQueries();
    assert.equal(value.length, 497);
    assert.deepEqual(value[0], { index: 0, query: 'I want to know the latest news about Tesla and how it has impacted the stock market.', tools: ['FinanceTool', 'NewsTool'] });
    assert.deepEqual(checksums, { 'metatool/data/multi_tool_query_golden.json': fileSha('data/multi_tool_query_golden.json') });
  });

  it('shipped prompt files: 995 reliability and 497 multi-tool prompts', async () => {
    assert.equal((await dataset.reliabilityPrompts()).value.length, 995);
    assert.equal((await dataset.multiToolPrompts()).value.length, 497);
  });

  it('scenarios: the 9 lists, sorted by file name', async () => {
    const { value, checksums } = await dataset.scenarios();
    assert.deepEqual(
      value.map((s) => s.name),
      ['Finance Staff', 'Housewife', 'Software Engineer', 'Students', 'TopTool_top10', 'TopTool_top15', 'TopTool_top5', 'artists&designers', 'elders'],
    );
    assert.deepEqual(value.find((s) => s.name === 'TopTool_top5')?.tools, ['FinanceTool', 'ProductSearch', 'JobTool', 'TripTool', 'PDF&URLTool']);
    assert.equal(checksums['metatool/scenario/artists&designers.json'], fileSha('scenario/artists&designers.json'));
    assert.equal(Object.keys(checksums).length, 9);
  });

  it('neighbours computed from the embeddings equal the shipped top-20 file, which is what tasks read', async () => {
    const { tools } = (await dataset.catalogue()).value;
    const computed = await dataset.neighboursFromEmbeddings(tools);
    const shipped = JSON.parse(readFileSync(metatoolFile('derived/tool_neighbors_top20.json'), 'utf8')) as Record<string, string[]>;
    assert.equal(computed.value.size, 199);
    for (const [tool, list] of computed.value) assert.deepEqual(list, shipped[tool], tool);
    assert.deepEqual(computed.checksums, { 'metatool/derived/tool_embedding.json': fileSha('derived/tool_embedding.json') });
    const read = await dataset.neighbours();
    assert.deepEqual(Object.fromEntries(read.value), shipped);
    assert.deepEqual(read.checksums, { 'metatool/derived/tool_neighbors_top20.json': fileSha('derived/tool_neighbors_top20.json') });
  });

  it('caches parts per data dir', async () => {
    assert.equal(openMetaTool(`${dataDir}${path.sep}`), dataset);
    assert.equal(await dataset.awarenessItems(), await dataset.awarenessItems());
  });
});

describe('MetaTool data set (fixtures)', () => {
  it('computes the neighbours from tool_embedding.json when the top-20 file is absent', { skip }, async () => {
    const dir = tempDataDir();
    for (const f of [...CATALOGUE_FILES, 'derived/tool_embedding.json']) link(dir, f);
    const { value, checksums } = await new MetaToolDataset(dir).neighbours();
    const shipped = JSON.parse(readFileSync(metatoolFile('derived/tool_neighbors_top20.json'), 'utf8')) as Record<string, string[]>;
    assert.deepEqual(Object.fromEntries(value), shipped);
    assert.deepEqual(checksums, { 'metatool/derived/tool_embedding.json': fileSha('derived/tool_embedding.json') });
  });

  it('a missing file is an InputError naming it', async () => {
    const dir = tempDataDir();
    await rejectsInput(new MetaToolDataset(dir).catalogue(), path.join(dir, 'metatool', 'data', 'all_clean_data.csv'), 'not found');
  });

  it('a malformed CSV is an InputError naming the file and line', async () => {
    const dir = tempDataDir();
    const file = write(dir, 'data/all_clean_data.csv', 'Query,Tool\nq1,A\nq2\n');
    await rejectsInput(new MetaToolDataset(dir).catalogue(), file, 'line 3');
  });

  it('invalid JSON is an InputError naming the file and line', async () => {
    const dir = tempDataDir();
    const file = write(dir, 'tmp_dataset/Task1.json', '[\n  {"query": "q",\n  ]\n');
    await rejectsInput(new MetaToolDataset(dir).awarenessItems(), file, 'not valid JSON', 'line 3');
  });

  it('JSON of the wrong shape is an InputError naming the file, the place and what was expected', async () => {
    const dir = tempDataDir();
    const file = write(dir, 'tmp_dataset/Task1.json', JSON.stringify([{ thought_prompt: 'p', label: 'maybe', query: 'q' }]));
    await rejectsInput(new MetaToolDataset(dir).awarenessItems(), file, '$[0].label', 'positive');
  });

  it('a scenario naming an unknown tool is an InputError naming the scenario file', async () => {
    const dir = tempDataDir();
    writeSyntheticMetaTool(dir);
    const file = write(dir, 'scenario/Bad Scenario.json', JSON.stringify({ Tools: ['NewsTool', 'NoSuchTool'] }));
    await rejectsInput(new MetaToolDataset(dir).scenarios(), file, 'NoSuchTool');
  });

  it('plugin_des.json must list exactly the CSV tools', async () => {
    const dir = tempDataDir();
    writeSyntheticMetaTool(dir);
    const file = write(dir, 'plugin_des.json', JSON.stringify({ NewsTool: 'x' }));
    await rejectsInput(new MetaToolDataset(dir).catalogue(), file, 'missing');
  });

  it('forgets a part that failed, so a fixed file loads', async () => {
    const dir = tempDataDir();
    write(dir, 'tmp_dataset/Task1.json', '{');
    const data = new MetaToolDataset(dir);
    await assert.rejects(data.awarenessItems(), InputError);
    write(dir, 'tmp_dataset/Task1.json', JSON.stringify([{ thought_prompt: 'p', label: 'negative', query: 'q' }]));
    assert.deepEqual((await data.awarenessItems()).value, [{ index: 0, query: 'q', needsTool: false, thoughtPrompt: 'p' }]);
  });
});
