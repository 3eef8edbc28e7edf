import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEMPLATE_BOUNDS, TemplateBoundError, TemplateRenderer, TemplateTotalTimeError } from './template-renderer.js';

/** Renders once in a renderer of its own; the time from the request to the answer. */
async function renderAlone(source: string, parameters: Record<string, unknown> = {}): Promise<{ text?: string; error?: Error; ms: number }> {
  const renderer = new TemplateRenderer();
  await renderer.render('warm', {});
  const started = Date.now();
  try {
    return { text: await renderer.render(source, parameters), ms: Date.now() - started };
  } catch (error) {
    return { error: error as Error, ms: Date.now() - started };
  } finally {
    await renderer.close();
  }
}

const refusedFor = (result: { error?: Error }, bound: RegExp): void => {
  assert.ok(result.error instanceof TemplateBoundError, String(result.error));
  assert.match(result.error.message, bound);
};

describe('TemplateRenderer', () => {
  it('renders rows with one worker, ranges and loops included', async () => {
    const renderer = new TemplateRenderer();
    try {
      assert.equal(await renderer.render('{% for i in range(3) %}{{ i }}{{ topic }} {% endfor %}', { topic: 'x' }), '0x 1x 2x ');
      assert.equal(await renderer.render('{{ range(10, 0, -3) | join(",") }}', {}), '10,7,4,1');
      // A row's own `range` column does not replace the bounded range() (the engine refuses it, as it always did).
      await assert.rejects(renderer.render('{{ range(2) | length }}', { range: 'not a function' }), /already declared: range/);
      assert.equal(await renderer.render('{% if True and not none %}{{ true }}{% endif %}', {}), 'true');
      await assert.rejects(renderer.render('{{ x | nosuchfilter }}', { x: 1 }), (e: unknown) => e instanceof Error && !(e instanceof TemplateBoundError) && /nosuchfilter/.test(e.message));
    } finally {
      await renderer.close();
    }
  });

  it('a huge range() is refused before it is built, naming the bound', async () => {
    const result = await renderAlone('{% for i in range(10000000) %}{{ i }}{% endfor %}');
    refusedFor(result, new RegExp(`range\\(\\) of 10000000 items is over the bound of ${TEMPLATE_BOUNDS.rangeItems} items`));
  });

  it('output past the bound is refused, not sent back', async () => {
    const result = await renderAlone('{% for i in range(200) %}{{ line }}{% endfor %}', { line: 'x'.repeat(10_000) });
    refusedFor(result, new RegExp(`its output of 2000000 characters is over the bound of ${TEMPLATE_BOUNDS.outputChars} characters`));
  });

  it('nested loops that run long are stopped at the time bound', async () => {
    const result = await renderAlone('{% for i in range(100000) %}{% for j in range(100000) %}{% set k = i %}{% endfor %}{% endfor %}');
    refusedFor(result, new RegExp(`rendering took longer than the ${TEMPLATE_BOUNDS.timeMs / 1000} s`));
    // Terminated at the bound, not when the loops end (10^10 iterations): a generous ceiling for a loaded machine.
    assert.ok(result.ms < TEMPLATE_BOUNDS.timeMs + 10_000, `${result.ms} ms`);
  });

  it('a string doubled in a loop is stopped by a bound, not the machine', async () => {
    const result = await renderAlone('{% set ns = namespace(s="xxxxxxxxxx") %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}');
    assert.ok(result.error instanceof TemplateBoundError, String(result.error));
    assert.match(result.error.message, /memory|output|took longer/);
  });

  it('many rows, each well within its own bound, are stopped at the total bound, which says how many were rendered', async () => {
    // Each row loops for some tens of ms (more on a loaded machine): 200 rows take seconds, far
    // past a total of 1 s, while the first row is far within it. Before the total bound all 200 rendered.
    const rows = 200;
    const renderer = new TemplateRenderer(undefined, { timeMs: 60_000, totalTimeMs: 1000 });
    try {
      await renderer.render('warm', {});
      const outcomes = await Promise.allSettled(Array.from({ length: rows }, (_, n) => renderer.render('{% for i in range(2000) %}{% set k = i %}{% endfor %}{{ n }}', { n })));
      const rendered = outcomes.filter((o) => o.status === 'fulfilled');
      assert.ok(rendered.length >= 1 && rendered.length < rows, `${rendered.length} of ${rows} rendered`);
      // The rows rendered are the first ones, in order; every later one is refused with the same error.
      assert.deepEqual(rendered.map((o) => (o as PromiseFulfilledResult<string>).value), Array.from({ length: rendered.length }, (_, n) => String(n)));
      const refused = outcomes.slice(rendered.length).map((o) => (o as PromiseRejectedResult).reason as unknown);
      assert.ok(refused.every((e) => e === refused[0]));
      const error = refused[0];
      assert.ok(error instanceof TemplateTotalTimeError, String(error));
      assert.equal(error.totalTimeMs, 1000);
      // The warm-up counts as one rendering.
      assert.equal(error.rendered, rendered.length + 1);
      assert.match(error.message, new RegExp(`^renderings took longer than the 1 s all of a resource's personas may take together \\(${rendered.length + 1} rendered\\)$`));
    } finally {
      await renderer.close();
    }
  });

  it('the total bound by default: a minute over all of a resource\'s renderings', () => {
    assert.equal(TEMPLATE_BOUNDS.totalTimeMs, 60_000);
  });

  it('the run\'s stop ends a rendering at once', async () => {
    const stop = new AbortController();
    const renderer = new TemplateRenderer(stop.signal);
    try {
      await renderer.render('warm', {});
      const started = Date.now();
      setTimeout(() => stop.abort(new Error('stopped by the test')), 200);
      await assert.rejects(renderer.render('{% for i in range(100000) %}{% for j in range(100000) %}{% set k = i %}{% endfor %}{% endfor %}', {}), /stopped by the test/);
      assert.ok(Date.now() - started < TEMPLATE_BOUNDS.timeMs, 'stopped before the time bound');
      await assert.rejects(renderer.render('x', {}), /stopped by the test/);
    } finally {
      await renderer.close();
    }
  });
});
