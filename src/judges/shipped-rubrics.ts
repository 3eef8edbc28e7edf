import path from 'node:path';
import { packageRoot } from '../version.js';
import type { Rubric } from './judge-request.js';
import { loadRubric } from './rubric.js';

/** Where the rubrics assay ships live: `rubrics/` at the package root (data files, not code). */
export const SHIPPED_RUBRICS_DIR = path.join(packageRoot, 'rubrics');

/**
 * A rubric shipped with assay, by id = its path under `rubrics/` without `.txt`
 * (`summaries/claims`, `groundedness/groundedness`); a user's file can replace any of them.
 */
export const loadShippedRubric = (id: string): Promise<Rubric> => loadRubric(id, path.join(SHIPPED_RUBRICS_DIR, ...`${id}.txt`.split('/')));
