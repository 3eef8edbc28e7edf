import { z } from 'zod';
import { MODEL_NAME_PATTERN, MODEL_NAME_RULE } from './model-entry-schema.js';

/**
 * The `suites:` map of a config file (issue 24): what to run as data — models, tasks with their
 * options, and the gates each task's metrics must pass — so CI can say "this change may ship".
 * Strict objects like `models:`: a misspelt key names the nearest valid one. What needs the task
 * registry (does the task exist, does it declare the gated metric, which way is better) is
 * checked by `validateSuite` before anything runs; this schema checks the shape.
 */

/** A model named by a suite: a name from `models:`, or a `provider:model` id (the loader checks which). */
const MODEL_REFERENCE = z.string().min(1).describe('A name from models:, or a provider:model id (openai:gpt-4o).');

/** What a gate on one metric requires (docs/suites.md: gate semantics). */
export const GATE_REQUIREMENTS = ['confident', 'non-inferior'] as const;
export type GateRequirement = (typeof GATE_REQUIREMENTS)[number];

export const METRIC_GATE = z
  .strictObject({
    min: z.number().optional().describe('The metric\'s point estimate must be at least this (inclusive).'),
    max: z.number().optional().describe('The metric\'s point estimate must be at most this (inclusive).'),
    require: z
      .enum(GATE_REQUIREMENTS)
      .optional()
      .describe('confident: min/max pass only when the whole 95% interval clears the threshold (a point that passes with an interval that straddles it is inconclusive). non-inferior: against the suite\'s regression baseline, fail unless the interval of the change shows it is no worse than the margin.'),
  })
  .superRefine((gate, ctx) => {
    if (gate.min === undefined && gate.max === undefined && gate.require === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: 'a gate needs min:, max: or require: non-inferior' });
    }
    if (gate.require === 'confident' && gate.min === undefined && gate.max === undefined) {
      ctx.addIssue({ code: 'custom', path: ['require'], message: 'require: confident is about a min: or max: threshold; give one' });
    }
    if (gate.min !== undefined && gate.max !== undefined && gate.min >= gate.max) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: `max (${gate.max}) must be above min (${gate.min}); no estimate could pass both` });
    }
  })
  .describe('What one metric must hold: a threshold on its point estimate, and how sure its interval must be.');

/** A task option's value, as the CLI flag it stands for would take it. */
const OPTION_VALUE = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const SUITE_TASK = z
  .strictObject({
    task: z.string().min(1).describe('A task name, as assay list shows it (metatool/similar, harm/system-prompt-leakage).'),
    options: z.record(z.string().min(1), OPTION_VALUE).optional().describe('The task\'s options, by their flag\'s name without dashes (limit, articles, per-tool).'),
    userModel: MODEL_REFERENCE.optional().describe('The simulated user of this entry (harm tasks); replaces the suite\'s.'),
    judge: MODEL_REFERENCE.optional().describe('The judge of this entry; replaces the suite\'s.'),
    gates: z.record(z.string().min(1), METRIC_GATE).optional().describe('Gates by metric name: each model\'s metric is checked against each.'),
  })
  .describe('One run of the suite: a task on every model of the suite.');

export const REGRESSION_BASELINES = ['last-passing'] as const;

export const SUITE_REGRESSION = z
  .strictObject({
    baseline: z.string().min(1).describe('last-passing (the newest run of this suite whose gates all passed) or a run id.'),
    margin: z.number().min(0).describe('How much worse than the baseline a gated metric may be, in its own units (0.02 = 2 points of a share).'),
  })
  .describe('Each gated metric compared with a baseline run sample by sample: a change worse than the margin with 95% confidence fails.');

export const SUITE = z
  .strictObject({
    models: z.array(MODEL_REFERENCE).min(1).describe('The models under test: every task runs on each.'),
    judge: MODEL_REFERENCE.optional().describe('The judge of judged tasks.'),
    userModel: MODEL_REFERENCE.optional().describe('The simulated user of harm tasks.'),
    repeats: z.int().min(1).optional().describe('The model under test answers each sample this many times.'),
    strict: z.boolean().optional().describe('An inconclusive gate fails the suite (exit 4) as a failed one does.'),
    tasks: z.array(SUITE_TASK).min(1).describe('The suite\'s runs, in order.'),
    regression: SUITE_REGRESSION.optional(),
  })
  .describe('A named suite: assay run --suite NAME.');

export const SUITE_NAME = z.string().regex(MODEL_NAME_PATTERN, MODEL_NAME_RULE.replace('a name', 'a suite name'));

export const SUITES = z.record(SUITE_NAME, SUITE).describe('Named suites of tasks with gates (docs/suites.md).');

export type MetricGate = z.output<typeof METRIC_GATE>;
export type SuiteTask = z.output<typeof SUITE_TASK>;
export type SuiteRegression = z.output<typeof SUITE_REGRESSION>;
export type SuiteEntry = z.output<typeof SUITE>;
