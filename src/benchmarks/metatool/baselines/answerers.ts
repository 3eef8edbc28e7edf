import type { ReferenceAnswerers } from '../../../core/index.js';
import { lexicalSelect, lexicalYesNo } from './lexical.js';
import { asSelect, asYesNo } from './questions.js';
import { randomSelect, randomYesNo } from './random.js';

/**
 * How the `baseline:` models answer MetaTool's questions (`Task.baselines`): `random` uniformly
 * among the allowed answers, `lexical` by cue words (yes/no) and BM25 (selection). The provider
 * hands each its question and the question's seeded generator; see `lexical.ts` and `random.ts`.
 */
export const METATOOL_ANSWERERS: ReferenceAnswerers = {
  'yes-no': {
    random: ({ rng }) => ({ text: randomYesNo(rng()), detail: {} }),
    lexical: ({ hints }) => lexicalYesNo(asYesNo(hints).query),
  },
  select: {
    random: ({ hints, rng }) => {
      const chosen = randomSelect(asSelect(hints), rng());
      return { text: chosen.length === 0 ? 'None' : chosen.join(', '), detail: {} };
    },
    lexical: ({ hints }) => lexicalSelect(asSelect(hints)),
  },
};
