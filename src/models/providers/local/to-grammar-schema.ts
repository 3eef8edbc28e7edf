import { isJsonObject as isObject, type JsonSchema } from '../../../core/index.js';

/**
 * The JSON-schema subset node-llama-cpp turns into a grammar (its `GbnfJsonSchema`), written as
 * plain data so this file needs nothing from the library.
 */
export type GrammarSchema = Readonly<Record<string, unknown>>;

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);

/** Any JSON value. */
export const ANY_VALUE: GrammarSchema = {
  oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'object', additionalProperties: true }, { type: 'array' }],
};

/**
 * Narrows a tool's (or a judge's) JSON Schema to what the grammar understands, so that any schema a
 * user writes produces a grammar instead of an exception: keywords the grammar lacks (`minimum`,
 * `pattern`, `$ref`…) are dropped — the output is validated against the full schema afterwards —
 * and a part without a usable type becomes "any JSON value". Object properties are closed
 * (`additionalProperties: false` unless the schema gives one) because a generator that may add
 * keys at will tends to add them.
 */
export function toGrammarSchema(schema: unknown, depth = 0): GrammarSchema {
  if (!isObject(schema) || depth > 32) return ANY_VALUE;
  const description = typeof schema['description'] === 'string' ? { description: schema['description'] } : {};
  if ('const' in schema && isScalar(schema['const'])) return { const: schema['const'], ...description };
  if (Array.isArray(schema['enum'])) {
    const values = schema['enum'].filter(isScalar);
    if (values.length > 0) return { enum: values, ...description };
  }
  const alternatives = Array.isArray(schema['oneOf']) ? schema['oneOf'] : Array.isArray(schema['anyOf']) ? schema['anyOf'] : undefined;
  if (alternatives && alternatives.length > 0) return { oneOf: alternatives.map((s) => toGrammarSchema(s, depth + 1)), ...description };

  const type = schema['type'];
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === 'string');
    if (types.length > 0 && types.every((t) => SCALAR_TYPES.has(t))) return { type: types, ...description };
    return { oneOf: types.map((t) => toGrammarSchema({ ...schema, type: t }, depth + 1)), ...description };
  }
  switch (type) {
    case 'string': {
      const format = typeof schema['format'] === 'string' && FORMATS.has(schema['format']) ? { format: schema['format'] } : {};
      if ('format' in format) return { type, ...format, ...description };
      return { type, ...nonNegative(schema, 'minLength'), ...nonNegative(schema, 'maxLength'), ...description };
    }
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type, ...description };
    case 'array':
      return {
        type,
        ...(schema['items'] !== undefined && !Array.isArray(schema['items']) ? { items: toGrammarSchema(schema['items'], depth + 1) } : {}),
        ...(Array.isArray(schema['prefixItems']) ? { prefixItems: schema['prefixItems'].map((s) => toGrammarSchema(s, depth + 1)) } : {}),
        ...nonNegative(schema, 'minItems'),
        ...nonNegative(schema, 'maxItems'),
        ...description,
      };
    case 'object':
      return objectSchema(schema, depth, description);
    default:
      // `properties` without `type` still means an object in practice (common in tool specs).
      return isObject(schema['properties']) ? objectSchema(schema, depth, description) : ANY_VALUE;
  }
}

function objectSchema(schema: Record<string, unknown>, depth: number, description: object): GrammarSchema {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const names = Object.keys(properties);
  const converted: Record<string, GrammarSchema> = {};
  for (const name of names) converted[name] = toGrammarSchema(properties[name], depth + 1);
  const required = Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string' && names.includes(r)) : [];
  const extra = schema['additionalProperties'];
  const additionalProperties = isObject(extra) ? toGrammarSchema(extra, depth + 1) : extra === true || names.length === 0;
  return { type: 'object', properties: converted, required, additionalProperties, ...description };
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function nonNegative(schema: Record<string, unknown>, key: string): Record<string, number> {
  const value = schema[key];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { [key]: value } : {};
}

/** The JSON Schema of a grammar-mode tool call: one alternative per tool, its arguments per its schema. */
export function toolCallGrammarSchema(tools: readonly { readonly name: string; readonly parameters: JsonSchema }[]): GrammarSchema {
  const alternatives = tools.map((tool) => ({
    type: 'object',
    properties: { name: { const: tool.name }, arguments: toGrammarSchema({ type: 'object', ...tool.parameters }) },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
  return alternatives.length === 1 ? (alternatives[0] as GrammarSchema) : { oneOf: alternatives };
}
