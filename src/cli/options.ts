import { InvalidArgumentError } from 'commander';

// `Number()` reads far more than a user means by a count: "1e3", "0x10", "0b11", "1.0", "+5",
// " 5" and "" (as 0) all pass it. A count on the command line is written in plain decimal digits;
// anything else is far more likely a typo than a wish, so it is refused with the option's name.
const PLAIN_INTEGER = /^[0-9]+$/;
// A decimal amount (temperature, USD): digits with at most one point, nothing else.
const PLAIN_DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/** The integer a plain decimal string stands for, or undefined (also past 2^53, where digits would be lost). */
function plainInteger(value: string): number | undefined {
  if (!PLAIN_INTEGER.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * For a value `Number()` reads as a whole number in range but that is not written in plain digits
 * ("1e3", "0x10", "1.0", "+5"): the spelling that was probably meant, so the fix is one edit away.
 */
function plainHint(value: string, min: number): string {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  return Number.isSafeInteger(n) && n >= min ? ` (plain decimal digits only, e.g. ${n})` : '';
}

/** Commander argument parsers that reject bad values with a one-line reason. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = plainInteger(value);
    if (n === undefined || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}"${plainHint(value, 1)}`);
    return n;
  };
}

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = plainInteger(value);
    if (n === undefined) throw new InvalidArgumentError(`${name} must be a non-negative integer, got "${value}"${plainHint(value, 0)}`);
    return n;
  };
}

export function number(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = PLAIN_DECIMAL.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a number between ${min} and ${max} in plain decimal digits, got "${value}"`);
    return n;
  };
}

/** An amount of USD above zero (`--max-cost 2.50`; a leading `$` is allowed). */
export function usdAmount(name: string) {
  return (value: string): number => {
    const digits = value.replace(/^\$/, '');
    const n = PLAIN_DECIMAL.test(digits) ? Number(digits) : Number.NaN;
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be an amount of USD above 0, e.g. 2.50, got "${value}"`);
    return n;
  };
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--price model=IN/OUT` (USD per million tokens). */
export function parsePrice(value: string, previous: Record<string, { inputPerMillion: number; outputPerMillion: number }> | undefined) {
  const match = /^(.+)=([0-9.]+)\/([0-9.]+)$/.exec(value);
  // "1..2" matches the character class but is no number: checked as a whole, as the other amounts are.
  if (!match || !PLAIN_DECIMAL.test(match[2] as string) || !PLAIN_DECIMAL.test(match[3] as string)) {
    throw new InvalidArgumentError(`--price must look like openai:gpt-4o-mini=0.15/0.60 (USD per million input/output tokens), got "${value}"`);
  }
  return { ...previous, [match[1] as string]: { inputPerMillion: Number(match[2]), outputPerMillion: Number(match[3]) } };
}

/** `--rubric TYPE=FILE` (repeatable): a judged task's rubric for one output type replaced by a file. */
export function parseRubric(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const match = /^([A-Za-z_]+)=(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`--rubric must look like call=my-call-rubric.txt, got "${value}"`);
  return { ...previous, [match[1] as string]: match[2] as string };
}
