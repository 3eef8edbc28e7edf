import { createRequire } from 'node:module';
import type { ReferenceAnswerers } from '../../../core/index.js';
import { asSelect, asYesNo } from './questions.js';
import { randomSelect, randomYesNo } from './random.js';

/**
 * The lexical answerers' module, loaded when one first answers (synchronously: `require` of an ES
 * module, as the task registry loads tasks): it brings BM25, the stemmer and the cue words, which
 * a run on a real model never uses, and every MetaTool task's record names these answerers.
 */
const lexical = (): typeof import('./lexical.js') => (lexicalModule ??= createRequire(import.meta.url)('./lexical.js') as typeof import('./lexical.js'));
let lexicalModule: typeof import('./lexical.js') | undefined;

/**
 * How the `baseline:` models answer MetaTool's questions (`Task.baselines`): `random` uniformly
 * among the allowed answers, `lexical` by cue words (yes/no) and BM25 (selection). The provider
 * hands each its question and the question's seeded generator; see `lexical.ts` and `random.ts`.
 */
export const METATOOL_ANSWERERS: ReferenceAnswerers = {
  'yes-no': {
    random: ({ rng }) => ({ text: randomYesNo(rng()), detail: {} }),
    lexical: ({ hints }) => lexical().lexicalYesNo(asYesNo(hints).query),
  },
  select: {
    random: ({ hints, rng }) => {
      const chosen = randomSelect(asSelect(hints), rng());
      return { text: chosen.length === 0 ? 'None' : chosen.join(', '), detail: {} };
    },
    lexical: ({ hints }) => lexical().lexicalSelect(asSelect(hints)),
  },
};
