import { InputError } from '../core/index.js';
import { fence } from './fence.js';
import type { JudgeRequest } from './judge-request.js';
import { PLACEHOLDER, rubricPlaceholders } from './rubric.js';

/**
 * The judge prompt: the rubric with every `{name}` placeholder replaced by its value, fenced
 * (see {@link fence}). One pass over the template: a value that itself contains `{response}` or
 * any other placeholder is inserted as is, never substituted again, so a model output cannot pull
 * another value (say the ground truth) into its own fence or outside it.
 * @throws InputError naming the rubric's source when a placeholder has no value or a value has no
 *   placeholder (a rubric and a task that disagree, e.g. a user's rubric missing `{response}`).
 */
export function fillRubric(request: JudgeRequest): string {
  const { rubric, values } = request;
  const placeholders = rubricPlaceholders(rubric.template);
  const given = Object.keys(values);
  const missing = placeholders.filter((name) => !Object.hasOwn(values, name));
  if (missing.length > 0) {
    throw new InputError(
      `rubric ${rubric.id} (${rubric.source}): no value for ${missing.map((n) => `{${n}}`).join(', ')} (values given: ${given.join(', ') || 'none'})`,
      { file: rubric.source },
    );
  }
  const unused = given.filter((name) => !placeholders.includes(name));
  if (unused.length > 0) {
    throw new InputError(
      `rubric ${rubric.id} (${rubric.source}): no placeholder for ${unused.map((n) => `{${n}}`).join(', ')} (the rubric has: ${placeholders.map((n) => `{${n}}`).join(', ') || 'none'})`,
      { file: rubric.source },
    );
  }
  // Each value is fenced once even when its placeholder appears several times: same fence text.
  const fenced = new Map(placeholders.map((name) => [name, fence(name, values[name] as string)]));
  return rubric.template.replace(PLACEHOLDER, (_match, name: string) => fenced.get(name) as string);
}
