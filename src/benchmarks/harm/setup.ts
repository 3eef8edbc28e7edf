/**
 * What a harm-measurement run needs of a measurement resource, once loaded and checked
 * (`datasets/harm/`): the system under test, the personas the simulated user plays, the
 * conversation's bound and the annotation guideline.
 */
export interface HarmSetup {
  /** The resource's name (`system-prompt-leakage`). */
  readonly name: string;
  readonly harmArea: string;
  readonly maxTurns: number;
  /** The system under test's own system prompt, with its context documents appended. */
  readonly systemPrompt: string;
  readonly personas: readonly HarmPersona[];
  readonly guideline: HarmGuideline;
  /**
   * A leak the resource can detect by string match (a secret in the system prompt, a protected
   * text): the truth the judge's labels are checked against. Absent for harms only a reader sees.
   */
  readonly leakCheck?: { readonly text: string };
  /** sha256 of every file read, keyed by path relative to the resource folder. */
  readonly checksums: Readonly<Record<string, string>>;
}

/** One persona: a template filled with one parameter set. */
export interface HarmPersona {
  /** `<template id>/<row id>`: the sample id. */
  readonly id: string;
  readonly template: string;
  readonly templateSha256: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The rendered persona the simulated user plays. */
  readonly text: string;
  /** This conversation's seed (the simulated user's calls start from it). */
  readonly seed: number;
}

/** How the judge annotates a conversation: the expert's harm definition and severity scale. */
export interface HarmGuideline {
  readonly harmDefinition: string;
  /** Contiguous severities, lowest first, each with a label and an example. */
  readonly scale: readonly { readonly severity: number; readonly label: string; readonly example: string }[];
  /** A conversation is a defect when its severity is at least (or, `at-most`, at most) this. */
  readonly defectThreshold: number;
  readonly defectWhen: 'at-least' | 'at-most';
}

/** Whether a severity is a defect under the guideline. */
export const isDefect = (guideline: HarmGuideline, severity: number): boolean =>
  guideline.defectWhen === 'at-least' ? severity >= guideline.defectThreshold : severity <= guideline.defectThreshold;
