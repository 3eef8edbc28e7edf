import { createHash } from 'node:crypto';

/** Tool names in a MetaTool selection prompt, in the order shown. */
export function shownTools(prompt: string): string[] {
  return [...prompt.matchAll(/^\d+\. tool name: (.*?), tool description: /gm)].map((m) => m[1] as string);
}

/**
 * A deterministic stand-in for a model answering MetaTool prompts: from a hash of the prompt it
 * names one shown tool or answers "None" (selection), or says yes/no (awareness). Tests and the
 * benchmark use it as the fake server's brain, so the expected score of every sample can be
 * computed independently of assay's pipeline.
 */
export function answerMetaToolPrompt(prompt: string): string {
  const h = createHash('sha1').update(prompt).digest().readUInt32LE(0);
  const tools = shownTools(prompt);
  if (tools.length === 0) return h % 2 === 0 ? 'Yes, a tool is needed.' : 'No, I can answer this myself.';
  const pick = h % (tools.length + 1);
  return pick === tools.length ? 'None of these tools fit, so: None.' : `I would use ${tools[pick]} for this query.`;
}
