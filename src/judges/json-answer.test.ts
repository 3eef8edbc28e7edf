import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { parseJsonAnswer } from './json-answer.js';

const claims = z.strictObject({ claims: z.array(z.string()) });
const verdicts = z.strictObject({ verdicts: z.array(z.strictObject({ verdict: z.enum(['yes', 'no', 'idk']), reason: z.string() })) });

describe('parseJsonAnswer', () => {
  it('reads the object itself, or in one code fence', () => {
    assert.deepEqual(parseJsonAnswer('{"claims": ["a", "b"]}', claims), { value: { claims: ['a', 'b'] } });
    assert.deepEqual(parseJsonAnswer('```json\n{"claims": []}\n```', claims), { value: { claims: [] } });
    assert.deepEqual(parseJsonAnswer('  ```\n{"claims": ["x"]}\n```  ', claims), { value: { claims: ['x'] } });
  });

  it('reads one fenced block or one object inside prose', () => {
    assert.deepEqual(parseJsonAnswer('Here are the claims:\n```json\n{"claims": ["The CEO resigned."]}\n```\nHope this helps!', claims), {
      value: { claims: ['The CEO resigned.'] },
    });
    assert.deepEqual(parseJsonAnswer('Sure! {"verdicts": [{"verdict": "no", "reason": "the article says {3} not 4 \\"quoted\\""}]} Done.', verdicts), {
      value: { verdicts: [{ verdict: 'no', reason: 'the article says {3} not 4 "quoted"' }] },
    });
    assert.deepEqual(parseJsonAnswer("It's here: {\"claims\": [\"x\"]}", claims), { value: { claims: ['x'] } });
  });

  it('refuses what is ambiguous or not JSON, with the reason', () => {
    const reason = (text: string, schema: z.ZodType = claims): string | undefined => parseJsonAnswer(text, schema).reason;
    assert.match(reason('') ?? '', /empty/);
    assert.match(reason('The summary makes two claims.') ?? '', /no JSON object/);
    assert.match(reason('{"claims": ["a"]} or maybe {"claims": ["b"]}') ?? '', /2 JSON objects/);
    assert.match(reason('```json\n{"claims": ["a"]}\n```\n```json\n{"claims": ["b"]}\n```') ?? '', /2 code blocks/);
    assert.match(reason('```json\n{claims: [a]}\n```\nok') ?? '', /code block .* not JSON/);
    assert.match(reason('{"claims": ["a"]') ?? '', /no JSON object/); // truncated
  });

  it('refuses a shape that differs from the schema: missing, extra, mistyped keys, bad enum values', () => {
    assert.match(parseJsonAnswer('{"claim": ["a"]}', claims).reason ?? '', /expected shape/);
    assert.match(parseJsonAnswer('{"claims": ["a"], "note": "x"}', claims).reason ?? '', /expected shape/);
    assert.match(parseJsonAnswer('{"claims": "a"}', claims).reason ?? '', /claims/);
    assert.match(parseJsonAnswer('{"verdicts": [{"verdict": "maybe", "reason": "x"}]}', verdicts).reason ?? '', /verdicts\.0\.verdict/);
    assert.equal(parseJsonAnswer('[{"claims": []}]', claims).value, null);
  });
});
