/** The value fenced under `label` in a judge prompt (`<<<label nonce>>>\n…\n<<<end label nonce>>>`). */
export function fencedValue(prompt: string, label: string): string {
  const match = new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt);
  if (!match) throw new Error(`no ${label} in the prompt`);
  return match[2] as string;
}

