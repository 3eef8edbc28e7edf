import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../version.js';
import { gateExitCode, GATE_EXIT } from './exit-code.js';
import type { GateResult } from './gate-result.js';
import { renderGateTable } from './gate-table.js';
import { renderJUnit, writeJUnit } from './junit.js';
import { appendStepSummary, renderStepSummary } from './step-summary.js';

const dir = mkdtempSync(path.join(tmpdir(), 'assay-gates-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** One gate of each outcome, and a regression; a model name with markup and a pipe (names come from a config file). */
const RESULTS: GateResult[] = [
  { kind: 'threshold', entry: 'cases', task: 'cases', model: 'bot', metric: 'pass_rate', unit: 'share', rule: 'min 95.0%', outcome: 'pass', value: 0.96, interval: { low: 0.8654, high: 0.989 }, relation: 'straddles', reason: '96.0% meets min 95.0%; 95% interval [86.5%, 98.9%] straddles it' },
  { kind: 'threshold', entry: 'harm/system-prompt-leakage', task: 'harm/system-prompt-leakage', model: 'a<b>|"c"&', metric: 'defect_rate', unit: 'share', rule: 'max 5.0%, confident', outcome: 'fail', value: 0.1, interval: { low: 0.06, high: 0.16 }, relation: 'misses', reason: '10.0% misses max 5.0%; 95% interval [6.0%, 16.0%] lies wholly outside it' },
  { kind: 'threshold', entry: 'summaries/alignment', task: 'summaries/alignment', model: 'bot', metric: 'alignment', unit: 'share', rule: 'min 90.0%, confident', outcome: 'inconclusive', value: 0.92, interval: { low: 0.85, high: 0.96 }, relation: 'straddles', reason: '92.0% meets min 90.0% but the 95% interval [85.0%, 96.0%] straddles it (require: confident)' },
  { kind: 'regression', entry: 'cases', task: 'cases', model: 'bot', metric: 'pass_rate', unit: 'share', rule: 'no regression beyond -2.0% vs run BASE', outcome: 'pass', value: -0.01, interval: { low: -0.04, high: 0.02 }, relation: 'straddles', reason: 'straddles' },
];

const xmllint = spawnSync('xmllint', ['--version']).status === 0;
const XSD = path.join(packageRoot, 'src', 'gates', 'test-support', 'junit.xsd');

/** xmllint --schema on `file`: its status and what it said. */
function validate(file: string): { status: number | null; said: string } {
  const run = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  return { status: run.status, said: `${run.stdout}${run.stderr}` };
}

describe('JUnit XML', () => {
  it('one test case per gate; a failure as <failure>, inconclusive as <skipped>; counts agree', () => {
    const text = renderJUnit(RESULTS, { suite: 'release' });
    assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="assay suite release" tests="4" failures="1" errors="0" skipped="1">\n/);
    assert.equal(text.match(/<testcase /g)?.length, 4);
    assert.equal(text.match(/<testsuite /g)?.length, 3);
    assert.match(text, /<testsuite name="cases" tests="2" failures="0" errors="0" skipped="0">/);
    assert.match(text, /<failure message="defect_rate 10\.0%, 95% interval \[6\.0%, 16\.0%\]: 10\.0% misses max 5\.0%; 95% interval \[6\.0%, 16\.0%\] lies wholly outside it" type="gate-failed">/);
    assert.match(text, /<skipped message="inconclusive: alignment 92\.0%, 95% interval \[85\.0%, 96\.0%\]: /);
    assert.match(text, /name="a&lt;b&gt;\|&quot;c&quot;&amp;: defect_rate max 5\.0%, confident"/);
    assert.match(text, /name="bot: pass_rate \(regression\) no regression beyond -2\.0% vs run BASE"/);
    assert.match(text, /<system-out>pass_rate -1\.0%, 95% interval \[-4\.0%, \+2\.0%\]: straddles<\/system-out>/);
  });

  it('strict: the inconclusive gate is a <failure type="inconclusive"> and nothing is skipped', () => {
    const text = renderJUnit(RESULTS, { suite: 'release', strict: true });
    assert.match(text, /<testsuites name="assay suite release" tests="4" failures="2" errors="0" skipped="0">/);
    assert.match(text, /<failure message="inconclusive \(strict\): alignment/);
    assert.doesNotMatch(text, /<skipped/);
  });

  it('characters XML cannot hold are written visibly, not put in the file', () => {
    const text = renderJUnit([{ ...(RESULTS[0] as GateResult), model: 'bot\u0007\u001b[31m' }], { suite: 's' });
    assert.match(text, /bot\\u0007\\u001b\[31m/);
  });

  it('validates against a JUnit XSD with xmllint (assay\'s own XSD: none is available offline), and the validator can say no', { skip: xmllint ? false : 'xmllint is not installed (apt-get install -y libxml2-utils)' }, () => {
    for (const strict of [false, true]) {
      const file = path.join(dir, `junit-${strict}.xml`);
      writeJUnit(file, RESULTS, { suite: 'release', strict });
      const checked = validate(file);
      assert.equal(checked.status, 0, checked.said);
    }
    const bad = path.join(dir, 'bad.xml');
    writeFileSync(bad, readFileSync(path.join(dir, 'junit-false.xml'), 'utf8').replace(' classname="assay.release.cases"', ''));
    assert.notEqual(validate(bad).status, 0, 'a test case without classname is refused');
    writeFileSync(bad, '<testsuites name="x" tests="1" failures="0" errors="0" skipped="0"><testsuite name="y"');
    assert.notEqual(validate(bad).status, 0, 'a file that is not well-formed is refused');
  });
});

describe('the GitHub step summary', () => {
  const markdown = renderStepSummary(RESULTS, { suite: 'release' });

  it('a heading with the counts, one row per gate, a pipe or markup in a name kept inside its cell', () => {
    const lines = markdown.split('\n');
    assert.equal(lines[0], '### assay suite release: 2 passed, 1 failed, 1 inconclusive');
    assert.equal(lines[2], '| task | model | metric | value | 95% interval | gate | outcome |');
    assert.equal(lines[4], '| cases | bot | pass_rate | 96.0% | [86.5%, 98.9%] straddles | min 95.0% | ✅ pass |');
    assert.equal(lines[5], '| harm/system-prompt-leakage | a&lt;b&gt;\\|"c"&amp; | defect_rate | 10.0% | [6.0%, 16.0%] misses | max 5.0%, confident | ❌ fail |');
    assert.equal(lines[7], '| cases | bot | pass_rate | -1.0% | [-4.0%, +2.0%] straddles | regression: no regression beyond -2.0% vs run BASE | ✅ pass |');
    assert.match(markdown, /\n- \*\*inconclusive\*\* summaries\/alignment · bot · alignment: 92\.0% meets min 90\.0% but/);
  });

  it('is appended to $GITHUB_STEP_SUMMARY when it is set, after what is there; nothing when unset', () => {
    const file = path.join(dir, 'summary.md');
    writeFileSync(file, '# earlier step\n');
    assert.equal(appendStepSummary(markdown, { GITHUB_STEP_SUMMARY: file }), true);
    assert.equal(readFileSync(file, 'utf8'), `# earlier step\n${markdown}\n`);
    assert.equal(appendStepSummary(markdown, {}), false);
    assert.equal(appendStepSummary(markdown, { GITHUB_STEP_SUMMARY: '' }), false);
  });
});

describe('the console table', () => {
  it('task × model × metric with the figure, interval, gate and outcome; why each open gate is open; controls made visible', () => {
    const text = renderGateTable([...RESULTS.slice(0, 3), { ...(RESULTS[3] as GateResult), model: 'b\u001b]0;x\u0007' }]);
    assert.equal(
      text,
      [
        'task                        model              metric       value  95% interval              gate                                                outcome',
        '--------------------------  -----------------  -----------  -----  ------------------------  --------------------------------------------------  ------------',
        'cases                       bot                pass_rate    96.0%  [86.5%, 98.9%] straddles  min 95.0%                                           pass',
        'harm/system-prompt-leakage  a<b>|"c"&          defect_rate  10.0%  [6.0%, 16.0%] misses      max 5.0%, confident                                 fail',
        'summaries/alignment         bot                alignment    92.0%  [85.0%, 96.0%] straddles  min 90.0%, confident                                inconclusive',
        'cases                       b\\u001b]0;x\\u0007  pass_rate    -1.0%  [-4.0%, +2.0%] straddles  regression: no regression beyond -2.0% vs run BASE  pass',
        '',
        'fail: harm/system-prompt-leakage · a<b>|"c"& · defect_rate: 10.0% misses max 5.0%; 95% interval [6.0%, 16.0%] lies wholly outside it',
        'inconclusive: summaries/alignment · bot · alignment: 92.0% meets min 90.0% but the 95% interval [85.0%, 96.0%] straddles it (require: confident)',
        '',
        'gates: 2 passed, 1 failed, 1 inconclusive',
        '',
      ].join('\n'),
    );
  });

  it('under strict an inconclusive gate says it fails the run', () => {
    assert.match(renderGateTable(RESULTS, { strict: true }), /inconclusive \(fails: strict\)/);
  });
});

describe('gateExitCode', () => {
  const pass = RESULTS.filter((r) => r.outcome === 'pass');
  const inconclusive = RESULTS.filter((r) => r.outcome !== 'fail');
  it('0 all pass; 4 a gate failed; an inconclusive one is 4 only under strict', () => {
    assert.equal(gateExitCode({ results: pass }), GATE_EXIT.ok);
    assert.equal(gateExitCode({ results: RESULTS }), 4);
    assert.equal(gateExitCode({ results: inconclusive }), 0);
    assert.equal(gateExitCode({ results: inconclusive, strict: true }), 4);
  });
  it('3 when samples ended in error and no gate blocks; a failed gate still says 4; 130 when interrupted', () => {
    assert.equal(gateExitCode({ results: pass, sampleErrors: 2 }), 3);
    assert.equal(gateExitCode({ results: RESULTS, sampleErrors: 2 }), 4);
    assert.equal(gateExitCode({ results: RESULTS, interrupted: true }), 130);
  });
});
