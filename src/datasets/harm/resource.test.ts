import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError, sha256 } from '../../core/index.js';
import { loadHarmResource } from './resource.js';
import { personaSeed } from './personas.js';
import { MAX_RESOURCE_FILE_BYTES } from './resource-files.js';
import { TINY_HARM_MANIFEST } from '../../testing/tiny-harm-manifest.js';
import { SHIPPED_HARM_RESOURCES_DIR, shippedHarmResources } from './shipped-resources.js';

const MANIFEST = TINY_HARM_MANIFEST;

/** A resource folder in a temp dir: the files given, over a small valid resource. */
function resource(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'assay-harm-'));
  const all: Record<string, string> = { 'manifest.yaml': MANIFEST, 'ask.jinja': 'Ask about {{ topic }}.\n', 'ask.yaml': '- id: a\n  topic: tea\n- topic: boats\n', ...files };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

/** Asserts the load fails with one line matching `expected`, `file:line` first. */
async function refused(folder: string, expected: RegExp): Promise<void> {
  await assert.rejects(loadHarmResource(folder, { seed: 1 }), (e: unknown) => {
    assert.ok(e instanceof InputError, String(e));
    assert.ok(!e.message.includes('\n'), e.message);
    assert.match(e.message.slice(folder.length + 1), expected);
    return true;
  });
}

/** The manifest with one line replaced (`from` must occur). */
const edited = (from: string, to: string): string => {
  assert.ok(MANIFEST.includes(from), from);
  return MANIFEST.replace(from, to);
};

describe('loadHarmResource', () => {
  it('loads a small resource: personas with ids, text, template sha256, parameters, seeds; checksums of every file', async () => {
    const folder = resource({});
    const loaded = await loadHarmResource(folder, { seed: 7 });
    assert.deepEqual(loaded.personas.map((p) => [p.id, p.text, p.parametersLine]), [['ask/a', 'Ask about tea.', 1], ['ask/2', 'Ask about boats.', 3]]);
    assert.equal(loaded.personas[0]?.templateSha256, sha256('Ask about {{ topic }}.\n'));
    assert.deepEqual(loaded.personas[0]?.parameters, { id: 'a', topic: 'tea' });
    assert.equal(loaded.personas[0]?.seed, personaSeed(7, 'ask/a'));
    assert.notEqual(personaSeed(7, 'ask/a'), personaSeed(8, 'ask/a'));
    assert.ok(Number.isInteger(loaded.personas[0]?.seed) && (loaded.personas[0]?.seed ?? -1) >= 0);
    assert.deepEqual(Object.keys(loaded.checksums), ['ask.jinja', 'ask.yaml', 'manifest.yaml']);
    assert.equal(loaded.guideline.defectWhen, 'at-least');
    assert.deepEqual(loaded.scale, { min: 0, max: 1 });
    assert.equal(loaded.systemPrompt, 'You are a helpful assistant.');
  });

  it('the same seed gives the same personas; a persona\'s seed does not depend on the others', async () => {
    const one = await loadHarmResource(resource({}), { seed: 'run-1' });
    const more = await loadHarmResource(resource({ 'ask.yaml': '- topic: zebras\n- id: a\n  topic: tea\n' }), { seed: 'run-1' });
    assert.equal(one.personas[0]?.seed, more.personas.find((p) => p.id === 'ask/a')?.seed);
  });

  it('CSV parameters, a system prompt file, context documents and human labels', async () => {
    const folder = resource({
      'manifest.yaml': edited('  systemPrompt: You are a helpful assistant.', '  systemPrompt:\n    file: prompts/system.txt\n  contextDocuments: [doc.txt]').replace('ask.yaml', 'ask.csv') + 'humanLabels: labels.csv\n',
      'prompts/system.txt': 'From a file.\n',
      'doc.txt': 'A document.',
      'ask.csv': 'id,topic\nx,"multi\nline"\ny,tea\n',
      'labels.csv': 'sampleId,severity,note\nask/x,1,leaked\nask/y,0,\n',
    });
    const loaded = await loadHarmResource(folder, { seed: 1 });
    assert.equal(loaded.systemPrompt, 'From a file.\n');
    assert.deepEqual(loaded.contextDocuments, [{ path: 'doc.txt', text: 'A document.' }]);
    assert.deepEqual(loaded.personas.map((p) => [p.id, p.parametersLine]), [['ask/x', 3], ['ask/y', 4]]);
    assert.deepEqual([...(loaded.humanLabels?.bySample ?? [])], [['ask/x', 1], ['ask/y', 0]]);
    assert.deepEqual(Object.keys(loaded.checksums), ['ask.csv', 'ask.jinja', 'doc.txt', 'labels.csv', 'manifest.yaml', 'prompts/system.txt']);
  });

  describe('refuses, in one line naming file and line', () => {
    it('YAML that does not parse', () => refused(resource({ 'manifest.yaml': 'name: [unclosed\nversion: 1\n' }), /^manifest\.yaml:\d+: not valid YAML/));
    it('a missing key, at the line of its parent', () => refused(resource({ 'manifest.yaml': edited('maxTurns: 3\n', '') }), /^manifest\.yaml:1: maxTurns: missing \(required\)/));
    it('a wrong type, at the line of the key', () => refused(resource({ 'manifest.yaml': edited('maxTurns: 3', 'maxTurns: three') }), /^manifest\.yaml:5: maxTurns: /));
    it('an unknown key, at its line', () => refused(resource({ 'manifest.yaml': edited('  defectThreshold: 1', '  defectThreshold: 1\n  treshold: 2') }), /^manifest\.yaml:22: guideline\.treshold: unknown key/));
    it('a guideline without a threshold, at the guideline\'s line', () => refused(resource({ 'manifest.yaml': edited('  defectThreshold: 1\n', '') }), /^manifest\.yaml:12: guideline\.defectThreshold: missing \(required\)/));
    it('a threshold outside the scale', () => refused(resource({ 'manifest.yaml': edited('  defectThreshold: 1', '  defectThreshold: 5') }), /^manifest\.yaml:21: guideline\.defectThreshold: 5 is outside the scale \(0–1\)/));
    it('a scale with a gap', () => refused(resource({ 'manifest.yaml': edited('    - severity: 1', '    - severity: 2') }), /^manifest\.yaml:18: guideline\.scale\[1\]\.severity: expected severity 1/));
    it('a scale level without an example', () => refused(resource({ 'manifest.yaml': edited('      example: the word\n', '') }), /^manifest\.yaml:18: guideline\.scale\[1\]\.example: missing/));
    it('a question-answering task without context documents, at the line of systemUnderTest', () =>
      refused(resource({ 'manifest.yaml': edited('task: conversation', 'task: qa-over-context') }), /^manifest\.yaml:6: systemUnderTest: a qa-over-context task needs contextDocuments/));
    it('a summarization task without context documents', () =>
      refused(resource({ 'manifest.yaml': edited('task: conversation', 'task: summarization') }), /^manifest\.yaml:6: systemUnderTest: a summarization task needs contextDocuments/));
    it('duplicate persona ids', () => refused(resource({ 'manifest.yaml': edited('    parameters: ask.yaml\n', '    parameters: ask.yaml\n  - id: ask\n    template: ask.jinja\n    parameters: ask.yaml\n') }), /^manifest\.yaml:12: personas\[1\]\.id: duplicate persona id "ask"/));
    it('a path outside the folder', () => refused(resource({ 'manifest.yaml': edited('template: ask.jinja', 'template: ../ask.jinja') }), /^manifest\.yaml:10: personas\[0\]\.template: must be a path relative/));
    it('an unreadable file', () => refused(resource({ 'manifest.yaml': edited('template: ask.jinja', 'template: nope.jinja') }), /^nope\.jinja: cannot read it \(ENOENT\)/));
    it('a missing manifest', () => refused(resource({ 'manifest.yaml': '' }), /^manifest\.yaml:1: the manifest: /));
    it('a template syntax error, at the template\'s line', () => refused(resource({ 'ask.jinja': 'Hello.\n{% if topic %}\nAsk about {{ topic }}.\n' }), /^ask\.jinja:2: template syntax error \(\{% if %\} is never closed/));
    it('a row missing a parameter, at the row\'s line', () => refused(resource({ 'ask.yaml': '- id: a\n  topic: tea\n- id: b\n  subject: boats\n' }), /^ask\.yaml:3: row "b" has no "topic", which ask\.jinja uses$/));
    it('an empty parameter in a CSV row', () => refused(resource({ 'manifest.yaml': edited('ask.yaml', 'ask.csv'), 'ask.csv': 'id,topic\na,tea\nb,\n' }), /^ask\.csv:3: row "b" has "topic" empty/));
    it('an empty parameter set', () => refused(resource({ 'ask.yaml': '# nothing yet\n' }), /^ask\.yaml: no parameter rows/));
    it('duplicate row ids', () => refused(resource({ 'ask.yaml': '- id: a\n  topic: tea\n- id: a\n  topic: boats\n' }), /^ask\.yaml:3: duplicate id "a" \(also on line 1\)/));
    it('a row id with a slash', () => refused(resource({ 'ask.yaml': '- id: a/b\n  topic: tea\n' }), /^ask\.yaml:1: id "a\/b" must be/));
    it('a template that fails to render with a row', () => refused(resource({ 'ask.jinja': '{{ topic | nosuchfilter }}' }), /^ask\.yaml:1: ask\.jinja does not render with row "a" \(.*nosuchfilter/));
    it('labels for an unknown sample', () => refused(resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n`, 'l.csv': 'sampleId,severity\nask/a,1\nask/zz,0\n' }), /^l\.csv:3: unknown sample id "ask\/zz"/));
    it('labels off the scale or not integers', async () => {
      await refused(resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n`, 'l.csv': 'sampleId,severity\nask/a,2\n' }), /^l\.csv:2: severity "2" for "ask\/a" is not an integer from 0 to 1/);
      await refused(resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n`, 'l.csv': 'sampleId,severity\nask/a,0.5\n' }), /^l\.csv:2: severity "0\.5"/);
      await refused(resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n`, 'l.csv': 'sampleId,score\nask/a,1\n' }), /^l\.csv:1: no column "severity"/);
      await refused(resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n`, 'l.csv': 'sampleId,severity\nask/a,1\nask/a,0\n' }), /^l\.csv:3: sample "ask\/a" is labelled twice/);
    });
  });
});

describe('files really inside the folder only', () => {
  const withPromptFile = edited('  systemPrompt: You are a helpful assistant.', '  systemPrompt:\n    file: system.txt');

  it('refuses a symbolic link out of the folder, at the manifest line naming it, before reading it', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'assay-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), 'sk-NOT-FOR-THE-ENDPOINT');
    writeFileSync(path.join(outside, 'ask.jinja'), 'Ask about {{ topic }}.');
    writeFileSync(path.join(outside, 'ask.yaml'), '- topic: tea\n');
    const prompt = resource({ 'manifest.yaml': withPromptFile });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(prompt, 'system.txt'));
    await refused(prompt, /^manifest\.yaml:8: systemUnderTest\.systemPrompt\.file: system\.txt resolves to .*secret\.txt, outside the resource folder/);
    const template = resource({ 'manifest.yaml': edited('template: ask.jinja', 'template: t.jinja') });
    symlinkSync(path.join(outside, 'ask.jinja'), path.join(template, 't.jinja'));
    await refused(template, /^manifest\.yaml:10: personas\[0\]\.template: t\.jinja resolves to .*outside the resource folder/);
    // A link to a folder outside: the path has no "..", its real path is still outside.
    const folderLink = resource({ 'manifest.yaml': edited('parameters: ask.yaml', 'parameters: sets/ask.yaml') });
    symlinkSync(outside, path.join(folderLink, 'sets'));
    await refused(folderLink, /^manifest\.yaml:11: personas\[0\]\.parameters: sets\/ask\.yaml resolves to .*outside the resource folder/);
    const labels = resource({ 'manifest.yaml': `${MANIFEST}humanLabels: l.csv\n` });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(labels, 'l.csv'));
    await refused(labels, /^manifest\.yaml:22: humanLabels: l\.csv resolves to .*outside/);
    const manifest = resource({});
    writeFileSync(path.join(outside, 'manifest.yaml'), MANIFEST);
    rmSync(path.join(manifest, 'manifest.yaml'));
    symlinkSync(path.join(outside, 'manifest.yaml'), path.join(manifest, 'manifest.yaml'));
    await refused(manifest, /^manifest\.yaml: resolves to .*outside the resource folder/);
  });

  it('follows links that stay inside the folder, and a folder given through a link', async () => {
    const folder = resource({ 'manifest.yaml': withPromptFile, 'prompts/real.txt': 'Linked inside.' });
    symlinkSync(path.join('prompts', 'real.txt'), path.join(folder, 'system.txt'));
    const link = path.join(mkdtempSync(path.join(tmpdir(), 'assay-link-')), 'resource');
    symlinkSync(folder, link);
    const loaded = await loadHarmResource(link, { seed: 1 });
    assert.equal(loaded.systemPrompt, 'Linked inside.');
    assert.ok(Object.keys(loaded.checksums).includes('system.txt'));
  });

  it('refuses a FIFO (the read would wait forever) and a file over the size bound, at the manifest line', async () => {
    const fifo = resource({ 'manifest.yaml': withPromptFile });
    execFileSync('mkfifo', [path.join(fifo, 'system.txt')]);
    await refused(fifo, /^manifest\.yaml:8: systemUnderTest\.systemPrompt\.file: system\.txt is not a regular file/);
    const large = resource({ 'manifest.yaml': withPromptFile, 'system.txt': '' });
    truncateSync(path.join(large, 'system.txt'), MAX_RESOURCE_FILE_BYTES + 1);
    await refused(large, /^manifest\.yaml:8: systemUnderTest\.systemPrompt\.file: system\.txt is \d+ bytes, over the 16 MiB/);
  });
});

describe('YAML aliases', () => {
  const bomb = ['- id: x', '  topic: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]', '  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', '  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', '  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]', ''].join('\n');
  it('an alias bomb in a parameter set is refused at its file and line', () => refused(resource({ 'ask.yaml': bomb }), /^ask\.yaml:4: refused: its aliases expand past 100 references/));
  it('an alias naming no anchor is refused at its line', () => refused(resource({ 'ask.yaml': '- id: x\n  topic: tea\n- id: y\n  topic: *nothing\n' }), /^ask\.yaml:4: refused: alias \*nothing names no anchor/));
  it('a few aliases are fine', async () => {
    const loaded = await loadHarmResource(resource({ 'ask.yaml': '- id: x\n  topic: &t tea\n- id: y\n  topic: *t\n' }), { seed: 1 });
    assert.deepEqual(loaded.personas.map((p) => p.text), ['Ask about tea.', 'Ask about tea.']);
  });
});

describe('the shipped resources', () => {
  it('are the three examples', () => {
    assert.deepEqual(shippedHarmResources(), ['copyrighted-text-leakage', 'groundedness', 'system-prompt-leakage']);
  });

  for (const name of ['copyrighted-text-leakage', 'groundedness', 'system-prompt-leakage']) {
    it(`${name} loads: 2 templates × 3–5 rows, an example per level, every file checksummed`, async () => {
      const loaded = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, name), { seed: 0 });
      assert.equal(loaded.manifest.name, name);
      assert.equal(loaded.manifest.personas.length, 2);
      for (const spec of loaded.manifest.personas) {
        const rows = loaded.personas.filter((p) => p.templateId === spec.id).length;
        assert.ok(rows >= 3 && rows <= 5, `${spec.id}: ${rows} rows`);
      }
      assert.ok(loaded.personas.every((p) => p.text.length > 50 && !p.text.includes('{{')));
      assert.ok(loaded.guideline.scale.every((level) => level.example.length > 0));
      assert.ok(Object.keys(loaded.checksums).length >= 6);
    });
  }

  it('the leakage resources\' secrets are in what the system under test is given, so a leak is possible', async () => {
    for (const name of ['system-prompt-leakage', 'copyrighted-text-leakage']) {
      const loaded = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, name), { seed: 0 });
      const given = [loaded.systemPrompt, ...loaded.contextDocuments.map((d) => d.text)].join('\n').replace(/\s+/g, ' ');
      for (const secret of loaded.manifest.leakCheck?.strings ?? ['(none)']) assert.ok(given.includes(secret), `${name}: ${secret}`);
    }
  });

  it('groundedness scores higher-is-better: a defect is at most the threshold', async () => {
    const loaded = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, 'groundedness'), { seed: 0 });
    assert.deepEqual([loaded.scale, loaded.guideline.defectWhen, loaded.guideline.defectThreshold], [{ min: 1, max: 5 }, 'at-most', 3]);
    assert.equal(loaded.contextDocuments.length, 1);
  });
});
