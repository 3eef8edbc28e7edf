import { createRequire } from 'node:module';
import type { ProgressEvent } from '../runner/execute.js';
import { rewriteLine, writeText } from './terminal.js';

export interface ProgressReporter {
  update(event: ProgressEvent): void;
  /** A line for the user (a warning) that must not end up glued to the bar. */
  note(line: string): void;
  stop(): void;
}

/**
 * A bar with rate and ETA on a terminal; on anything else (CI logs, pipes) a plain line every 10%
 * or 15 seconds, so logs stay readable. Always on stderr: stdout is for results (`--json`).
 */
export function createProgressReporter(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (stream.isTTY) {
    // Loaded for a terminal only (a CommonJS package: required, so this stays synchronous): a run
    // logging to a pipe or a file does not load its 18 files.
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted} | errors {errors}`, stream, hideCursor: true, etaBuffer: 200, fps: 5 },
      cliProgress.Presets.shades_classic,
    );
    const started = Date.now();
    let begun = false;
    return {
      update(e) {
        const rate = (e.finished / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1);
        if (!begun) {
          bar.start(e.total, e.finished, { rate, errors: e.errors });
          begun = true;
        } else bar.update(e.finished, { rate, errors: e.errors });
      },
      note(line) {
        // Clear the bar's line, write, and draw the bar again below.
        rewriteLine(stream, `${line}\n`);
        if (begun) bar.render();
      },
      stop: () => begun && bar.stop(),
    };
  }
  const started = Date.now();
  let lastLine = 0;
  let lastShare = -1;
  return {
    update(e) {
      const share = e.total === 0 ? 1 : e.finished / e.total;
      const now = Date.now();
      const decile = Math.floor(share * 10);
      if (e.finished !== 0 && e.finished !== e.total && decile === lastShare && now - lastLine < 15_000) return;
      if (e.finished === 0 && lastShare >= 0) return;
      lastShare = decile;
      lastLine = now;
      const seconds = (now - started) / 1000;
      const rate = e.finished / Math.max(0.001, seconds);
      const eta = rate > 0 ? Math.round((e.total - e.finished) / rate) : undefined;
      const skipped = e.skipped > 0 ? `, ${e.skipped} already done` : '';
      writeText(stream, `${label}: ${e.finished}/${e.total} (${Math.round(share * 100)}%)${skipped}, ${rate.toFixed(1)}/s, ETA ${eta === undefined ? '?' : `${eta}s`}, errors ${e.errors}\n`);
    },
    note: (line) => writeText(stream, `${line}\n`),
    stop() {},
  };
}
