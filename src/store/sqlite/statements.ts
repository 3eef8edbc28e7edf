
/**
 * Every SQL statement of the store, in one place so that tests can check their query plans.
 * Positional `?` for the hot-path writes (cheaper to bind than named parameters); named
 * parameters where a value is used twice.
 */
/** A run's results (optionally one model's) in report order, with the given columns. */
function selectResultsWith(columns: string, where = '(@modelId IS NULL OR r.model_id = @modelId) AND s.idx >= @from AND s.idx < @to'): string {
  return `SELECT ${columns} FROM results r
            JOIN samples s ON s.run_id = r.run_id AND s.sample_id = r.sample_id
            JOIN runs ON runs.id = r.run_id
          WHERE r.run_id = @runId AND ${where}
          ORDER BY s.idx, (SELECT min(m.key) FROM json_each(runs.models) m WHERE m.value = r.model_id), r.model_id, r.repeat`;
}

export const SQL = {
  insertRun: `INSERT INTO runs (id, task, task_version, status, created_at, updated_at, models, settings, seed, options,
                                dataset_checksums, prompt_version, toolkit_version, engine, judge, sample_count, user_model, metrics_facts, repeats)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,

  /** Where `addSamples` continues a run stored in part by another process (after a kill). */
  selectSampleTail: 'SELECT coalesce(max(idx) + 1, 0) AS next_idx, (SELECT coalesce(max(text_id) + 1, 0) FROM run_texts WHERE run_id = @runId) AS next_text_id FROM samples WHERE run_id = @runId',

  insertRunText: 'INSERT INTO run_texts (run_id, text_id, text) VALUES (?, ?, ?)',

  selectRunTexts: 'SELECT text_id, text FROM run_texts WHERE run_id = ?',

  insertSample: 'INSERT INTO samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',

  insertCall: `INSERT INTO calls (run_id, sample_id, model_id, role, attempt, cache_key, request, output, error,
                                  input_tokens, output_tokens, cost_usd, latency_ms, started_at, actor, step, repeat)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,

  /**
   * A unit's result, written once: a unit with a result already is left as it is (no change) unless
   * that result is an error and the last parameter is 1 (`--retry-errors` re-runs error rows and
   * this replaces them in place). The caller reads "no change" as "not saved": one statement
   * rather than a read of the unit's status before every insert.
   */
  upsertResult: `INSERT INTO results (run_id, sample_id, model_id, repeat, status, output, score, error, cached, attempts, latency_ms,
                                      input_tokens, output_tokens, cost_usd, finished_at, transcript)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (run_id, sample_id, model_id, repeat) DO UPDATE SET
                   status = excluded.status, output = excluded.output, score = excluded.score, error = excluded.error,
                   cached = excluded.cached, attempts = excluded.attempts, latency_ms = excluded.latency_ms,
                   input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
                   cost_usd = excluded.cost_usd, finished_at = excluded.finished_at, transcript = excluded.transcript
                 WHERE results.status = 'error' AND ? = 1`,

  /** Only `done` rows have an output to score; an error row keeps its null score. */
  updateScore: "UPDATE results SET score = ? WHERE run_id = ? AND model_id = ? AND sample_id = ? AND repeat = ? AND status = 'done'",

  selectRun: 'SELECT * FROM runs WHERE id = ?',

  /** A suite run's gates as decided when it ended; a later decision (a resume to the end) replaces them. */
  upsertSuiteRun: `INSERT INTO suite_runs (id, suite, decided_at, record) VALUES (?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET suite = excluded.suite, decided_at = excluded.decided_at, record = excluded.record`,

  selectSuiteRun: 'SELECT record FROM suite_runs WHERE id = ?',

  /**
   * What a run's calls add up to per role and answering model (a judge's or simulated user's calls
   * name it in `actor`). Unpriced answers are told by `error IS NULL`, the same rows as `output IS
   * NOT NULL` (a call has exactly one of the two: `call_has_output_xor_error`): SQLite's GROUP BY
   * sorts every row with the columns its aggregates read, so reading `output` put each answer's
   * text (~0.5 KB for MetaTool) in the sort — 9.6 → 4.1 ms and ~5 MB less to sort for 10,000 calls,
   * the same rows (docs/benchmarks.md, "the spend's sort").
   */
  selectRunSpend: `SELECT role, coalesce(actor, model_id) AS model, count(*) AS calls,
                          sum(CASE WHEN error IS NOT NULL THEN 1 ELSE 0 END) AS failed_calls,
                          coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
                          coalesce(sum(cost_usd), 0) AS usd,
                          sum(CASE WHEN cost_usd IS NULL AND error IS NULL THEN 1 ELSE 0 END) AS unpriced
                   FROM calls WHERE run_id = ?
                   GROUP BY role, model
                   ORDER BY CASE role WHEN 'test' THEN 0 WHEN 'user' THEN 1 ELSE 2 END, model`,

  /** substr rather than LIKE/GLOB, so `%`, `_`, `*` in a user's prefix are plain characters. */
  selectRunIdsByPrefix: 'SELECT id FROM runs WHERE substr(id, 1, length(@prefix)) = @prefix ORDER BY created_at DESC, id DESC',

  selectRuns: 'SELECT * FROM runs ORDER BY created_at DESC, id DESC',

  updateStatus: 'UPDATE runs SET status = ?, updated_at = ? WHERE id = ?',

  /** A run's `engine` column (its typed parts, `run-record-codec.ts`), read to append an event to it in the same transaction. */
  selectRunParts: 'SELECT engine FROM runs WHERE id = ?',
  /** A run's status with its parts rewritten (an event appended, or the engine settings of a resume on the queue). */
  updateRunParts: 'UPDATE runs SET status = @status, engine = @engine, updated_at = @updatedAt WHERE id = @runId',

  selectLease: 'SELECT * FROM run_leases WHERE run_id = ?',

  /** Takes the lease (inside the acquiring transaction, after the check that it is free). */
  upsertLease: `INSERT INTO run_leases (run_id, holder_id, pid, host, acquired_at, heartbeat_at, expires_at)
                VALUES (@runId, @holderId, @pid, @host, @now, @now, @expiresAt)
                ON CONFLICT (run_id) DO UPDATE SET
                  holder_id = excluded.holder_id, pid = excluded.pid, host = excluded.host,
                  acquired_at = CASE WHEN run_leases.holder_id = excluded.holder_id THEN run_leases.acquired_at ELSE excluded.acquired_at END,
                  heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,

  /** A renewal touches only the holder's own row: zero changes means the lease was taken over. */
  renewLease: 'UPDATE run_leases SET heartbeat_at = @now, expires_at = @expiresAt WHERE run_id = @runId AND holder_id = @holderId',

  deleteLease: 'DELETE FROM run_leases WHERE run_id = ? AND holder_id = ?',

  /** A run's samples at positions [@from, @to) (the whole run: 0 to MAX_SAFE_INTEGER), in order. */
  selectSamples: 'SELECT sample_id, idx, input, tools, target, metadata, hints FROM samples WHERE run_id = @runId AND idx >= @from AND idx < @to ORDER BY idx',
  /** As selectSamples, the facts alone (no input, tools or hints): for summaries. */
  selectSampleFacts: 'SELECT sample_id, idx, target, metadata FROM samples WHERE run_id = @runId AND idx >= @from AND idx < @to ORDER BY idx',

  /** A unit's result status and its run's status and events, in one statement: one row, the run's columns NULL when there is no run. */
  /** The unit's result status, its run's status and events, and its sample's row (samples' key: at most one). */
  selectUnitStartState: `SELECT (SELECT status FROM results WHERE run_id = @runId AND sample_id = @sampleId AND model_id = @modelId AND repeat = @repeat) AS result_status,
                                runs.status AS run_status, runs.engine AS engine,
                                s.sample_id, s.idx, s.input, s.tools, s.target, s.metadata, s.hints
                         FROM (SELECT 1) AS one LEFT JOIN runs ON runs.id = @runId
                                                LEFT JOIN samples AS s ON s.run_id = @runId AND s.sample_id = @sampleId`,
  selectFinished: "SELECT sample_id FROM results WHERE run_id = @runId AND model_id = @modelId AND repeat = @repeat AND (status = 'done' OR @includeErrors)",

  /** The call cache (see `call-cache.ts`): merged keys, then a call by id for keys not merged yet. */
  selectCachedMerged: 'SELECT c.output FROM call_cache k JOIN calls c ON c.id = k.call_id WHERE k.cache_key = ?',
  selectCallOutput: 'SELECT output FROM calls WHERE id = ?',
  selectCacheWatermark: 'SELECT last_call_id FROM call_cache_watermark',
  selectLastCallId: 'SELECT max(id) FROM calls',
  /** Successful calls with a key in (from, to], in key order (one pass over the index's pages); the newest call wins. */
  mergeCallCache: `INSERT INTO call_cache (cache_key, call_id)
                     SELECT cache_key, id FROM calls
                     WHERE id > @from AND id <= @to AND cache_key IS NOT NULL AND output IS NOT NULL AND error IS NULL
                     ORDER BY cache_key, id
                   ON CONFLICT (cache_key) DO UPDATE SET call_id = excluded.call_id WHERE excluded.call_id > call_cache.call_id`,
  updateCacheWatermark: 'UPDATE call_cache_watermark SET last_call_id = ?',

  /** Sample order, then the run's model order (position in runs.models), then id for a model the run does not list. */
  selectResults: selectResultsWith('r.*'),

  /** As selectResults without the (large) output column: for summaries. */
  selectResultsWithoutOutput: selectResultsWith(
    'r.run_id, r.sample_id, r.model_id, r.repeat, r.status, NULL AS output, r.score, r.error, r.cached, r.attempts, r.latency_ms, r.input_tokens, r.output_tokens, r.cost_usd, r.finished_at, NULL AS transcript',
  ),

  /** What a summary reads of the results of the samples at positions [@from, @to): no output, and no sort (the samples' position index, then each sample's results). */
  selectResultFacts: `SELECT r.sample_id, r.model_id, r.repeat, r.status, r.score, r.error, r.cached, r.input_tokens, r.output_tokens, r.cost_usd
                      FROM results r JOIN samples s ON s.run_id = r.run_id AND s.sample_id = r.sample_id
                      WHERE r.run_id = @runId AND s.idx >= @from AND s.idx < @to`,

  /** Several samples' results (a viewer's sample detail), ordered as selectResults. */
  selectResultsOf: selectResultsWith('r.*', 'r.sample_id IN (SELECT value FROM json_each(@sampleIds))'),

  selectSamplesOf: `SELECT sample_id, idx, input, tools, target, metadata, hints FROM samples
                    WHERE run_id = @runId AND sample_id IN (SELECT value FROM json_each(@sampleIds)) ORDER BY idx`,

  /** Counted on the results' primary key (run_id first): no output is read. */
  selectResultCounts: `SELECT model_id AS model, sum(status = 'done') AS done, sum(status = 'error') AS errors FROM results
                       WHERE run_id = ? GROUP BY model_id ORDER BY model_id`,

  /** A later review of the same item replaces the earlier one. */
  upsertReview: `INSERT INTO reviews (run_id, sample_id, model_id, verdict, note, source, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (run_id, sample_id, model_id) DO UPDATE SET
                   verdict = excluded.verdict, note = excluded.note, source = excluded.source, reviewed_at = excluded.reviewed_at`,

  selectReviews: `SELECT v.* FROM reviews v JOIN samples s ON s.run_id = v.run_id AND s.sample_id = v.sample_id
                  WHERE v.run_id = ? ORDER BY s.idx, v.model_id`,

  /** Sample order, then save order. */
  selectCalls: `SELECT c.*, s.input AS sample_input FROM calls c
                  JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                WHERE c.run_id = @runId AND (@sampleId IS NULL OR c.sample_id = @sampleId)
                ORDER BY s.idx, c.id`,

  /** How many calls a run has per model and step label in one role (a report counts re-asks by their labels). */
  selectStepCounts: `SELECT model_id AS model, step, count(*) AS calls FROM calls
                     WHERE run_id = @runId AND role = @role
                     GROUP BY model_id, step ORDER BY model_id, step`,

  /** The calls of several samples in one pass over the run's calls (a report's sample details). */
  selectCallsOf: `SELECT c.*, s.input AS sample_input FROM calls c
                    JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                  WHERE c.run_id = @runId AND c.sample_id IN (SELECT value FROM json_each(@sampleIds))
                  ORDER BY s.idx, c.id`,
  /** A slice of a run by sample position (`runSlice`; its calls: `call-positions.ts`): each ordered as the run's whole read. */
  selectReviewsInRange: `SELECT v.* FROM reviews v JOIN samples s ON s.run_id = v.run_id AND s.sample_id = v.sample_id
                         WHERE v.run_id = @runId AND s.idx >= @from AND s.idx < @to ORDER BY s.idx, v.model_id`,

  /**
   * Deleting a run (`deleteRun`): its call-cache entries first (the keys are given back so the
   * newest remaining call of each can take their place), then its rows (`DELETE_RUN_ROWS`).
   */
  deleteRunCacheEntries: `DELETE FROM call_cache WHERE call_id IN (SELECT id FROM calls WHERE run_id = ?) RETURNING cache_key`,
  refillCallCache: `INSERT INTO call_cache (cache_key, call_id)
                      SELECT cache_key, max(id) FROM calls
                      WHERE cache_key IN (SELECT value FROM json_each(@keys)) AND output IS NOT NULL AND error IS NULL
                      GROUP BY cache_key
                    ON CONFLICT (cache_key) DO UPDATE SET call_id = excluded.call_id`,
} as const;

/** A deleted run's rows (`deleteRun`, after `SQL.deleteRunCacheEntries`), child tables first, so the foreign keys' cascades find nothing left to scan. */
export const DELETE_RUN_ROWS = [
  'DELETE FROM reviews WHERE run_id = ?',
  'DELETE FROM results WHERE run_id = ?',
  'DELETE FROM calls WHERE run_id = ?',
  'DELETE FROM run_leases WHERE run_id = ?',
  'DELETE FROM run_texts WHERE run_id = ?',
  'DELETE FROM samples WHERE run_id = ?',
  'DELETE FROM runs WHERE id = ?',
] as const;
