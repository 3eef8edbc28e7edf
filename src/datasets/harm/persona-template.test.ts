import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { compileTemplate } from './persona-template.js';
import { TemplateRenderer } from './template-renderer.js';

const refused = (text: string, expected: RegExp): void => {
  assert.throws(() => compileTemplate('t.jinja', text), (e: unknown) => e instanceof InputError && expected.test(e.message) && !e.message.includes('\n'));
};

describe('compileTemplate', () => {
  it('renders a persona and lists the variables it reads, not the ones it binds', async () => {
    const template = compileTemplate('t.jinja', [
      'You are {{ name }}, asking about {{ topic | upper }}.',
      '{% set tone = style or "plain" %}',
      '{% for step in steps %}{{ loop.index }}. {{ step }} ({{ tone }})',
      '{% endfor %}',
      '{{ user.name }} {{ user["age"] }} {{ items[index] }}',
    ].join('\n'));
    assert.deepEqual(template.variables, ['name', 'topic', 'style', 'steps', 'user', 'items', 'index']);
    const renderer = new TemplateRenderer();
    const text = await renderer.render(template.source, { name: 'Ann', topic: 'tides', style: '', steps: ['a', 'b'], user: { name: 'U', age: 3 }, items: ['x'], index: 0 }).finally(() => renderer.close());
    assert.equal(text, 'You are Ann, asking about TIDES.\n1. a (plain)\n2. b (plain)\nU 3 x');
  });

  it('macro arguments, keyword defaults and filter arguments', () => {
    const template = compileTemplate('t.jinja', '{% macro greet(who, greeting="Hi") %}{{ greeting }} {{ who }}{{ suffix }}{% endmacro %}{{ greet(person) }} {{ text | replace("a", letter) }} {% if mood is defined %}x{% endif %}');
    assert.deepEqual(template.variables, ['suffix', 'person', 'text', 'letter', 'mood']);
  });

  it('a syntax error names the template file and the line of the tag', () => {
    refused('line one\nline two {{ name + }}\n', /^t\.jinja:2: template syntax error \(Unexpected token: CloseExpression\)$/);
    refused('a\n\nb {% frobnicate %}', /^t\.jinja:3: template syntax error \(Unknown statement type: frobnicate\)/);
    refused('a\n{{ name !}}', /^t\.jinja:2: template syntax error \(Unexpected character: !\)/);
  });

  it('an unclosed tag or block names the line it opens on', () => {
    refused('hello\n{{ name \nmore', /^t\.jinja:2: template syntax error \(\{\{ is never closed\)/);
    refused('x\n{# comment', /^t\.jinja:2: .*\{# is never closed/);
    refused('{% for a in b %}\n{% if a %}\n{{ a }}\n{% endfor %}', /^t\.jinja:4: template syntax error \(\{% endfor %\} while \{% if %\} from line 2 is still open\)$/);
    refused('one\n{% if x %}\ntwo', /^t\.jinja:2: template syntax error \(\{% if %\} is never closed \(no \{% endif %\}\)\)/);
    refused('{% for a in b %}{{ a }}{% endfor %}\n{% endif %}', /^t\.jinja:2: .*endif/);
  });

  it('refuses the clock: a persona must render the same each run', () => {
    refused('x\n{{ strftime_now("%Y") }}', /^t\.jinja:2: strftime_now reads the clock/);
  });
});
