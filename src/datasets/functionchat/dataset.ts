import type { z } from 'zod';
import { toolCallFromRaw, type Message, type ToolCall, type ToolSpec } from '../../core/index.js';
import { acceptableArgumentsText, parseAcceptableArguments, type AcceptableArguments, type ShippedAcceptableArguments } from './acceptable.js';
import { lineError, parseJsonl, readFunctionChatFile, type DataFile, type JsonlRow } from './read-files.js';
import * as schemas from './schemas.js';
import { OUTPUT_TYPES, rubricKey, setFileKey, systemPromptKey, type FunctionChatVersion, type OutputType } from './versions.js';

/** A parsed part of the data and the checksums of the files it was read from. */
export interface Loaded<T> {
  readonly value: T;
  /** sha256 of each file read, keyed by its path relative to the data dir. */
  readonly checksums: Readonly<Record<string, string>>;
}

/** The expected tool call of a call item. */
export interface GroundTruthCall {
  readonly kind: 'call';
  readonly name: string;
  /** The arguments JSON text exactly as shipped (shown to the judge). */
  readonly rawArguments: string;
  /** The parsed arguments (always an object). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The expected text answer of a completion, slot or relevance item. */
export interface GroundTruthText {
  readonly kind: 'text';
  /** "assistant", or "user" for two paper-era dialog rows shipped that way. */
  readonly role: 'assistant' | 'user';
  readonly content: string;
}

export type GroundTruth = GroundTruthCall | GroundTruthText;

/** What every graded item has, whichever file it came from. */
export interface GradedItem {
  readonly serialNum: number;
  readonly typeOfOutput: OutputType;
  readonly tools: readonly ToolSpec[];
  readonly groundTruth: GroundTruth;
  readonly acceptable: AcceptableArguments;
  /** `acceptable_arguments` in upstream's request form (a string or null), shown to the judge. */
  readonly acceptableText: string | null;
}

/** One query of FunctionChat-Singlecall with one of its tool lists. */
export interface SinglecallItem extends GradedItem {
  readonly functionNum: number;
  readonly functionName: string;
  /** `exact`, `4_random`, `4_close`, `8_random`, `8_close`. */
  readonly toolsType: string;
  readonly query: string;
}

/** One graded turn of a FunctionChat-Dialog conversation. */
export interface DialogTurn extends GradedItem {
  readonly dialogNum: number;
  readonly turnNum: number;
  /** The conversation before the graded turn (no system prompt: the task adds it). */
  readonly history: readonly Message[];
}

/** One item of FunctionChat-CallDecision. */
export interface CallDecisionItem extends GradedItem {
  /** `CALL`, `REJECT`, `SLOT-all`, `SLOT-some`. */
  readonly category: string;
  /** The conversation as shipped, system message included. */
  readonly messages: readonly Message[];
}

type ShippedTool = z.infer<typeof schemas.toolSchema>;
type ShippedMessage = z.infer<typeof schemas.messageSchema>;
type ShippedGroundTruth = z.infer<typeof schemas.groundTruthMessageSchema>;

const checksumsOf = (...files: readonly DataFile[]): Record<string, string> => Object.fromEntries(files.map((f) => [f.key, f.sha256]));

export const toToolSpec = (tool: ShippedTool): ToolSpec => ({ name: tool.function.name, description: tool.function.description, parameters: tool.function.parameters });

function toToolCall(call: { id: string; function: { name: string; arguments: string } }): ToolCall {
  return toolCallFromRaw(call.id, call.function.name, call.function.arguments);
}

/** A shipped message in assay's Message shape (an assistant tool-call message with null content gets ""). */
export function toMessage(message: ShippedMessage): Message {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const toolCalls = (message.tool_calls ?? []).map(toToolCall);
      return toolCalls.length > 0 ? { role: 'assistant', content: message.content ?? '', toolCalls } : { role: 'assistant', content: message.content ?? '' };
    }
    case 'tool':
      return message.name === undefined
        ? { role: 'tool', toolCallId: message.tool_call_id, content: message.content }
        : { role: 'tool', toolCallId: message.tool_call_id, name: message.name, content: message.content };
  }
}

/**
 * A call ground truth from its name and arguments text.
 * @throws InputError naming file and line when the arguments are not a JSON object.
 */
function groundTruthCall(data: DataFile, line: number, name: string, rawArguments: string): GroundTruthCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments) as unknown;
  } catch (error) {
    throw lineError(data, line, `ground truth arguments of "${name}" are not valid JSON (${(error as Error).message})`, 'the arguments as a JSON object text');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw lineError(data, line, `ground truth arguments of "${name}" are not a JSON object`, 'the arguments as a JSON object text');
  }
  return { kind: 'call', name, rawArguments, arguments: parsed as Record<string, unknown> };
}

/**
 * A dialog or call-decision ground truth; its kind must agree with `type_of_output` (a call for
 * "call", a text otherwise).
 */
function groundTruthOf(data: DataFile, line: number, where: string, shipped: ShippedGroundTruth, typeOfOutput: OutputType): GroundTruth {
  if ('tool_calls' in shipped) {
    if (typeOfOutput !== 'call') throw lineError(data, line, `${where}: ground truth is a tool call but type_of_output is "${typeOfOutput}"`, 'a text ground truth for completion, slot and relevance items');
    const call = shipped.tool_calls[0];
    if (!call) throw lineError(data, line, `${where}: ground truth has no tool call`, 'exactly one tool call');
    return groundTruthCall(data, line, call.function.name, call.function.arguments);
  }
  if (typeOfOutput === 'call') throw lineError(data, line, `${where}: type_of_output is "call" but the ground truth has no tool call`, 'one tool call in the ground truth of a call item');
  return { kind: 'text', role: shipped.role, content: shipped.content };
}

function acceptableFields(shipped: ShippedAcceptableArguments): Pick<GradedItem, 'acceptable' | 'acceptableText'> {
  return { acceptable: parseAcceptableArguments(shipped), acceptableText: acceptableArgumentsText(shipped) };
}

async function readRows<T>(dataDir: string, key: string, schema: z.ZodType<T>, expected: string): Promise<{ file: DataFile; rows: JsonlRow<T>[] }> {
  const file = await readFunctionChatFile(dataDir, key);
  return { file, rows: parseJsonl(file, schema, expected) };
}

/**
 * FunctionChat-Singlecall: every query of every function with every tool list, in file order
 * (function, query, tool list). Queries, ground truths and acceptable arguments pair by position,
 * as upstream pairs them; their serial numbers must agree.
 */
export async function loadSinglecall(dataDir: string, version: FunctionChatVersion): Promise<Loaded<readonly SinglecallItem[]>> {
  const { file, rows } = await readRows(dataDir, setFileKey(version, 'singlecall'), schemas.singlecallRowSchema, schemas.SINGLECALL_EXPECTED);
  const items: SinglecallItem[] = [];
  for (const { line, value: row } of rows) {
    if (row.ground_truth.length !== row.query.length || row.acceptable_arguments.length !== row.query.length) {
      throw lineError(file, line, `${row.query.length} queries, ${row.ground_truth.length} ground truths, ${row.acceptable_arguments.length} acceptable_arguments`, 'one ground truth and one acceptable_arguments per query');
    }
    const types = row.tools.map((t) => t.type);
    if (new Set(types).size !== types.length) throw lineError(file, line, `tool list types ${JSON.stringify(types)} repeat`, 'each tool list type once');
    row.query.forEach((query, q) => {
      const truth = row.ground_truth[q];
      const acceptable = row.acceptable_arguments[q];
      if (!truth || !acceptable || truth.serial_num !== query.serial_num || acceptable.serial_num !== query.serial_num) {
        throw lineError(file, line, `query ${q + 1} has serial_num ${query.serial_num} but its ground truth or acceptable_arguments does not`, 'the same serial_num at the same position');
      }
      let shipped: unknown;
      try {
        shipped = JSON.parse(truth.content) as unknown;
      } catch (error) {
        throw lineError(file, line, `ground_truth of serial_num ${query.serial_num} is not valid JSON (${(error as Error).message})`, 'the JSON text {"name": ..., "arguments": "<JSON text>"}');
      }
      const parsed = schemas.singlecallGroundTruthSchema.safeParse(shipped);
      if (!parsed.success) throw lineError(file, line, `ground_truth of serial_num ${query.serial_num} is not {name, arguments}`, 'the JSON text {"name": ..., "arguments": "<JSON text>"}');
      const groundTruth = groundTruthCall(file, line, parsed.data.name, parsed.data.arguments);
      for (const list of row.tools) {
        items.push({
          serialNum: query.serial_num,
          functionNum: row.function_num,
          functionName: row.function_name,
          toolsType: list.type,
          query: query.content,
          typeOfOutput: 'call',
          tools: list.content.map(toToolSpec),
          groundTruth,
          ...acceptableFields(acceptable.content),
        });
      }
    });
  }
  return { value: items, checksums: checksumsOf(file) };
}

/** FunctionChat-Dialog: every graded turn with the conversation before it, in file order. */
export async function loadDialog(dataDir: string, version: FunctionChatVersion): Promise<Loaded<readonly DialogTurn[]>> {
  const { file, rows } = await readRows(dataDir, setFileKey(version, 'dialog'), schemas.dialogRowSchema, schemas.DIALOG_EXPECTED);
  const turns: DialogTurn[] = [];
  for (const { line, value: row } of rows) {
    const tools = row.tools.map(toToolSpec);
    for (const turn of row.turns) {
      turns.push({
        serialNum: turn.serial_num,
        dialogNum: row.dialog_num,
        turnNum: turn.turn_num,
        typeOfOutput: turn.type_of_output,
        history: turn.query.map(toMessage),
        tools,
        groundTruth: groundTruthOf(file, line, `turn ${turn.turn_num}`, turn.ground_truth, turn.type_of_output),
        ...acceptableFields(turn.acceptable_arguments),
      });
    }
  }
  return { value: turns, checksums: checksumsOf(file) };
}

/** FunctionChat-CallDecision (v2.0.0 only): every item, in file order. */
export async function loadCallDecision(dataDir: string, version: FunctionChatVersion): Promise<Loaded<readonly CallDecisionItem[]>> {
  const { file, rows } = await readRows(dataDir, setFileKey(version, 'calldecision'), schemas.callDecisionRowSchema, schemas.CALLDECISION_EXPECTED);
  const items = rows.map(({ line, value: row }): CallDecisionItem => ({
    serialNum: row.serial_num,
    category: row.category,
    typeOfOutput: row.type_of_output,
    messages: row.input_messages.map(toMessage),
    tools: row.input_tools.map(toToolSpec),
    groundTruth: groundTruthOf(file, line, `serial_num ${row.serial_num}`, row.ground_truth, row.type_of_output),
    ...acceptableFields(row.acceptable_arguments),
  }));
  return { value: items, checksums: checksumsOf(file) };
}

/** The system prompt of the model under test, stripped of surrounding whitespace as upstream reads it. */
export async function loadSystemPrompt(dataDir: string, version: FunctionChatVersion): Promise<Loaded<string>> {
  const file = await readFunctionChatFile(dataDir, systemPromptKey(version));
  return { value: file.text.trim(), checksums: checksumsOf(file) };
}

/** A rubric file (the shape of the judges' `Rubric`, declared here so that datasets import nothing from judges). */
export interface RubricFile {
  /** `functionchat/<version>/<output type>`. */
  readonly id: string;
  /** Absolute path of the file. */
  readonly source: string;
  readonly template: string;
  readonly sha256: string;
}

/**
 * The four judge rubrics of a version. `template` is the file's text stripped of surrounding
 * whitespace (upstream strips it before filling); `sha256` is that of the file's bytes, as in the
 * run's data checksums.
 */
export async function loadRubrics(dataDir: string, version: FunctionChatVersion): Promise<Loaded<Readonly<Record<OutputType, RubricFile>>>> {
  const files = await Promise.all(OUTPUT_TYPES.map((type) => readFunctionChatFile(dataDir, rubricKey(version, type))));
  const rubrics = Object.fromEntries(
    OUTPUT_TYPES.map((type, i) => {
      const file = files[i] as DataFile;
      return [type, { id: `functionchat/${version}/${type}`, source: file.file, template: file.text.trim(), sha256: file.sha256 } satisfies RubricFile];
    }),
  ) as Record<OutputType, RubricFile>;
  return { value: rubrics, checksums: checksumsOf(...files) };
}
