import { resolve } from 'node:path';
import { InputError } from '../../core/index.js';
import type { OutputType, RubricFile } from '../../datasets/functionchat/index.js';
import { loadRubric, rubricPlaceholders } from '../../judges/rubric.js';

const OUTPUT_TYPES: readonly OutputType[] = ['call', 'completion', 'slot', 'relevance'];

/** The placeholders each output type's values fill (see `judgeValues`): a user's rubric must use exactly these. */
const PLACEHOLDERS: Readonly<Record<OutputType, readonly string[]>> = {
  call: ['tools', 'query', 'ground_truth', 'acceptable_arguments', 'response'],
  completion: ['tools', 'query', 'ground_truth', 'response'],
  slot: ['tools', 'query', 'ground_truth', 'response'],
  relevance: ['tools', 'query', 'ground_truth', 'response'],
};

/**
 * Replaces shipped rubrics with a user's own files (`--rubric call=my-call.txt`), checked before
 * any model is called: the output type must exist and the file must use exactly the placeholders
 * that type fills, so a typo cannot turn every judged item into an error mid-run. Each file's
 * sha256 joins the run's data checksums (a changed rubric refuses a resume).
 */
export async function withCustomRubrics(
  shipped: Readonly<Record<OutputType, RubricFile>>,
  custom: Readonly<Record<string, string>> | undefined,
): Promise<{ rubrics: Readonly<Record<OutputType, RubricFile>>; checksums: Record<string, string> }> {
  if (!custom || Object.keys(custom).length === 0) return { rubrics: shipped, checksums: {} };
  const rubrics: Record<OutputType, RubricFile> = { ...shipped };
  const checksums: Record<string, string> = {};
  for (const [type, path] of Object.entries(custom)) {
    if (!(OUTPUT_TYPES as readonly string[]).includes(type)) {
      throw new InputError(`--rubric ${type}=…: unknown output type "${type}"; FunctionChat's are ${OUTPUT_TYPES.join(', ')}`);
    }
    const file = resolve(path);
    const rubric = await loadRubric(`custom/${type}`, file);
    const expected = PLACEHOLDERS[type as OutputType];
    const found = rubricPlaceholders(rubric.template);
    const missing = expected.filter((p) => !found.includes(p));
    const unknown = found.filter((p) => !expected.includes(p));
    if (missing.length > 0 || unknown.length > 0) {
      const parts = [missing.length > 0 ? `missing {${missing.join('}, {')}}` : '', unknown.length > 0 ? `unknown {${unknown.join('}, {')}}` : ''].filter(Boolean);
      throw new InputError(`rubric ${file} for ${type} items: ${parts.join('; ')} (a ${type} rubric uses {${expected.join('}, {')}})`, { file });
    }
    rubrics[type as OutputType] = rubric;
    checksums[file] = rubric.sha256;
  }
  return { rubrics, checksums };
}
