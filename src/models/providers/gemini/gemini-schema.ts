import { isJsonObject as isObject, type JsonSchema } from '../../../core/index.js';

/**
 * The schema keywords Gemini accepts in `functionDeclarations[].parameters` and `responseSchema`
 * (a subset of OpenAPI 3.0's Schema object). Anything else makes the API answer 400 ("Unknown
 * name …" / "Invalid JSON payload"), so it is dropped and named in a warning instead.
 * Dropped in practice: `additionalProperties`, `$schema`, `$ref`, `$defs`/`definitions`,
 * `$id`, `$comment`, `title`, `default`, `examples`, `allOf`, `not`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `multipleOf`, `uniqueItems`, `patternProperties`, `minProperties`,
 * `maxProperties`, `if`/`then`/`else`.
 */
const KEPT = new Set(['type', 'format', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering']);

/** String formats Gemini knows; numeric formats pass (`float`, `double`, `int32`, `int64`). */
const FORMATS = new Set(['enum', 'date-time', 'float', 'double', 'int32', 'int64']);

function convert(schema: unknown, dropped: Set<string>): Record<string, unknown> {
  if (!isObject(schema)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'type':
        if (Array.isArray(value)) {
          // ["string","null"] → type string + nullable; several real types → anyOf.
          const types = value.filter((t): t is string => typeof t === 'string' && t !== 'null');
          if (types.length !== value.length) out.nullable = true;
          if (types.length === 1) out.type = types[0];
          else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
        } else if (value === 'null') {
          out.nullable = true;
        } else {
          out.type = value;
        }
        break;
      case 'const':
        // Gemini has no const; a one-value enum says the same (enums are for strings only).
        if (typeof value === 'string') out.enum = [value];
        else dropped.add('const');
        break;
      case 'enum':
        if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out.enum = value;
        else dropped.add('enum (non-string values)');
        break;
      case 'format':
        if (typeof value === 'string' && FORMATS.has(value)) out.format = value;
        else dropped.add(`format "${String(value)}"`);
        break;
      case 'properties':
        if (isObject(value)) {
          const properties: Record<string, unknown> = {};
          for (const [name, sub] of Object.entries(value)) properties[name] = convert(sub, dropped);
          out.properties = properties;
        }
        break;
      case 'items':
        if (isObject(value)) out.items = convert(value, dropped);
        else dropped.add('items (tuple form)');
        break;
      case 'anyOf':
      case 'oneOf':
        // Gemini has no exclusive choice: oneOf is sent as anyOf (the closest it has).
        if (Array.isArray(value)) out.anyOf = value.map((sub) => convert(sub, dropped));
        if (key === 'oneOf') dropped.add('oneOf (sent as anyOf)');
        break;
      default:
        if (KEPT.has(key)) out[key] = value;
        else dropped.add(key);
    }
  }
  return out;
}

export interface GeminiSchema {
  readonly schema: Record<string, unknown>;
  /** Keywords removed or rewritten, for a warning (sorted, each once). */
  readonly dropped: readonly string[];
}

/** JSON Schema → the OpenAPI subset Gemini accepts. Pure; the input is not modified. */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  const dropped = new Set<string>();
  const converted = convert(schema, dropped);
  return { schema: converted, dropped: [...dropped].sort() };
}

/** True for an object schema without properties: Gemini wants `parameters` left out then. */
export function isEmptyObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' && (!isObject(schema.properties) || Object.keys(schema.properties).length === 0);
}
