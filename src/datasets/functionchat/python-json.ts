import { pythonFloatRepr } from '../fetch/python-json.js';

/**
 * `json.dumps(value, ensure_ascii=False)` as Python writes it: `", "` between items, `": "` after
 * keys, non-ASCII characters as themselves. FunctionChat-Bench shows its judge the tools, the
 * conversation, the ground truth and the response in this form, so assay writes them the same way.
 *
 * Strings are escaped as `JSON.stringify` escapes them, which is what Python does for everything
 * but lone surrogates (Python would write them raw; no FunctionChat file has any). Numbers: JSON
 * parsing cannot tell `170` from `170.0`, so integral numbers are written without `.0`; the
 * FunctionChat files hold no numbers outside argument strings, where the text is kept as written.
 */
export function pythonJsonDumps(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} as JSON`);
      return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pythonFloatRepr(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError('pythonJsonDumps cannot serialize a BigInt');
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(', ')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const text = write(member);
    if (text !== undefined) members.push(`${JSON.stringify(key)}: ${text}`);
  }
  return `{${members.join(', ')}}`;
}
