import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../core/index.js';
import { fence } from './fence.js';
import { fillRubric } from './fill.js';
import type { Rubric } from './judge-request.js';

const rubric = (template: string): Rubric => ({ id: 'test/call', source: '/data/rubric_call.txt', template, sha256: 'abc' });

describe('fillRubric', () => {
  it('replaces every placeholder with its fenced value', () => {
    const prompt = fillRubric({ rubric: rubric('[Query]\n{query}\n[Submission]\n{response}\nDecide.'), values: { query: 'q?', response: 'r.' } });
    assert.equal(prompt, `[Query]\n${fence('query', 'q?')}\n[Submission]\n${fence('response', 'r.')}\nDecide.`);
  });

  it('substitutes in a single pass: a value containing a placeholder stays literal', () => {
    const prompt = fillRubric({ rubric: rubric('{ground_truth}|{response}'), values: { ground_truth: 'SECRET', response: 'see {ground_truth} and {response}' } });
    assert.equal(prompt, `${fence('ground_truth', 'SECRET')}|${fence('response', 'see {ground_truth} and {response}')}`);
    assert.equal(prompt.split('SECRET').length, 2, 'the ground truth appears once, in its own fence');
  });

  it('fills a repeated placeholder with the same fenced value each time', () => {
    assert.equal(fillRubric({ rubric: rubric('{a} / {a}'), values: { a: 'x' } }), `${fence('a', 'x')} / ${fence('a', 'x')}`);
  });

  it('leaves JSON braces and $-patterns in the template and values untouched', () => {
    const prompt = fillRubric({ rubric: rubric('Answer as {"verdict": "pass"}. {response}'), values: { response: "$& $1 $' {}" } });
    assert.equal(prompt, `Answer as {"verdict": "pass"}. ${fence('response', "$& $1 $' {}")}`);
  });

  it('names the rubric source when a placeholder has no value', () => {
    assert.throws(
      () => fillRubric({ rubric: rubric('{query} {response}'), values: { query: 'q' } }),
      (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.equal(error.message, 'rubric test/call (/data/rubric_call.txt): no value for {response} (values given: query)');
        assert.deepEqual(error.details, { file: '/data/rubric_call.txt' });
        return true;
      },
    );
  });

  it('names the rubric source when a value has no placeholder', () => {
    assert.throws(() => fillRubric({ rubric: rubric('{response}'), values: { response: 'r', acceptable_arguments: '{}' } }), {
      name: 'InputError',
      message: 'rubric test/call (/data/rubric_call.txt): no placeholder for {acceptable_arguments} (the rubric has: {response})',
    });
  });

  it('does not take inherited properties for values', () => {
    assert.throws(() => fillRubric({ rubric: rubric('{toString}'), values: {} }), { name: 'InputError', message: /no value for \{toString\} \(values given: none\)/ });
  });
});
