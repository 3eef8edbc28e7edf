import type { ToolSpec } from '../../../core/index.js';
import type { OpenAIFunctionTool } from './openai-api-types.js';

/**
 * Core tool specs → chat-completions `tools`. Returns `undefined` for no tools, because OpenAI
 * rejects an empty `tools` array.
 */
export function prepareTools(tools: readonly ToolSpec[] | undefined): OpenAIFunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
