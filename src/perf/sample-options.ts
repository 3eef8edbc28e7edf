/**
 * The MetaTool options that give a benchmark `samples` samples: the fewest queries per tool that
 * reach that many (MetaTool has 199 tools, a few with fewer queries than the rest: 51 per tool
 * give 10,097), cut to exactly `samples` by the limit. Building many more than are run would bill
 * the benchmark's setup for samples no user would build.
 */
export const benchSampleOptions = (samples: number): { readonly perTool: number; readonly limit: number } => ({ perTool: Math.ceil(samples / 190), limit: samples });
