// A git ref of this repository built in a temporary worktree, for `npm run bench:compare`: the
// ref's own sources and build script, this checkout's node_modules (so the two differ only in
// assay's code).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RefTree {
  readonly path: string;
  /** The ref's commit, abbreviated. */
  readonly commit: string;
  remove(): void;
}

/** Checks `ref` out into a temporary worktree of `repo` and builds it; throws a one-line error when it cannot. */
export function buildRefTree(repo: string, ref: string): RefTree {
  const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--short', `${ref}^{commit}`);
  } catch {
    throw new Error(`bench:compare: ${ref} is not a commit of ${repo}`);
  }
  const path = join(mkdtempSync(join(tmpdir(), 'assay-bench-ref-')), commit);
  git('worktree', 'add', '--detach', path, commit);
  const remove = (): void => {
    try {
      git('worktree', 'remove', '--force', path);
    } catch {
      rmSync(path, { recursive: true, force: true });
      git('worktree', 'prune');
    }
  };
  try {
    if (!existsSync(join(path, 'node_modules'))) symlinkSync(join(repo, 'node_modules'), join(path, 'node_modules'), 'dir');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: path, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    remove();
    throw new Error(`bench:compare: building ${ref} (${commit}) failed: ${(error as Error).message.split('\n')[0]}`);
  }
  return { path, commit, remove };
}
