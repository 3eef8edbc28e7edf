import { resolve } from 'node:path';
import { InputError } from '../core/index.js';
import type { Rubric } from './judge-request.js';
import { loadRubric, rubricPlaceholders } from './rubric.js';
import { loadShippedRubric } from './shipped-rubrics.js';

/** One rubric a task's judge uses: its `--rubric` key, the shipped file it defaults to, the placeholders its values fill. */
export interface TaskRubricSpec {
  readonly key: string;
  /** Id of the shipped rubric (`summaries/claims`: `rubrics/summaries/claims.txt`). */
  readonly shipped: string;
  readonly placeholders: readonly string[];
}

/**
 * A task's rubrics by key: each the shipped file, or the user's own where `--rubric key=FILE`
 * names one (made absolute, so a resume from another folder reads the same file). Checked before
 * any model is called: an unknown key, or a file that does not use exactly the placeholders its
 * values fill, is refused naming the file. `checksums` (`rubric:<key>` → sha256) join the run's
 * data checksums, so a changed rubric refuses a resume.
 */
export async function loadTaskRubrics(
  taskName: string,
  specs: readonly TaskRubricSpec[],
  overrides: Readonly<Record<string, string>> = {},
): Promise<{ readonly rubrics: Readonly<Record<string, Rubric>>; readonly checksums: Readonly<Record<string, string>> }> {
  const unknown = Object.keys(overrides).filter((key) => !specs.some((s) => s.key === key));
  if (unknown.length > 0) throw new InputError(`${taskName}: no rubric ${unknown.join(', ')}; its rubrics are ${specs.map((s) => s.key).join(', ')}`);
  const rubrics: Record<string, Rubric> = {};
  const checksums: Record<string, string> = {};
  for (const spec of specs) {
    const file = overrides[spec.key];
    const rubric = file === undefined ? await loadShippedRubric(spec.shipped) : await loadRubric(`${taskName}/${spec.key}`, resolve(file));
    const found = rubricPlaceholders(rubric.template);
    const missing = spec.placeholders.filter((p) => !found.includes(p));
    const extra = found.filter((p) => !spec.placeholders.includes(p));
    if (missing.length > 0 || extra.length > 0) {
      const problems = [missing.length > 0 ? `missing {${missing.join('}, {')}}` : '', extra.length > 0 ? `unknown {${extra.join('}, {')}}` : ''].filter(Boolean);
      throw new InputError(`rubric ${spec.key} (${rubric.source}): ${problems.join('; ')} (it must use exactly {${spec.placeholders.join('}, {')}})`, { file: rubric.source });
    }
    rubrics[spec.key] = rubric;
    checksums[`rubric:${spec.key}`] = rubric.sha256;
  }
  return { rubrics, checksums };
}
