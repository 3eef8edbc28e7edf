import { usageOf, toolCallFromRaw, type GenerateResult, type ToolCall, type Usage, type Warning } from '../../../core/index.js';
import { isJsonObject as isObject } from '../../../core/index.js';
import { badResponse, parseJsonObjectBody } from '../../http/call-errors.js';
import type { GeminiCandidate, GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';
import { isFilterFinish, mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/** Input = prompt tokens; output = answer tokens plus hidden "thinking" tokens (billed as output). */
function readUsage(usage: unknown): Usage {
  if (!isObject(usage)) return {};
  const u = usage as GeminiUsageMetadata;
  const thoughts = typeof u.thoughtsTokenCount === 'number' ? u.thoughtsTokenCount : 0;
  return usageOf(
    typeof u.promptTokenCount === 'number' ? u.promptTokenCount : undefined,
    // A blocked or empty answer omits candidatesTokenCount: 0 answer tokens, not unknown.
    typeof u.candidatesTokenCount === 'number' || typeof u.promptTokenCount === 'number'
      ? (typeof u.candidatesTokenCount === 'number' ? u.candidatesTokenCount : 0) + thoughts
      : undefined,
  );
}

/** The ratings that explain a block: `blocked: true`, or a probability above LOW. */
function flaggedRatings(ratings: unknown): string {
  if (!Array.isArray(ratings)) return '';
  const flagged: string[] = [];
  for (const rating of ratings) {
    if (!isObject(rating) || typeof rating.category !== 'string') continue;
    const probability = typeof rating.probability === 'string' ? rating.probability : '';
    if (rating.blocked === true || probability === 'MEDIUM' || probability === 'HIGH') flagged.push(`${rating.category}=${probability || 'blocked'}`);
  }
  return flagged.join(', ');
}

export interface GeminiParseOptions {
  readonly requestedModel: string;
  readonly requestWarnings?: readonly Warning[];
}

/**
 * Turns a 2xx generateContent body (already redacted) into a `GenerateResult`, from the first
 * candidate: text parts concatenated (hidden `thought` parts skipped), `functionCall` parts as tool
 * calls (`args` serialized as `rawArguments`; the call `id` when Gemini gives one, else `call_<i>`).
 *
 * A safety block is an *output*, not an error: finish reason `content-filter`, the wire reason in
 * `finishReason.raw` and a warning naming the flagged categories. It is the provider's answer to
 * this input (a retry would get the same block, and an evaluation must count blocks, not lose them
 * as failed calls). That holds for a blocked answer (`finishReason` SAFETY, RECITATION, …) and for a
 * blocked prompt (`promptFeedback.blockReason`, which comes with no candidate at all: text is '').
 * Only a body with neither a candidate nor a block reason is a `bad-response` error.
 */
export function parseGeminiResponse(bodyText: string, status: number, options: GeminiParseOptions): GenerateResult {
  const body = parseJsonObjectBody(bodyText, status);
  const response = body as GeminiResponse;
  const warnings: Warning[] = [...(options.requestWarnings ?? [])];
  const usage = readUsage(response.usageMetadata);
  // `models/gemini-x` and `gemini-x` name the same model: only a real difference is worth recording.
  const requested = options.requestedModel.replace(/^models\//, '');
  const responseModel = typeof response.modelVersion === 'string' && response.modelVersion !== requested ? { responseModel: response.modelVersion } : {};
  const candidate: unknown = Array.isArray(response.candidates) ? response.candidates[0] : undefined;

  if (!isObject(candidate)) {
    const feedback = isObject(response.promptFeedback) ? response.promptFeedback : undefined;
    const blockReason = typeof feedback?.blockReason === 'string' ? feedback.blockReason : undefined;
    if (blockReason === undefined) throw badResponse(status, bodyText, 'has no candidates and no promptFeedback.blockReason');
    const flagged = flaggedRatings(feedback?.safetyRatings);
    warnings.push({ type: 'other', feature: 'prompt-blocked', details: `promptFeedback.blockReason ${blockReason}${flagged ? ` (${flagged})` : ''}` });
    return { text: '', toolCalls: [], finishReason: { unified: 'content-filter', raw: blockReason }, usage, warnings, rawResponse: body, ...responseModel };
  }

  const wire = candidate as GeminiCandidate;
  let text = '';
  const toolCalls: ToolCall[] = [];
  const parts: unknown = isObject(wire.content) ? wire.content.parts : undefined;
  if (Array.isArray(parts)) {
    for (const part of parts) {
      if (!isObject(part)) continue;
      if (typeof part.text === 'string' && part.thought !== true) text += part.text;
      if (isObject(part.functionCall)) {
        const call = part.functionCall;
        const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${toolCalls.length}`;
        const name = typeof call.name === 'string' ? call.name : '';
        toolCalls.push(toolCallFromRaw(id, name, call.args === undefined ? '' : JSON.stringify(call.args)));
      }
    }
  }
  const raw = typeof wire.finishReason === 'string' ? wire.finishReason : undefined;
  if (isFilterFinish(raw)) {
    const flagged = flaggedRatings(wire.safetyRatings);
    warnings.push({ type: 'other', feature: 'safety-block', details: `finishReason ${raw ?? ''}${flagged ? ` (${flagged})` : ''}` });
  }
  const unified = mapGeminiFinishReason(raw, toolCalls.length > 0);
  return { text, toolCalls, finishReason: raw === undefined ? { unified } : { unified, raw }, usage, warnings, rawResponse: body, ...responseModel };
}
