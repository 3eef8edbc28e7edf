import { InputError, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import { errorFromAbort } from '../../http/call-errors.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { createSessionIds } from '../../targets/session-ids.js';
import { readTargetAnswer } from '../../targets/target-answer.js';
import { excerpt, targetError } from '../../targets/target-error.js';
import { buildTargetRequest } from '../../targets/target-request.js';
import { findCommand } from '../../../core/find-command.js';
import { MAX_STDOUT_BYTES, runChild, type ChildOutcome } from './run-child.js';

/** The default time a command has to answer. */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

/** A script or program run once per call: what the config file's `exec:` declaration maps to. */
export interface ExecTargetOptions {
  /** The declared name: the provider's id (and model id everywhere). */
  readonly name: string;
  /** The command and its arguments, run without a shell, e.g. `['python3', 'bot.py']`. */
  readonly argv: readonly string[];
  /** The most one call may take (default 60 s); past it the command is killed and the call is a `target` error. */
  readonly timeoutMs?: number;
  /** The command's working directory (default the working directory; the config file's folder for a declaration). */
  readonly cwd?: string;
  /** The command's environment (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether identical requests may be answered from the call cache (default true; false for a script that keeps state by `session`). */
  readonly cacheable?: boolean;
  /** How bad-input errors name a field of the declaration (default `<name>: <field>`). */
  readonly locate?: (field: string) => string;
}

/**
 * A provider that runs a command per call: the `TargetRequest` as JSON on its stdin, the answer
 * `{ text, toolCalls?, usage? }` as JSON on its stdout. A non-zero exit, a kill, the time limit,
 * stdout that is not the answer's JSON, or a command that cannot be started is a `target` error
 * with a short reason (the end of stderr for a failed exit). The run's stop and the middleware's
 * own timeout kill the command (and its process group).
 *
 * @throws InputError when argv is empty, the timeout is not a positive number, or the command is not found.
 */
export function createExecTarget(options: ExecTargetOptions): ModelProvider {
  const { name } = options;
  const locate = options.locate ?? ((field: string) => `${name}: ${field}`);
  const command = options.argv[0] ?? '';
  if (command === '') throw new InputError(`${locate('exec')}: expected the command and its arguments, e.g. [python3, bot.py]`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new InputError(`${locate('timeoutMs')}: expected a positive number of milliseconds, got ${String(timeoutMs)}`);
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (findCommand(command, cwd, env) === undefined) {
    throw new InputError(`${locate('exec')}: command not found: ${command}${command.includes('/') ? ` (looked for an executable file at it, from ${cwd})` : ' (looked in PATH)'}`);
  }
  const argv = [...options.argv];
  const sessions = createSessionIds();
  const plain = (text: string): string => text;
  const fail = (reason: string): Error => targetError(name, reason, plain);

  async function generate(request: GenerateRequest, { signal, sampleId }: GenerateOptions): Promise<GenerateResult> {
    if (signal.aborted) throw errorFromAbort(signal);
    const stdin = JSON.stringify(buildTargetRequest(name, request, sessions(sampleId), sampleId));
    const outcome = await runChild({ argv, cwd, env, stdin, timeoutMs, signal });
    if (outcome.kind === 'aborted') throw errorFromAbort(signal);
    const stdout = answerText(outcome, command, timeoutMs, fail);
    let answer: unknown;
    try {
      answer = JSON.parse(stdout);
    } catch {
      throw fail(`${command} printed no JSON answer on stdout: ${stdout.trim() === '' ? '(nothing)' : excerpt(stdout)}`);
    }
    const read = readTargetAnswer(answer);
    if (!read.ok) throw fail(read.problem);
    return read.value;
  }

  return { specVersion: 'v1', id: name, cacheable: options.cacheable ?? true, generate };
}

/** The child's stdout when it exited 0; otherwise the `target` error saying how it ended. */
function answerText(outcome: Exclude<ChildOutcome, { kind: 'aborted' }>, command: string, timeoutMs: number, fail: (reason: string) => Error): string {
  const stderrTail = (stderr: string): string => (stderr.trim() === '' ? '' : `: ${excerpt(stderr.trim().split('\n').slice(-3).join(' / '))}`);
  switch (outcome.kind) {
    case 'exited':
      if (outcome.code !== 0) throw fail(`${command} exited with code ${outcome.code}${stderrTail(outcome.stderr)}`);
      return outcome.stdout;
    case 'signalled':
      throw fail(`${command} was killed by ${outcome.signal}${stderrTail(outcome.stderr)}`);
    case 'spawn-failed':
      throw fail(outcome.code === 'ENOENT' ? `command not found: ${command}` : `cannot run ${command}: ${outcome.message}`);
    case 'timed-out':
      throw fail(`${command} gave no answer within ${timeoutMs} ms (killed)`);
    case 'too-much-output':
      throw fail(`${command} printed more than ${MAX_STDOUT_BYTES / 1024 / 1024} MB on stdout (killed)`);
  }
}
