import { visibleControls, type Message, type Sample } from '../core/index.js';

/** Characters of a preview: one terminal line after the id. */
const PREVIEW_CHARS = 100;

/**
 * What a sample asks, on one line: the question behind the prompt when the sample carries it
 * (MetaTool's prompts are a long shared template with the query inside), else the last user
 * message (FunctionChat's turn). Read from the sample, so a new task needs nothing here.
 */
export function samplePreview(sample: Sample): string {
  const lastUser = [...sample.input].reverse().find((m) => m.role === 'user');
  // Hints are the task's own shape: a string `query` field is read as the question, whatever the kind.
  const query = typeof sample.hints?.query === 'string' ? sample.hints.query : undefined;
  const text = (query ?? lastUser?.content ?? '').replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** One line per sample: the id, padded so the previews line up, and the preview. */
export function renderSampleList(samples: readonly Sample[]): string {
  const width = Math.min(48, Math.max(0, ...samples.map((s) => s.id.length)));
  // A sample's id and text are the data's: one line each, whatever they hold.
  return samples.map((s) => visibleControls(`${s.id.padEnd(width)}  ${samplePreview(s)}`.trimEnd())).join('\n');
}

/** A message as plain JSON data: a composed prompt's content is a getter, read once here. */
const plainMessage = (message: Message): Message => ({ ...message, content: message.content });

/**
 * One JSON line per sample: `id` (what a replay line's "id" must be), the exact `input` messages
 * in assay's shape, the `tools` offered when there are any, and the `target` the output is scored
 * against. Enough to call a model elsewhere and write a replay file from its answers.
 */
export function sampleJsonLines(samples: readonly Sample[]): string {
  return samples
    .map((s) => JSON.stringify({ id: s.id, input: s.input.map(plainMessage), ...(s.tools && s.tools.length > 0 ? { tools: s.tools } : {}), target: s.target }))
    .map((line) => `${line}\n`)
    .join('');
}
