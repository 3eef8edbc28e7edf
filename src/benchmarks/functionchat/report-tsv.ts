import { judgeMetadataOf } from '../../judges/judge-metadata.js';
import type { ExportedAnswer, ExportedPair, ExportTable } from '../export-layout.js';
import { functionchatMeta, functionchatTarget } from './metadata.js';
import { upstreamAcceptableArguments, upstreamGroundTruth, upstreamMessages, upstreamResponse, upstreamTools } from './upstream-format.js';

/** Upstream FunctionChat-Bench's report columns, in its order; assay adds the sample id, the model and the tool list type after them. */
export const FUNCTIONCHAT_TSV_COLUMNS = ['serial_num', 'is_pass', 'type_of_output', 'ground_truth', 'acceptable_arguments', 'model_output', 'reasoning', 'query', 'tools', 'sample_id', 'model', 'tools_type'] as const;

/** `pass` / `fail` as upstream writes them; assay's own `no verdict` and `error` where upstream has none. */
function isPass(result: ExportedAnswer): string {
  if (result.status === 'error') return 'error';
  if (result.score?.value === true) return 'pass';
  if (result.score?.value === false) return 'fail';
  return 'no verdict';
}

/** The judge's reasoning (every repeat's reply, separated), or why no judge was needed. */
function reasoning(result: ExportedAnswer): string {
  const judge = judgeMetadataOf(result.score);
  if (judge) return judge.responses.join('\n---\n');
  return result.error ? `${result.error.kind}: ${result.error.message}` : (result.score?.explanation ?? '');
}

/**
 * The upstream TSV report of a FunctionChat run (`assay export --format tsv`): one row per item and model, with the texts the
 * judge saw (ground truth, acceptable arguments, model output, query, tools) in upstream's format.
 */
export function functionchatTsv(pairs: readonly ExportedPair[]): ExportTable {
  const rows = pairs.flatMap(({ sample, result }) => {
    if (!sample) return [];
    const meta = functionchatMeta(sample);
    const target = functionchatTarget(sample);
    return [
      [
        meta.serial_num,
        isPass(result),
        meta.type_of_output,
        upstreamGroundTruth(target.groundTruth, meta),
        meta.type_of_output === 'call' ? upstreamAcceptableArguments(target.acceptableText) : '',
        result.output ? upstreamResponse(result.output) : '',
        reasoning(result),
        upstreamMessages(sample.input),
        upstreamTools(sample.tools ?? []),
        result.sampleId,
        result.modelId,
        meta.tools_type ?? '',
      ].map(String),
    ];
  });
  return { columns: FUNCTIONCHAT_TSV_COLUMNS, rows };
}
