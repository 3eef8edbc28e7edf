import { hash } from 'node:crypto';

/**
 * Seeded randomness. Every random choice in assay goes through an `Rng` derived from the run's
 * seed and a label naming the choice (e.g. `shuffle:<sample id>`), so one choice never shifts
 * another and a resumed run makes exactly the same choices.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

/** sfc32: small, fast, well-distributed; seeded from SHA-256 of (seed, label). */
export function rngFor(seed: number | string, label: string): Rng {
  // One-shot `crypto.hash`: several of these run per sample while a task prepares its samples.
  const digest = hash('sha256', `${seed}\u0000${label}`, 'buffer');
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next, int: (n) => Math.floor(next() * n) };
}

/** Fisher–Yates on a copy; the input is never mutated. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** `k` distinct items in random order (all of them, shuffled, when k ≥ length). */
export function sampleWithoutReplacement<T>(items: readonly T[], k: number, rng: Rng): T[] {
  return shuffled(items, rng).slice(0, Math.max(0, k));
}
