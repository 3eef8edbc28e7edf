/** A JSON Schema object, kept opaque: providers pass it through, validators read it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A tool offered to the model (OpenAI-style function tool, the lingua franca of providers). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
}

/**
 * A tool call as the model produced it. A malformed call is still a call: `arguments` is
 * `undefined` and `parseError` says why, so that a tool-use benchmark can score it.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed arguments (usually an object); `undefined` when `rawArguments` did not parse. */
  readonly arguments: unknown;
  /** The arguments exactly as the model wrote them. */
  readonly rawArguments: string;
  readonly parseError?: string;
}

/** Builds a ToolCall from raw argument text, recording (never throwing) a parse failure. */
export function toolCallFromRaw(id: string, name: string, rawArguments: string): ToolCall {
  const text = rawArguments.trim() === '' ? '{}' : rawArguments;
  try {
    return { id, name, arguments: JSON.parse(text) as unknown, rawArguments };
  } catch (error) {
    return { id, name, arguments: undefined, rawArguments, parseError: (error as Error).message };
  }
}
