import type { Command } from 'commander';
import { visibleControls } from '../core/index.js';

/** `assay data fetch`: the command's words from the root, for "see … --help" hints. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The long flag of a commander flags string: `-n, --limit <n>` → `--limit`. */
function longFlag(flags: string): string {
  return /--[\w-]+/.exec(flags)?.[0] ?? flags.split(/[ ,]/)[0] ?? flags;
}

/**
 * Rewrites one commander error message as the single line the CLI prints (`assay: …`).
 *
 * Commander writes `error: option '-n, --limit <n>' argument 'x' is invalid. <our reason>`, and
 * some errors carry a second line ("(Did you mean …?)"). Our argument parsers already name the
 * option in their reason, so the reason alone is kept; choices get the same `--x must be …` form.
 */
export function oneLineCommanderError(raw: string, path: string): string {
  let message = raw.trim().replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
  const invalid = /^option '([^']*)' argument '(.*)' is invalid\. (.*)$/s.exec(message);
  if (invalid) {
    const [, flags = '', value = '', reason = ''] = invalid;
    const choices = /^Allowed choices are (.*)\.$/.exec(reason);
    if (choices) message = `${longFlag(flags)} must be one of ${choices[1]}, got "${value}"`;
    else if (reason.startsWith('-')) message = reason;
  }
  // The message quotes what was typed (an unknown option, a bad value): shown, never obeyed.
  return `assay: ${visibleControls(message)} (see "${path} --help")\n`;
}

/**
 * Makes every command print its parse errors as one `assay: …` line on stderr (no usage dump:
 * the hint names the `--help` to read). Call after all commands are registered.
 */
export function useOneLineErrors(command: Command): void {
  const path = commandPath(command);
  command.configureOutput({ outputError: (str, write) => write(oneLineCommanderError(str, path)) });
  for (const sub of command.commands) useOneLineErrors(sub);
}
