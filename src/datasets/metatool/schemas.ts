import { z } from 'zod';

/**
 * Shapes of the MetaTool JSON files, checked when they are loaded. Each comes with the words an
 * error message uses for "what was expected".
 */

export const stringMapSchema = z.record(z.string(), z.string());
export const STRING_MAP_EXPECTED = 'an object mapping tool names to description strings';

export const pluginInfoSchema = z.array(z.object({ name_for_model: z.string().min(1), description_for_human: z.string() }));
export const PLUGIN_INFO_EXPECTED = 'a list of plugins {name_for_model, description_for_human}';

export const scenarioSchema = z.object({ Tools: z.array(z.string().min(1)).min(1) });
export const SCENARIO_EXPECTED = 'an object {"Tools": [tool names]}';

export const multiGoldenSchema = z.array(z.object({ query: z.string().min(1), tool: z.tuple([z.string().min(1), z.string().min(1)]) }));
export const MULTI_GOLDEN_EXPECTED = 'a list of {query, tool: [two tool names]}';

export const embeddingsSchema = z.array(z.object({ tool: z.string().min(1), embedding: z.array(z.number()).min(1) }));
export const EMBEDDINGS_EXPECTED = 'a list of {tool, embedding: [numbers]}';

export const neighboursSchema = z.record(z.string(), z.array(z.string()));
export const NEIGHBOURS_EXPECTED = 'an object mapping each tool to its nearest tools (itself first)';

export const task1Schema = z.array(
  z.object({
    thought_prompt: z.string().min(1),
    label: z.enum(['positive', 'negative']),
    query: z.string().min(1),
    tool: z.string().optional(),
  }),
);
export const TASK1_EXPECTED = 'a list of {thought_prompt, label: "positive"|"negative", query, tool?}';

export const subtask3Schema = z.array(
  z.object({ action_prompt: z.string().min(1), thought_prompt: z.string(), tool: z.string().min(1), query: z.string().min(1), index: z.number() }),
);
export const SUBTASK3_EXPECTED = 'a list of {action_prompt, thought_prompt, tool, query, index}';

export const subtask4Schema = z.array(
  z.object({ action_prompt: z.string().min(1), thought_prompt: z.string(), tool: z.tuple([z.string().min(1), z.string().min(1)]), query: z.string().min(1) }),
);
export const SUBTASK4_EXPECTED = 'a list of {action_prompt, thought_prompt, tool: [two tool names], query}';
