import { InputError } from '../../core/index.js';

/** The FunctionChat-Bench data versions assay knows, newest first (see shared/datasets/PROVENANCE.md). */
export const FUNCTIONCHAT_VERSIONS = ['v2.0.0', 'paper-2024-09'] as const;
export type FunctionChatVersion = (typeof FUNCTIONCHAT_VERSIONS)[number];

/** Used when a run names no `--bench-version`: the current release. */
export const DEFAULT_FUNCTIONCHAT_VERSION: FunctionChatVersion = 'v2.0.0';

export type FunctionChatSet = 'singlecall' | 'dialog' | 'calldecision';

/** The four graded output types; each has its rubric file `rubric_<type>.txt`. */
export const OUTPUT_TYPES = ['call', 'completion', 'slot', 'relevance'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

const SET_FILES: Record<FunctionChatSet, string> = {
  singlecall: 'FunctionChat-Singlecall.jsonl',
  dialog: 'FunctionChat-Dialog.jsonl',
  calldecision: 'FunctionChat-CallDecision.jsonl',
};

/** Data-dir-relative key of a file of one version, e.g. `functionchat/v2.0.0/rubric_call.txt`. */
export const functionchatKey = (version: FunctionChatVersion, file: string): string => `functionchat/${version}/${file}`;

export const setFileKey = (version: FunctionChatVersion, set: FunctionChatSet): string => functionchatKey(version, SET_FILES[set]);
export const rubricKey = (version: FunctionChatVersion, type: OutputType): string => functionchatKey(version, `rubric_${type}.txt`);
export const systemPromptKey = (version: FunctionChatVersion): string => functionchatKey(version, 'system_prompt.txt');

/**
 * Checks a `--bench-version` value (undefined → the default) against the versions assay knows
 * and the set asked for.
 * @throws InputError listing the known versions, or saying that the version lacks the set.
 */
export function resolveVersion(taskName: string, version: string | undefined, set: FunctionChatSet): FunctionChatVersion {
  const chosen = version ?? DEFAULT_FUNCTIONCHAT_VERSION;
  if (!(FUNCTIONCHAT_VERSIONS as readonly string[]).includes(chosen)) {
    throw new InputError(`${taskName}: unknown --bench-version "${chosen}"; known versions: ${FUNCTIONCHAT_VERSIONS.join(', ')}`);
  }
  const known = chosen as FunctionChatVersion;
  if (set === 'calldecision' && known === 'paper-2024-09') {
    throw new InputError(`${taskName}: paper-2024-09 has no CallDecision file; use --bench-version v2.0.0`);
  }
  return known;
}
