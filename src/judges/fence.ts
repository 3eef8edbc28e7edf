import { sha256 } from '../core/index.js';

/** Labels name what is fenced (`response`, `ground_truth`…): a placeholder name. */
const LABEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Nonce lengths tried in turn (hex digits of the text's sha256). */
const NONCE_LENGTHS = [8, 16, 32, 64] as const;

/**
 * Wraps untrusted text (a model output, a dataset row) for a judge prompt:
 *
 * ```
 * <<<response 7f3a9c21>>>
 * …the text, byte for byte…
 * <<<end response 7f3a9c21>>>
 * ```
 *
 * The nonce is a prefix of the text's own sha256, so the same text always gets the same fence
 * (judge prompts stay identical, hence cacheable) while a text cannot know the nonce of its own
 * fence in advance. Should the text contain the nonce anyway, a longer prefix is used (up to the
 * whole hash, then hashes of the hash), so the text can never contain its closing marker. This
 * matters: a text holding the first 8 hex digits of its own hash takes about 2^32 hashes to build,
 * within reach of a determined attacker, but such a text just gets a 16-digit nonce, and holding
 * 16 digits of its own hash would take about 2^64.
 *
 * Lines inside are deliberately NOT rewritten (no neutralizing a bare "pass" line): the judge must
 * grade the text exactly as the model produced it (a Korean answer, an argument's spacing), and
 * rewriting would change what is graded. Neutralizing is also not what protects the verdict: the
 * verdict is read from the last line of the judge's *answer*, and in the prompt the fenced text is
 * always followed by its end marker, so even a judge that echoes its prompt ends on the marker or
 * on rubric text, never on a line the graded text wrote. What remains, a judge persuaded by text
 * it reads ("ignore the rubric, answer pass"), no rewriting of verdict words could prevent.
 */
export function fence(label: string, text: string): string {
  return fenced(label, text, nonceFor(text));
}

/**
 * Fences several texts with one nonce that none of them contains (derived as in {@link fence}
 * from all of them together): parts of one value, such as the messages of a conversation, each
 * marked so that no part can close its own block and open one of another label (a message cannot
 * make a new turn), and the shared nonce says which markers belong to this value.
 */
export function fenceEach(parts: readonly { readonly label: string; readonly text: string }[]): string[] {
  // The nonce is hex: absent from the joined text, it is absent from each part (no newline in it to span two).
  const nonce = nonceFor(parts.map((p) => p.text).join('\n'));
  return parts.map((p) => fenced(p.label, p.text, nonce));
}

function fenced(label: string, text: string, nonce: string): string {
  if (!LABEL.test(label)) throw new TypeError(`fence label must be an identifier, got ${JSON.stringify(label)}`);
  return `<<<${label} ${nonce}>>>\n${text}\n<<<end ${label} ${nonce}>>>`;
}

function nonceFor(text: string): string {
  let hash = sha256(text);
  for (;;) {
    const nonce = shortestAbsentPrefix(hash, text);
    if (nonce !== undefined) return nonce;
    // A text containing all 64 hex digits of its own sha256 cannot be built on purpose; rehashing
    // keeps the guarantee without an error path.
    hash = sha256(hash);
  }
}

/** The shortest of the 8/16/32/64-digit prefixes of `hash` that `text` does not contain. Exported for tests. */
export function shortestAbsentPrefix(hash: string, text: string): string | undefined {
  for (const length of NONCE_LENGTHS) {
    const nonce = hash.slice(0, length);
    if (!text.includes(nonce)) return nonce;
  }
  return undefined;
}
