import type { z } from 'zod';
import { withFields, type RoleGenerate } from '../core/index.js';
import { askJudgeForJson, type AskJsonOptions } from './ask-json.js';

/** What `repeats` askings of one structured judgment gave. */
export type RepeatedAnswers<T> =
  | { readonly kind: 'usable'; readonly values: readonly T[]; readonly unreadable: number }
  | { readonly kind: 'no-verdict'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: { readonly kind: string; readonly message: string } };

/**
 * Asks the judge the same structured question `repeats` times (a level combined from its repeats
 * by `aggregateSeverity`: groundedness, harm severity). Repeat r's k-th re-ask uses seed `seed + r + R·k`, so
 * each is its own cache entry; the steps are `step` (one repeat) or `step/repeat-r`. A repeat
 * unreadable after its re-asks is left out; with more than half of the repeats usable their
 * values stand (in repeat order), otherwise it is no verdict. A judge call that fails after the
 * middleware's retries makes it an error.
 */
export async function askJudgeRepeats<S extends z.ZodType>(
  generate: RoleGenerate,
  settings: { readonly repeats: number; readonly maxParseRetries: number; readonly seed: number },
  options: Omit<AskJsonOptions<S>, 'seeds'>,
  what: string,
): Promise<RepeatedAnswers<z.infer<S>>> {
  const R = settings.repeats;
  const repeats = await Promise.all(
    Array.from({ length: R }, (_, r) =>
      askJudgeForJson(
        generate,
        withFields(options, {
          step: R > 1 ? `${options.step}/repeat-${r + 1}` : options.step,
          seeds: Array.from({ length: settings.maxParseRetries + 1 }, (_, k) => settings.seed + r + R * k),
        }),
      ),
    ),
  );
  const error = repeats.find((a) => a.kind === 'error');
  if (error?.kind === 'error') return { kind: 'error', error: error.error };
  const usable = repeats.flatMap((a) => (a.kind === 'answer' ? [a.value as z.infer<S>] : []));
  if (usable.length * 2 <= R) {
    const reason = repeats.find((a) => a.kind === 'no-verdict');
    return { kind: 'no-verdict', reason: `${usable.length} of ${R} ${what}(s) usable${reason?.kind === 'no-verdict' ? ` (${reason.reason})` : ''}` };
  }
  return { kind: 'usable', values: usable, unreadable: R - usable.length };
}
