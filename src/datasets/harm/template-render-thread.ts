// The worker thread persona templates render in (see template-renderer.ts): a hostile template
// may loop or grow without end here, where the main thread can stop it; the bounds that are cheap
// to check in the engine are checked here, the time and memory bounds by the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { jinjaGlobals } from '../../core/jinja-globals.js';
import type { RenderOutcome, RenderReply, RenderRequest } from './template-renderer.js';

const { maxOutputChars, maxRangeItems } = workerData as { maxOutputChars: number; maxRangeItems: number };

/** A bound passed inside the engine: told apart from the template's own errors. */
class BoundExceeded extends Error {}

/**
 * The engine's `range()` builds its whole list before the loop starts, so `range(10000000)` costs
 * gigabytes before any other check could see it: this one counts first.
 */
function boundedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (![from, to, step].every(Number.isFinite)) throw new Error('range() takes finite numbers');
  if (step === 0) throw new Error('range() step must not be zero');
  const count = Math.max(0, Math.ceil((to - from) / step));
  if (count > maxRangeItems) throw new BoundExceeded(`range() of ${count} items is over the bound of ${maxRangeItems} items a range may have`);
  return Array.from({ length: count }, (_, i) => from + i * step);
}

/** The engine's own globals with `range` bounded (`strftime_now` left out: compileTemplate refuses it, a persona must render the same each run). */
const GLOBALS = jinjaGlobals(boundedRange);

/** Templates compiled once each: a resource has a few, each rendered once a parameter row. */
const compiled = new Map<string, Template>();

function render({ source, parameters }: RenderRequest): RenderOutcome {
  try {
    let template = compiled.get(source);
    if (!template) compiled.set(source, (template = new Template(source)));
    // As Template.render, with our globals. A row's own `range` column is refused as a redeclaration, as before.
    const env = new Environment();
    for (const [name, value] of [...Object.entries(GLOBALS), ...Object.entries(parameters)]) env.set(name, value);
    const text = String(new Interpreter(env).run(template.parsed).value);
    if (text.length > maxOutputChars) return { ok: false, bound: `its output of ${text.length} characters is over the bound of ${maxOutputChars} characters a persona may have` };
    return { ok: true, text };
  } catch (error) {
    if (error instanceof BoundExceeded) return { ok: false, bound: error.message };
    if (error instanceof RangeError && /string length/i.test(error.message)) return { ok: false, bound: `its output is over the bound of ${maxOutputChars} characters a persona may have` };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: RenderRequest) => {
  const reply: RenderReply = { id: request.id, ...render(request) };
  parentPort?.postMessage(reply);
});
parentPort?.postMessage('ready');
