import { InvalidArgumentError } from 'commander';

/** Commander argument parsers that reject bad values with a one-line reason. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}"`);
    return n;
  };
}

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer, got "${value}"`);
    return n;
  };
}

export function number(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a number between ${min} and ${max}, got "${value}"`);
    return n;
  };
}

/** An amount of USD above zero (`--max-cost 2.50`; a leading `$` is allowed). */
export function usdAmount(name: string) {
  return (value: string): number => {
    const n = Number(value.trim().replace(/^\$/, ''));
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be an amount of USD above 0, e.g. 2.50, got "${value}"`);
    return n;
  };
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--price model=IN/OUT` (USD per million tokens). */
export function parsePrice(value: string, previous: Record<string, { inputPerMillion: number; outputPerMillion: number }> | undefined) {
  const match = /^(.+)=([0-9.]+)\/([0-9.]+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`--price must look like openai:gpt-4o-mini=0.15/0.60 (USD per million input/output tokens), got "${value}"`);
  return { ...previous, [match[1] as string]: { inputPerMillion: Number(match[2]), outputPerMillion: Number(match[3]) } };
}

/** `--rubric TYPE=FILE` (repeatable): a judged task's rubric for one output type replaced by a file. */
export function parseRubric(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const match = /^([A-Za-z_]+)=(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`--rubric must look like call=my-call-rubric.txt, got "${value}"`);
  return { ...previous, [match[1] as string]: match[2] as string };
}
