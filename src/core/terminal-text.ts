/**
 * Text from outside (a provider's error body, a model's output, a dataset row, a run id in a shared
 * store, a job on a queue) printed to a terminal could drive it: ESC starts sequences that set the
 * window title, clear the screen or rewrite what is shown, other C0/C1 controls move the cursor,
 * and a bidi override reverses the rest of a line (Trojan Source). Everything assay prints to a
 * console goes through {@link visibleControls}; what it stores and exports keeps the bytes.
 */

/**
 * C0 controls but newline and tab, DEL, C1 controls, the line and paragraph separators, and the
 * bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI). The bidi marks
 * (LRM, RLM, ALM) are left: they carry no state past themselves.
 */
const CONTROLS_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same with newline and tab. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b`: the JavaScript and JSON escape, so a JSON text stays JSON with the same value. */
const escaped = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

export interface VisibleControlsOptions {
  /**
   * Keep newlines and tabs: for a text whose lines are ours (a rendered table, a summary), where
   * outside text inside it has already been made one line. Default false: a newline from outside
   * is shown as `\u000a` and cannot start a line that looks like one of ours.
   */
  readonly keepLayout?: boolean;
}

/** `text` with every control character (see above) written as its `\uXXXX` escape; nothing else changes. */
export function visibleControls(text: string, options: VisibleControlsOptions = {}): string {
  return text.replace(options.keepLayout ? CONTROLS_BUT_LAYOUT : CONTROLS, escaped);
}

/** At most `max` characters of `text`, the rest replaced by a marker saying how many were left out. */
export function boundedText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * Outside text for one log line: bounded ({@link boundedText}), then made visible, newlines
 * included, so a 1 MB field on a queue is one short line in a log.
 */
export function boundedLogText(text: string, max: number): string {
  return visibleControls(boundedText(text, max));
}
