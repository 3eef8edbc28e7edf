import type { DownloadProgress } from '../datasets/fetch/download.js';
import { rewriteLine, writeText } from './terminal.js';

export interface DownloadReporter {
  readonly onProgress: (progress: DownloadProgress) => void;
  readonly onWarning: (message: string) => void;
  /** Ends the current line (terminal) so later output starts on a fresh one. */
  stop(): void;
}

/** `2.6 MB`, `512 B`: decimal units, as download sizes are usually shown. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  // 999.95 kB would print as "1000.0 kB": move to the next unit at the rounding edge.
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Reports dataset downloads on stderr (stdout is for results). On a terminal one line per file is
 * rewritten in place as bytes arrive (at most 10 times a second); elsewhere (CI logs, pipes) one
 * line per file when it starts, so logs stay short. Warnings always get their own line.
 */
export function createDownloadReporter(stream: NodeJS.WriteStream = process.stderr): DownloadReporter {
  let current: string | undefined;
  let lastDraw = 0;
  let lineOpen = false;
  const endLine = (): void => {
    if (lineOpen) stream.write('\n');
    lineOpen = false;
  };
  const describe = (p: DownloadProgress): string => {
    const total = p.totalBytes === null ? '' : ` of ${formatBytes(p.totalBytes)}`;
    return `downloading ${p.path}: ${formatBytes(p.receivedBytes)}${total}`;
  };
  return {
    onProgress(p) {
      const isNewFile = p.path !== current;
      current = p.path;
      if (!stream.isTTY) {
        if (isNewFile) writeText(stream, `downloading ${p.path} from ${p.url}${p.totalBytes === null ? '' : ` (${formatBytes(p.totalBytes)})`}\n`);
        return;
      }
      const now = Date.now();
      const complete = p.totalBytes !== null && p.receivedBytes >= p.totalBytes;
      if (!isNewFile && !complete && now - lastDraw < 100) return;
      if (isNewFile) endLine();
      lastDraw = now;
      rewriteLine(stream, describe(p));
      lineOpen = true;
    },
    onWarning(message) {
      endLine();
      writeText(stream, `warning: ${message}\n`);
    },
    stop: endLine,
  };
}
