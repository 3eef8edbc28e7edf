import { z } from 'zod';

/**
 * Shapes of the FunctionChat-Bench JSONL rows (one JSON object per line), checked line by line.
 * Each comes with the words an error message uses for "what was expected". Only the fields assay
 * reads are checked; others pass through unread.
 */

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

/** An OpenAI-style function tool. */
export const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});

/** A message of a conversation history (OpenAI chat shape). */
export const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), name: z.string().optional(), content: z.string() }),
]);

/**
 * The expected answer of a dialog turn or call-decision item: one tool call (`content` null), or a
 * text. The paper-era dialog file has two text answers with role "user" (a data slip); they are
 * kept as shipped because the judge is shown them as shipped.
 */
export const groundTruthMessageSchema = z.union([
  z.object({ role: z.literal('assistant'), content: z.null(), tool_calls: z.array(toolCallSchema).length(1) }),
  z.object({ role: z.enum(['assistant', 'user']), content: z.string() }),
]);

/** `acceptable_arguments` as shipped: null, a sentence or a JSON object text, or (dialog) an object. */
export const acceptableArgumentsSchema = z.union([z.null(), z.string(), z.record(z.string(), z.unknown())]);

export const outputTypeSchema = z.enum(['call', 'completion', 'slot', 'relevance']);

const serialEntry = <T extends z.ZodType>(content: T) => z.object({ serial_num: z.number().int().positive(), content });

export const singlecallRowSchema = z.object({
  function_num: z.number().int().positive(),
  function_name: z.string().min(1),
  query: z.array(serialEntry(z.string().min(1))).min(1),
  /** Each `content` is the JSON text `{"name": ..., "arguments": "<JSON text>"}`. */
  ground_truth: z.array(serialEntry(z.string().min(1))).min(1),
  acceptable_arguments: z.array(serialEntry(z.string().nullable())).min(1),
  tools: z.array(z.object({ type: z.string().min(1), content: z.array(toolSchema).min(1) })).min(1),
});
export const SINGLECALL_EXPECTED =
  'a FunctionChat-Singlecall row {function_num, function_name, query: [{serial_num, content}], ground_truth: [{serial_num, content}], acceptable_arguments: [{serial_num, content}], tools: [{type, content: [tools]}]}';

export const singlecallGroundTruthSchema = z.object({ name: z.string().min(1), arguments: z.string() });

export const dialogRowSchema = z.object({
  dialog_num: z.number().int().positive(),
  tools: z.array(toolSchema),
  turns: z
    .array(
      z.object({
        turn_num: z.number().int().positive(),
        serial_num: z.number().int().positive(),
        query: z.array(messageSchema).min(1),
        ground_truth: groundTruthMessageSchema,
        type_of_output: outputTypeSchema,
        acceptable_arguments: acceptableArgumentsSchema,
      }),
    )
    .min(1),
});
export const DIALOG_EXPECTED =
  'a FunctionChat-Dialog row {dialog_num, tools: [tools], turns: [{turn_num, serial_num, query: [messages], ground_truth: message, type_of_output: call|completion|slot|relevance, acceptable_arguments}]}';

export const callDecisionRowSchema = z.object({
  serial_num: z.number().int().positive(),
  category: z.string().min(1),
  input_messages: z.array(messageSchema).min(1),
  input_tools: z.array(toolSchema),
  type_of_output: outputTypeSchema,
  ground_truth: groundTruthMessageSchema,
  acceptable_arguments: acceptableArgumentsSchema,
});
export const CALLDECISION_EXPECTED =
  'a FunctionChat-CallDecision row {serial_num, category, input_messages: [messages], input_tools: [tools], type_of_output, ground_truth: message, acceptable_arguments}';
