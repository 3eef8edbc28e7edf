import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Template } from '@huggingface/jinja';
import { rngFor } from '../../../core/random.js';
import { compileJsonSplice } from './json-splice.js';

/** A random JSON-ish value: the shapes a request holds (strings with quotes, escapes and non-ASCII, numbers, nesting, undefined members). */
function randomValue(rng: { next(): number }, depth = 0): unknown {
  const pick = Math.floor(rng.next() * (depth > 2 ? 6 : 8));
  const texts = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab', 'é ü 日本 🙂', '\u2028 sep', '{{ not a tag }}'];
  switch (pick) {
    case 0:
      return texts[Math.floor(rng.next() * texts.length)];
    case 1:
      return Math.floor(rng.next() * 2000) - 1000;
    case 2:
      return rng.next() * 10 - 5;
    case 3:
      return rng.next() < 0.5;
    case 4:
      return null;
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: Math.floor(rng.next() * 4) }, () => randomValue(rng, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(rng.next() * 4); i++) object[texts[Math.floor(rng.next() * texts.length)] ?? 'k'] = randomValue(rng, depth + 1);
      return object;
    }
  }
}

const TEMPLATES = [
  '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}',
  '{"m": {{ messages | tojson }}, "t": {{ settings.temperature | tojson }}, "x": {{ settings["max"] | tojson }}, "first": {{ messages[0] | tojson }}}',
  '{{ a.b.c | tojson }}',
  'prefix {{ tools | tojson }} suffix',
];

test('the splice writes exactly what the engine writes, for random values, and leaves to the engine what it cannot read plainly', () => {
  const rng = rngFor(7, 'json-splice');
  let spliced = 0;
  for (const source of TEMPLATES) {
    const template = new Template(source);
    const splice = compileJsonSplice(template.parsed);
    assert.ok(splice, `${source} is spliceable`);
    for (let i = 0; i < 300; i++) {
      const variables: Record<string, unknown> = {
        session: randomValue(rng),
        prompt: randomValue(rng),
        messages: Array.from({ length: 1 + Math.floor(rng.next() * 3) }, () => ({ role: 'user', content: randomValue(rng), extra: randomValue(rng) })),
        settings: rng.next() < 0.8 ? { temperature: randomValue(rng), max: randomValue(rng) } : randomValue(rng),
        a: randomValue(rng),
        tools: randomValue(rng),
      };
      const fast: string | undefined = splice.render(variables);
      if (fast === undefined) continue;
      spliced++;
      assert.equal(fast, template.render(variables), `${source} with ${JSON.stringify(variables)}`);
    }
  }
  assert.ok(spliced > 600, `only ${spliced} renderings were spliced`);
});

test('a path the engine would not read as plain data is left to it', () => {
  const splice = compileJsonSplice(new Template('{{ settings.temperature | tojson }}').parsed);
  assert.ok(splice);
  assert.equal(splice.render({ settings: { temperature: 0 } }), '0');
  assert.equal(splice.render({ settings: {} }), undefined, 'a missing key: the engine decides (a builtin of the same name, or undefined)');
  assert.equal(splice.render({ settings: 'text' }), undefined, 'a member of a string');
  assert.equal(splice.render({}), undefined, 'an unknown variable');
  assert.equal(splice.render({ settings: { temperature: () => 1 } }), undefined, 'a function');
});

test('only text and {{ path | tojson }} are spliced; any other template is the engine\'s', () => {
  for (const source of ['{{ prompt }}', '{{ prompt | tojson(indent=2) }}', '{% if tools %}{{ tools | tojson }}{% endif %}', '{{ messages[-1] | tojson }}', '{{ prompt | upper | tojson }}', '{{ (prompt ~ "x") | tojson }}']) {
    assert.equal(compileJsonSplice(new Template(source).parsed), undefined, source);
  }
});

test('a body is known to be JSON for any values only when every output stands where a whole value goes', () => {
  const always = (source: string): boolean | undefined => compileJsonSplice(new Template(source).parsed)?.alwaysJson;
  assert.equal(always('{"session": {{ session | tojson }}, "m": [{{ prompt | tojson }}, {{ system | tojson }}]}'), true);
  assert.equal(always('{"m": "{{ prompt | tojson }}"}'), false, 'inside a string');
  assert.equal(always('{ {{ prompt | tojson }}: 1}'), false, 'as a key');
  assert.equal(always('{"n": 1{{ prompt | tojson }}}'), false, 'beside a digit');
  assert.equal(always('[{{ a | tojson }}{{ b | tojson }}]'), false, 'two values with nothing between');
});
