/**
 * The candidate a misspelt name most likely meant, or undefined when none is close. Names are
 * compared with case, `_` and `-` ignored first (`api_key_env` means `apiKeyEnv`), then by edit
 * distance: at most two edits, or a third of the name's length for long names, so a short key is
 * not "corrected" into an unrelated one.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = normalized(name);
  const same = candidates.find((candidate) => normalized(candidate) === wanted);
  if (same !== undefined) return same;
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalized(candidate));
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

function normalized(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance: insertions, deletions and substitutions, one row of the table at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] as number;
}
