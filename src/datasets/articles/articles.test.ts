import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { needsData, testDataDir } from '../../testing/test-data.js';
import { decodeText, latin1Warning, loadArticles } from './index.js';

const work = mkdtempSync(path.join(tmpdir(), 'assay-articles-'));
let counter = 0;
function write(name: string, content: string | Buffer): string {
  const file = path.join(work, `${counter++}-${name}`);
  writeFileSync(file, content);
  return file;
}
async function refused(source: string, expected: RegExp, columns = {}): Promise<void> {
  await assert.rejects(loadArticles(source, columns), (error: unknown) => error instanceof InputError && expected.test(error.message) && !error.message.includes('\n'));
}

describe('decodeText', () => {
  it('reads UTF-8 (without its BOM) and falls back to Latin-1 for other bytes, saying so', () => {
    assert.deepEqual(decodeText(Buffer.from('\uFEFFcafé', 'utf8')), { text: 'café', encoding: 'utf-8' });
    assert.deepEqual(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9])), { text: 'café', encoding: 'latin1' }); // "café" in Latin-1
  });
});

describe('loadArticles: a folder', () => {
  it('one article per .txt file: id = relative path, category = sub-folder, sorted; a Latin-1 file is read and listed', async () => {
    const folder = path.join(work, 'news');
    mkdirSync(path.join(folder, 'tech'), { recursive: true });
    mkdirSync(path.join(folder, 'sport'), { recursive: true });
    writeFileSync(path.join(folder, 'tech', '2.txt'), 'Chips got faster.');
    writeFileSync(path.join(folder, 'sport', '10.txt'), Buffer.from([0x47, 0x6f, 0x61, 0x6c, 0x20, 0xa3, 0x35]));
    writeFileSync(path.join(folder, 'top.txt'), 'No category here.');
    writeFileSync(path.join(folder, 'README.md'), 'not an article');
    writeFileSync(path.join(folder, 'ReadMe.TXT'), 'not an article either');
    writeFileSync(path.join(folder, '.hidden.txt'), 'skipped');
    const set = await loadArticles(folder);
    assert.deepEqual(
      set.articles.map((a) => [a.id, a.category, a.text, a.encoding]),
      [
        ['sport/10.txt', 'sport', 'Goal \u00a35', 'latin1'],
        ['tech/2.txt', 'tech', 'Chips got faster.', 'utf-8'],
        ['top.txt', undefined, 'No category here.', 'utf-8'],
      ],
    );
    assert.deepEqual(set.latin1, ['sport/10.txt']);
    assert.equal((await loadArticles(folder)).sha256, set.sha256, 'the checksum does not depend on listing order');
    writeFileSync(path.join(folder, 'tech', '2.txt'), 'Chips got slower.');
    assert.notEqual((await loadArticles(folder)).sha256, set.sha256, 'a changed article changes it');
  });

  it('refuses an empty folder and an empty article, naming them', async () => {
    const empty = path.join(work, 'empty');
    mkdirSync(empty);
    await refused(empty, /empty: no \.txt articles in this folder/);
    const blank = path.join(work, 'blank');
    mkdirSync(blank);
    writeFileSync(path.join(blank, 'a.txt'), '  \n');
    await refused(blank, /blank\/a\.txt: the article is empty/);
    await refused(path.join(work, 'nothing-here'), /no such file or folder/);
  });

  it('reads the BBC set: 2,225 articles in five categories, sport/199.txt as Latin-1', { skip: needsData('bbc') }, async () => {
    const set = await loadArticles(path.join(testDataDir(), 'bbc'));
    assert.equal(set.articles.length, 2225);
    assert.deepEqual([...new Set(set.articles.map((a) => a.category))].sort(), ['business', 'entertainment', 'politics', 'sport', 'tech']);
    assert.deepEqual(set.latin1, ['sport/199.txt']);
  });
});

describe('loadArticles: CSV and JSONL', () => {
  it('CSV: the named columns (quoted multi-line text included), id column by default when present', async () => {
    const file = write('a.csv', 'id,category,text\nx1,tech,"Line one\nline two, with a comma"\nx2,sport,Short\n');
    const set = await loadArticles(file);
    assert.deepEqual(set.articles.map((a) => [a.id, a.category, a.text, a.source.line]), [
      ['x1', 'tech', 'Line one\nline two, with a comma', 3],
      ['x2', 'sport', 'Short', 4],
    ]);
    const renamed = await loadArticles(write('b.csv', 'key,body\nk,Hello\n'), { text: 'body', id: 'key' });
    assert.deepEqual(renamed.articles.map((a) => [a.id, a.text, a.category]), [['k', 'Hello', undefined]]);
  });

  it('JSONL: objects a line; numeric ids read as text; without an id column, ids are line numbers', async () => {
    const set = await loadArticles(write('a.jsonl', '{"id": 7, "text": "Seven"}\n\n{"id": "b", "text": "Bee", "category": "x"}\n'));
    assert.deepEqual(set.articles.map((a) => [a.id, a.text, a.category, a.source.line]), [['7', 'Seven', undefined, 1], ['b', 'Bee', 'x', 3]]);
    const noIds = await loadArticles(write('n.jsonl', '{"text": "A"}\n{"text": "B"}\n'));
    assert.deepEqual(noIds.articles.map((a) => a.id), ['line-1', 'line-2']);
  });

  it('refuses bad rows with the file and line, before returning any', async () => {
    await refused(write('c.csv', 'id,body\n1,x\n'), /c\.csv: no column "text" \(--text-column\); the file has "id", "body"/);
    await refused(write('d.csv', 'id,text\n1,x\n'), /no column "topic" \(--category-column\)/, { category: 'topic' });
    await refused(write('e.jsonl', '{"text": "a"}\n[1, 2]\n'), /e\.jsonl:2: a JSON array, not an object/);
    await refused(write('f.jsonl', '{"text": "a"}\n{oops\n'), /f\.jsonl:2: not valid JSON/);
    await refused(write('g.jsonl', '{"id": 1, "text": "a"}\n{"id": 1, "text": "b"}\n'), /g\.jsonl:2: duplicate id "1" \(also on line 1\)/);
    await refused(write('h.jsonl', '{"id": 1, "text": "  "}\n'), /h\.jsonl:1: "text" is empty/);
    await refused(write('i.jsonl', '\n\n'), /i\.jsonl: no articles in this file/);
    await refused(write('j.txt', 'x'), /not a folder, \.csv or \.jsonl file/);
  });
});

describe('latin1Warning', () => {
  it('names how many articles were read as Latin-1 and their file; none for UTF-8; a CSV is one file', async () => {
    const folder = path.join(work, 'mixed');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'a.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(path.join(folder, 'b.txt'), 'caf\u00e9');
    assert.match(latin1Warning(await loadArticles(folder), folder) ?? '', new RegExp(`^1 of 2 article\\(s\\) in .*mixed are not valid UTF-8 and were read as Latin-1: .*mixed/a\\.txt \\(recorded`));
    const utf8 = path.join(work, 'utf8-only');
    mkdirSync(utf8);
    writeFileSync(path.join(utf8, 'b.txt'), 'caf\u00e9');
    assert.equal(latin1Warning(await loadArticles(utf8), utf8), undefined);
    const csv = path.join(work, 'latin1.csv');
    writeFileSync(csv, Buffer.concat([Buffer.from('id,text\n1,caf'), Buffer.from([0xe9]), Buffer.from('\n2,ok\n')]));
    assert.match(latin1Warning(await loadArticles(csv), csv) ?? '', /^2 of 2 article\(s\) in .*latin1\.csv are not valid UTF-8 and were read as Latin-1: .*latin1\.csv \(recorded/);
  });
});
