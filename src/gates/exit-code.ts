import type { GateResult } from './gate-result.js';

/** assay's exit codes for a gated run (docs/suites.md). 2 (bad input) is the CLI's, before anything runs. */
export const GATE_EXIT = { ok: 0, badInput: 2, sampleErrors: 3, gateFailed: 4, interrupted: 130 } as const;

export interface GatedRunEnd {
  readonly results: readonly GateResult[];
  /** `strict: true`: an inconclusive gate fails the run as a failed one does. */
  readonly strict?: boolean;
  /** Samples that ended in error across the suite's runs. */
  readonly sampleErrors?: number;
  /** The suite was stopped (Ctrl-C, a budget, a lost lease) before every run ended. */
  readonly interrupted?: boolean;
}

/**
 * The exit code of a gated run: 130 interrupted (its gates saw part of the data); else 4 when a
 * gate failed (or, strict, was inconclusive) — the decision CI acts on, which errors do not
 * change since an error is never scored as a fail; else 3 when samples ended in error (every gate
 * passed, but over fewer samples than asked); else 0.
 */
export function gateExitCode(end: GatedRunEnd): number {
  if (end.interrupted) return GATE_EXIT.interrupted;
  const blocking = end.results.some((r) => r.outcome === 'fail' || (end.strict === true && r.outcome === 'inconclusive'));
  if (blocking) return GATE_EXIT.gateFailed;
  if ((end.sampleErrors ?? 0) > 0) return GATE_EXIT.sampleErrors;
  return GATE_EXIT.ok;
}
