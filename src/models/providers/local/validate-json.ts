/**
 * Checks a parsed JSON value against a JSON Schema, for the keywords tool and judge schemas use:
 * `type` (one or several; `integer` = a safe integer, every number finite), `enum`, `const`,
 * `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`/`maxItems`,
 * `minLength`/`maxLength`, `pattern`, `minimum`/`maximum` (and exclusive), `anyOf`/`oneOf`/`allOf`.
 * Unknown keywords (`format`, `$ref`…) are not checked. Returns the problems, empty when valid.
 *
 * Why not the grammar's own check: the grammar is built from a narrowed schema (see
 * `toGrammarSchema`), and its integer rule admits `8e602761384133`, which JSON.parse turns into
 * Infinity — a value no tool can take. This is the check that turns such output into a recorded
 * `parseError` instead of an argument.
 */
export function validateJson(value: unknown, schema: unknown, at = '$', depth = 0): string[] {
  if (typeof value === 'number' && !Number.isFinite(value)) return [`${at}: ${String(value)} is not a finite number`];
  // Parts of a value that no schema describes are still JSON: a non-finite number anywhere is invalid.
  if (depth === 0 && !finiteAnywhere(value)) return [`${at}: contains a number that is not finite (e.g. an exponent too large for a double)`];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > 64) return [];
  const s = schema as Record<string, unknown>;
  const problems: string[] = [];

  const type = s['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  if (types.length > 0 && !types.some((t) => hasType(value, t))) return [`${at}: expected ${types.join(' or ')}, got ${describe(value)}`];
  if (Array.isArray(s['enum']) && !s['enum'].some((option) => sameJson(option, value))) problems.push(`${at}: ${short(value)} is not one of ${short(s['enum'])}`);
  if ('const' in s && !sameJson(s['const'], value)) problems.push(`${at}: expected ${short(s['const'])}, got ${short(value)}`);

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s['minLength'] === 'number' && length < s['minLength']) problems.push(`${at}: shorter than ${s['minLength']} characters`);
    if (typeof s['maxLength'] === 'number' && length > s['maxLength']) problems.push(`${at}: longer than ${s['maxLength']} characters`);
    if (typeof s['pattern'] === 'string') {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(s['pattern'], 'u');
      } catch {
        pattern = undefined; // a pattern JavaScript cannot read is not the value's fault
      }
      if (pattern && !pattern.test(value)) problems.push(`${at}: does not match /${s['pattern']}/`);
    }
  }
  if (typeof value === 'number') {
    if (typeof s['minimum'] === 'number' && value < s['minimum']) problems.push(`${at}: less than ${s['minimum']}`);
    if (typeof s['maximum'] === 'number' && value > s['maximum']) problems.push(`${at}: greater than ${s['maximum']}`);
    if (typeof s['exclusiveMinimum'] === 'number' && value <= s['exclusiveMinimum']) problems.push(`${at}: not greater than ${s['exclusiveMinimum']}`);
    if (typeof s['exclusiveMaximum'] === 'number' && value >= s['exclusiveMaximum']) problems.push(`${at}: not less than ${s['exclusiveMaximum']}`);
  }
  if (Array.isArray(value)) {
    if (typeof s['minItems'] === 'number' && value.length < s['minItems']) problems.push(`${at}: fewer than ${s['minItems']} items`);
    if (typeof s['maxItems'] === 'number' && value.length > s['maxItems']) problems.push(`${at}: more than ${s['maxItems']} items`);
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : [];
    value.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : s['items'];
      problems.push(...validateJson(item, itemSchema, `${at}[${i}]`, depth + 1));
    });
  }
  if (isPlainObject(value)) {
    const properties = isPlainObject(s['properties']) ? s['properties'] : {};
    if (Array.isArray(s['required'])) {
      for (const key of s['required']) if (typeof key === 'string' && !(key in value)) problems.push(`${at}: missing required property "${key}"`);
    }
    for (const [key, item] of Object.entries(value)) {
      if (key in properties) problems.push(...validateJson(item, properties[key], `${at}.${key}`, depth + 1));
      else if (s['additionalProperties'] === false) problems.push(`${at}: unexpected property "${key}"`);
      else if (isPlainObject(s['additionalProperties'])) problems.push(...validateJson(item, s['additionalProperties'], `${at}.${key}`, depth + 1));
    }
  }

  if (Array.isArray(s['allOf'])) for (const part of s['allOf']) problems.push(...validateJson(value, part, at, depth + 1));
  if (Array.isArray(s['anyOf']) && !s['anyOf'].some((part) => validateJson(value, part, at, depth + 1).length === 0)) problems.push(`${at}: matches none of anyOf`);
  if (Array.isArray(s['oneOf'])) {
    const matching = s['oneOf'].filter((part) => validateJson(value, part, at, depth + 1).length === 0).length;
    if (matching !== 1) problems.push(`${at}: matches ${matching} of oneOf, expected exactly 1`);
  }
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}

/** False when some number inside is Infinity or NaN. */
function finiteAnywhere(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finiteAnywhere);
  if (isPlainObject(value)) return Object.values(value).every(finiteAnywhere);
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? `integer ${value}` : `number ${value}`;
  return typeof value;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
