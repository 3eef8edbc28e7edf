import { visibleControls } from '../core/index.js';
import { readerGone } from './closed-pipe.js';

/**
 * Where the CLI's console output goes. Every human-facing text the CLI prints (summaries, run
 * lists, progress notes, warnings, worker logs, error lines) passes through {@link writeText}, so
 * no control character from outside text reaches the terminal (see core/terminal-text.ts); the
 * CLI's own newlines and tabs are kept. A JSON text stays JSON with the same value (controls are
 * written as `\uXXXX`). Only {@link printData} may pass bytes through unchanged.
 */
export function writeText(stream: NodeJS.WritableStream, text: string): void {
  stream.write(visibleControls(text, { keepLayout: true }));
}

/** Clears the terminal's current line (a progress bar's) and writes `text` there: the one control sequence the CLI writes itself. */
export function rewriteLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`\r\x1b[K${visibleControls(text, { keepLayout: true })}`);
}

/** Text on stdout (a command's result). */
export const printOut = (text: string): void => writeText(process.stdout, text);

/** Text on stderr (progress, warnings, notes, errors). */
export const printErr = (text: string): void => writeText(process.stderr, text);

/**
 * An export's rows on stdout: the stored bytes exactly when stdout is a pipe or a file (the export
 * is data); on a terminal, made visible like any other text.
 */
export function printData(text: string): void {
  if (process.stdout.isTTY) writeText(process.stdout, text);
  else process.stdout.write(text);
}

/**
 * A part of an export's rows on stdout, as {@link printData} writes them, resolved once stdout can
 * take more (a slow reader holds the export back rather than its rows piling up in memory). A
 * reader gone (`assay export … | head -1`: the pipe closed) takes no more parts.
 */
export async function printDataPart(text: string): Promise<void> {
  const out = process.stdout;
  if (out.destroyed || readerGone(out)) return;
  if (out.isTTY) {
    writeText(out, text);
    return;
  }
  if (out.write(text) || out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
