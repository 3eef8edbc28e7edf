import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { parseJsonAnswer } from '../../judges/json-answer.js';
import { ANSWERS_SCHEMA, CLAIMS_SCHEMA, QUESTIONS_SCHEMA, VERDICTS_SCHEMA, answersAnswer, claimsAnswer, questionsAnswer, verdictsAnswer } from './judge-answers.js';

/** The JSON Schema zod derives from a strict object, without its `$schema` line. */
function derived(schema: z.ZodType): unknown {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

describe('summaries judge answer shapes', () => {
  it('each JSON Schema sent to providers is the shape its zod reader accepts', () => {
    assert.deepEqual(CLAIMS_SCHEMA, derived(claimsAnswer));
    assert.deepEqual(VERDICTS_SCHEMA, derived(verdictsAnswer));
    assert.deepEqual(QUESTIONS_SCHEMA, derived(questionsAnswer));
    assert.deepEqual(ANSWERS_SCHEMA, derived(answersAnswer));
  });

  it('reads the documented shapes and refuses near misses', () => {
    assert.deepEqual(parseJsonAnswer('{"claims": ["A resigned."]}', claimsAnswer).value, { claims: ['A resigned.'] });
    assert.deepEqual(parseJsonAnswer('{"verdicts": [{"verdict": "idk", "reason": "not said"}]}', verdictsAnswer).value, { verdicts: [{ verdict: 'idk', reason: 'not said' }] });
    assert.equal(parseJsonAnswer('{"verdicts": [{"verdict": "Yes", "reason": "x"}]}', verdictsAnswer).value, null, 'labels are exact, lower case');
    assert.equal(parseJsonAnswer('{"verdicts": [{"verdict": "yes"}]}', verdictsAnswer).value, null, 'a reason is required');
    assert.equal(parseJsonAnswer('{"answers": ["yes", "maybe"]}', answersAnswer).value, null);
  });
});
