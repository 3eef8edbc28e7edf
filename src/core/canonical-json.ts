import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always serialize (and hash) equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');
