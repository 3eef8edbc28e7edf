import { formatUsd } from '../runner/budget.js';
import type { ModelEstimate, RunEstimate } from '../runner/estimate.js';

const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${formatUsd(n)}`;

function modelLine(m: ModelEstimate): string {
  const head = `  ${m.model}: ${count(m.calls)} calls`;
  if (m.free) return `${head}, free`;
  if (m.input_tokens === null) return `${head} at most, not priced (each prompt holds the conversation before it)`;
  const input = `input ≈ ${count(m.input_tokens)} tokens${m.input_cost_usd !== null ? ` (${usd(m.input_cost_usd)})` : ''}`;
  const output = m.output_tokens_max !== null ? `output ≤ ${count(m.output_tokens_max)} tokens` : 'output not bounded (give --max-tokens to bound it)';
  let cost: string;
  if (m.input_cost_usd === null) cost = `price unknown (give --price ${m.model}=IN/OUT, USD per million tokens)`;
  else if (m.cost_usd_max !== null) cost = `at most ${usd(m.cost_usd_max)}`;
  else cost = `${usd(m.input_cost_usd)} plus the answers`;
  return `${head}, ${input}, ${output}: ${cost}`;
}

/** The human form of `assay run --estimate`. */
export function renderEstimate(estimate: RunEstimate): string {
  const lines = [`estimate for ${estimate.task}: ${count(estimate.samples)} samples${estimate.repeats !== undefined ? `, each answered ${estimate.repeats} times (--repeats)` : ''} (no model called, nothing stored)`, ...estimate.models.map(modelLine)];
  if (estimate.judge) {
    const calls = estimate.judge.calls_max === null ? 'a number of calls that depends on the answers (one per claim)' : `at most ${count(estimate.judge.calls_max)} calls`;
    const repeats = `${estimate.judge.repeats} repeat${estimate.judge.repeats === 1 ? '' : 's'} per item`;
    lines.push(`  judge ${estimate.judge.model}: ${repeats}, ${calls}, not priced (its prompts hold the answers)`);
  }
  if (estimate.user) lines.push(`  simulated user ${estimate.user.model}: at most ${count(estimate.user.calls_max)} calls, not priced (its prompts hold the conversation)`);
  lines.push('Tokens ≈ characters / 4. Calls answered from the call cache cost nothing; failed attempts are not billed.');
  return `${lines.join('\n')}\n`;
}
