import type { GenerateRequest, Warning } from '../../../core/index.js';
import type { GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiRequestBody } from './gemini-api-types.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import { isEmptyObjectSchema, toGeminiSchema } from './gemini-schema.js';

export interface GeminiRequest {
  readonly body: GeminiRequestBody;
  /** What the request could not express natively; copied into the result's warnings. */
  readonly warnings: readonly Warning[];
}

/**
 * The generateContent body for one request (`hints` are never sent). Settings go to
 * `generationConfig` (all five have a native field, `seed` included); a `responseFormat`
 * becomes `responseMimeType: application/json` + `responseSchema`. Tool and response schemas are
 * cut down to the keywords Gemini accepts (see `toGeminiSchema`), with one warning naming what was
 * dropped.
 */
export function buildGeminiRequest(request: GenerateRequest): GeminiRequest {
  const { settings } = request;
  const prompt = convertToGeminiContents(request.messages);
  const warnings: Warning[] = [...prompt.warnings];
  const dropped = new Set<string>();
  const body: GeminiRequestBody = { contents: prompt.contents };
  if (prompt.systemInstruction) body.systemInstruction = prompt.systemInstruction;
  if (request.tools && request.tools.length > 0) {
    const functionDeclarations = request.tools.map((tool): GeminiFunctionDeclaration => {
      const converted = toGeminiSchema(tool.parameters);
      for (const keyword of converted.dropped) dropped.add(keyword);
      return isEmptyObjectSchema(converted.schema)
        ? { name: tool.name, description: tool.description }
        : { name: tool.name, description: tool.description, parameters: converted.schema };
    });
    body.tools = [{ functionDeclarations }];
  }
  const config: GeminiGenerationConfig = {};
  if (settings.temperature !== undefined) config.temperature = settings.temperature;
  if (settings.topP !== undefined) config.topP = settings.topP;
  if (settings.maxTokens !== undefined) config.maxOutputTokens = settings.maxTokens;
  if (settings.seed !== undefined) config.seed = settings.seed;
  if (settings.stop !== undefined && settings.stop.length > 0) config.stopSequences = [...settings.stop];
  if (request.responseFormat) {
    const converted = toGeminiSchema(request.responseFormat.schema);
    for (const keyword of converted.dropped) dropped.add(keyword);
    config.responseMimeType = 'application/json';
    config.responseSchema = converted.schema;
  }
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (dropped.size > 0) {
    warnings.push({ type: 'compatibility', feature: 'json-schema', details: `schema keywords Gemini does not accept were dropped or rewritten: ${[...dropped].sort().join(', ')}` });
  }
  return { body, warnings };
}
