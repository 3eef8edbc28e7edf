import { spawn, type ChildProcess } from 'node:child_process';

/** Most stdout a target's answer may be (a reply of ~4M tokens): past it the child is stopped, not buffered for ever. */
export const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
/** The end of stderr kept to say why a child failed. */
const STDERR_TAIL_BYTES = 2048;

/** How one run of a child ended. */
export type ChildOutcome =
  | { readonly kind: 'exited'; readonly code: number; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'signalled'; readonly signal: string; readonly stderr: string }
  | { readonly kind: 'spawn-failed'; readonly code: string | undefined; readonly message: string }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'too-much-output' }
  | { readonly kind: 'aborted' };

export interface ChildRun {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * Stops the child and whatever it started: it runs in its own process group (`detached`), so a
 * shell wrapper's children go too. SIGKILL, since a child past its time or whose run is stopping
 * has nothing left to finish for us.
 */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs `argv` (no shell: the words are passed as they are), writes `stdin` and closes it, and
 * collects stdout and the end of stderr. Ends at the child's close, or earlier — the child
 * killed — at the time limit, at too much output, or when `signal` aborts.
 */
export function runChild(run: ChildRun): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const [command, ...args] = run.argv as [string, ...string[]];
    let settled = false;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    const child = spawn(command, args, { cwd: run.cwd, env: run.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true });

    const finish = (outcome: ChildOutcome, kill: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      if (kill) killGroup(child);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'aborted' }, true);
    const timer = setTimeout(() => finish({ kind: 'timed-out' }, true), run.timeoutMs);
    run.signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn-failed', code: error.code, message: error.message }, true));
    // A child that exits without reading its stdin makes the write fail (EPIPE): its exit says what happened.
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) return finish({ kind: 'too-much-output' }, true);
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    child.on('close', (code, signal) => {
      const stderrText = stderr.toString('utf8');
      if (code === null) return finish({ kind: 'signalled', signal: signal ?? 'unknown signal', stderr: stderrText }, false);
      finish({ kind: 'exited', code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: stderrText }, false);
    });
    child.stdin.end(run.stdin);
  });
}
