import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, ModelCallError, user, type GenerateRequest } from '../../../core/index.js';
import { Model } from '../../middleware/model.js';
import { createExecTarget, type ExecTargetOptions } from './exec-target.js';

const request = (text: string): GenerateRequest => ({ messages: [user(text)], settings: {} });
const signal = (): AbortSignal => new AbortController().signal;

async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelCallError, `expected ModelCallError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

/**
 * The script behind every case (run by `node`, which every machine running these tests has): it
 * reads the request from stdin and acts on the prompt.
 */
const BOT = `
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const request = JSON.parse(input);
  const prompt = request.prompt;
  if (prompt === 'fail') { process.stderr.write('Traceback: something\\nValueError: bad input\\n'); process.exit(3); }
  if (prompt === 'garbage') { process.stdout.write('not json at all'); return; }
  if (prompt === 'silent') return;
  if (prompt === 'hang') { require('node:fs').writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000); return; }
  if (prompt === 'calls') { process.stdout.write(JSON.stringify({ toolCalls: [{ name: 'lookup', arguments: '{"id":1}' }] })); return; }
  process.stdout.write(JSON.stringify({ text: 'script says: ' + prompt + ' / session ' + request.session + ' / sample ' + request.sample_id }));
});
`;

describe('exec target running node with a small script', () => {
  let dir: string;
  const target = (options: Partial<ExecTargetOptions> = {}): ReturnType<typeof createExecTarget> =>
    createExecTarget({ name: 'my-script', argv: [process.execPath, 'bot.cjs'], cwd: dir, env: { ...process.env, PID_FILE: join(dir, 'pid') }, timeoutMs: 10_000, ...options });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-exec-target-'));
    writeFileSync(join(dir, 'bot.cjs'), BOT);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sends the request on stdin and reads the answer from stdout', async () => {
    const p = target();
    assert.equal(p.id, 'my-script');
    const result = await p.generate(request('hello'), { signal: signal(), sampleId: 'row-7' });
    assert.match(result.text, /^script says: hello \/ session [0-9a-f]{12}-[0-9a-f]{16} \/ sample row-7$/);
    const calls = await p.generate(request('calls'), { signal: signal() });
    assert.deepEqual(calls.toolCalls.map((c) => [c.name, c.arguments]), [['lookup', { id: 1 }]]);
  });

  it('a non-zero exit is a target error with the end of stderr', async () => {
    const error = await callError(target().generate(request('fail'), { signal: signal() }));
    assert.equal(error.kind, 'target');
    assert.equal(error.message, `my-script: ${process.execPath} exited with code 3: Traceback: something / ValueError: bad input`);
  });

  it('stdout that is not the answer\'s JSON is a target error', async () => {
    const garbage = await callError(target().generate(request('garbage'), { signal: signal() }));
    assert.equal(garbage.message, `my-script: ${process.execPath} printed no JSON answer on stdout: not json at all`);
    const silent = await callError(target().generate(request('silent'), { signal: signal() }));
    assert.equal(silent.message, `my-script: ${process.execPath} printed no JSON answer on stdout: (nothing)`);
  });

  it('past its timeoutMs the command is killed and the call is a target error', async () => {
    rmSync(join(dir, 'pid'), { force: true });
    const error = await callError(target({ timeoutMs: 2000 }).generate(request('hang'), { signal: signal() }));
    assert.equal(error.kind, 'target');
    assert.equal(error.message, `my-script: ${process.execPath} gave no answer within 2000 ms (killed)`);
    // A machine so loaded that node took 2 s to start kills it before it wrote its pid: nothing to look at then.
    const pid = readPid(join(dir, 'pid'));
    if (pid !== undefined) await assertKilled(pid);
  });

  it('the run\'s stop kills the command and ends the call as aborted', async () => {
    const model = new Model({ provider: target(), settings: { concurrency: 1, timeoutMs: 10_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false } });
    rmSync(join(dir, 'pid'), { force: true });
    const controller = new AbortController();
    const pending = model.generate(request('hang'), { sampleId: 'stop', signal: controller.signal });
    // Aborted once the script is running (it writes its pid first).
    await waitFor(() => readPid(join(dir, 'pid')) !== undefined);
    controller.abort();
    const outcome = await pending;
    assert.equal(outcome.error?.kind, 'aborted');
    await assertKilled(readPid(join(dir, 'pid')) as number);
  });

  it('a command that is not found is refused when built, and is a target error if it disappears later', async () => {
    assert.throws(() => target({ argv: ['assay-no-such-command-xyz'] }), (e: unknown) => e instanceof InputError && e.message === 'my-script: exec: command not found: assay-no-such-command-xyz (looked in PATH)');
    assert.throws(() => target({ argv: ['./missing.sh'] }), /command not found: \.\/missing\.sh \(looked for an executable file at it/);
    assert.throws(() => target({ argv: [] }), /expected the command and its arguments/);
    writeFileSync(join(dir, 'gone.sh'), '#!/bin/sh\necho "{}"\n', { mode: 0o755 });
    const p = target({ argv: ['./gone.sh'] });
    rmSync(join(dir, 'gone.sh'));
    const error = await callError(p.generate(request('hi'), { signal: signal() }));
    assert.equal(error.message, 'my-script: command not found: ./gone.sh');
  });
});

const readPid = (file: string): number | undefined => {
  try {
    return Number(readFileSync(file, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
};

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(condition(), 'condition not met within 10 s');
}

/** The process is gone (killed with its group): signal 0 fails once it has been reaped, which may take a moment. */
async function assertKilled(pid: number): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitFor(() => !alive());
}
