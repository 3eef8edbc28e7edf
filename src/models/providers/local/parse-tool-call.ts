import { isJsonObject as isObject, type ToolCall, type ToolSpec } from '../../../core/index.js';
import { validateJson } from './validate-json.js';

/**
 * The raw text of the value of `key` in the top-level JSON object `text` (as the model wrote it,
 * so that `8e602761384133` stays as written instead of becoming Infinity), or undefined.
 */
export function rawMemberText(text: string, key: string): string | undefined {
  let i = text.indexOf('{');
  if (i === -1) return undefined;
  i++;
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const readString = (): string | undefined => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  /** Moves past one JSON value, counting brackets outside strings. */
  const skipValue = (): void => {
    let depth = 0;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        readString();
        if (depth === 0) return;
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) return;
        depth--;
        if (depth === 0) {
          i++;
          return;
        }
      } else if (c === ',' && depth === 0) return;
      i++;
    }
  };
  for (;;) {
    skipSpace();
    if (text[i] !== '"') return undefined;
    const name = readString();
    skipSpace();
    if (text[i] !== ':') return undefined;
    i++;
    skipSpace();
    const start = i;
    skipValue();
    if (name === key) return text.slice(start, i).trim();
    skipSpace();
    if (text[i] !== ',') return undefined;
    i++;
  }
}

/**
 * Reads a grammar-mode answer `{"name": …, "arguments": {…}}` into a canonical `ToolCall`. Never
 * throws: text that is not such an object, an unknown tool name, or arguments that break the
 * tool's JSON Schema (the grammar's exponent-form integers included) give a call with
 * `parseError` and `arguments: undefined`, keeping what the model wrote in `rawArguments`.
 */
export function toolCallFromGrammarText(text: string, tools: readonly ToolSpec[], id: string): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { id, name: '', arguments: undefined, rawArguments: text, parseError: `tool call is not JSON: ${(error as Error).message}` };
  }
  if (!isObject(parsed) || typeof parsed['name'] !== 'string') {
    return { id, name: '', arguments: undefined, rawArguments: text, parseError: 'tool call is not an object with a string "name"' };
  }
  const name = parsed['name'];
  const rawArguments = rawMemberText(text, 'arguments') ?? JSON.stringify(parsed['arguments'] ?? null);
  return checkedToolCall(id, name, parsed['arguments'], rawArguments, tools);
}

/** A call whose arguments are already parsed (native function calling), checked the same way. */
export function checkedToolCall(id: string, name: string, args: unknown, rawArguments: string, tools: readonly ToolSpec[]): ToolCall {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return { id, name, arguments: undefined, rawArguments, parseError: `"${name}" is not one of the offered tools` };
  const problems = validateJson(args, { type: 'object', ...tool.parameters });
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
    return { id, name, arguments: undefined, rawArguments, parseError: `arguments do not match the schema of ${name}: ${shown}` };
  }
  return { id, name, arguments: args, rawArguments };
}
