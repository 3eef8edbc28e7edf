/**
 * The schema of an assay SQLite store, as an ordered list of migrations. A database records the
 * last one applied in `PRAGMA user_version`; opening it applies the missing ones in order.
 *
 * Rules for adding one: append (never edit or reorder a shipped migration), give it the next
 * version number, and keep its SQL free of transaction statements (the runner wraps it).
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * Version 1. Design notes:
 * - STRICT tables, so a wrongly typed value is an error at write time, not a surprise at report time.
 * - JSON columns hold `JSON.stringify` text; SQL NULL means "absent" (undefined), the text `null` means null.
 * - `samples` keeps everything a scorer needs, so a run can be re-scored and re-reported offline.
 * - `calls` keeps every attempt (request and response), which is also the call cache:
 *   `calls_cache` is a partial index over successful calls only, the only rows a lookup may return.
 * - Few indexes on `calls`/`results`: every index is paid on the hot write path (measured: an index
 *   with random keys costs ~6-10 µs per insert, one appended in key order ~1 µs). `calls_by_run`
 *   is keyed (run_id, rowid), so a run's inserts append; reading one sample's calls filters that
 *   run's range, an acceptable cost for an interactive command. The primary key
 *   (run_id, sample_id, model_id) already serves per-run reads of `results`.
 * - `results` has one row per (sample, model) — per (sample, model, repeat) from version 9; a retry
 *   replaces an error row in place (upsert).
 */
const V1_SQL = `
CREATE TABLE runs (
  id                TEXT PRIMARY KEY,
  task              TEXT NOT NULL,
  task_version      TEXT NOT NULL,
  status            TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  models            TEXT NOT NULL,
  settings          TEXT NOT NULL,
  seed              INTEGER NOT NULL,
  options           TEXT NOT NULL,
  dataset_checksums TEXT NOT NULL,
  prompt_version    TEXT NOT NULL,
  toolkit_version   TEXT NOT NULL,
  engine            TEXT NOT NULL
) STRICT;

CREATE INDEX runs_created_at ON runs (created_at);

CREATE TABLE samples (
  run_id    TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  sample_id TEXT NOT NULL,
  idx       INTEGER NOT NULL,
  input     TEXT NOT NULL,
  tools     TEXT,
  target    TEXT,
  metadata  TEXT NOT NULL,
  hints     TEXT,
  PRIMARY KEY (run_id, sample_id),
  UNIQUE (run_id, idx)
) STRICT;

CREATE TABLE calls (
  id            INTEGER PRIMARY KEY,
  run_id        TEXT NOT NULL,
  sample_id     TEXT NOT NULL,
  model_id      TEXT NOT NULL,
  role          TEXT NOT NULL,
  attempt       INTEGER NOT NULL,
  cache_key     TEXT,
  request       TEXT,
  output        TEXT,
  error         TEXT,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  cost_usd      REAL,
  latency_ms    REAL NOT NULL,
  started_at    TEXT NOT NULL,
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE,
  CONSTRAINT call_has_output_xor_error CHECK ((output IS NULL) <> (error IS NULL))
) STRICT;

CREATE INDEX calls_by_run ON calls (run_id);
CREATE INDEX calls_cache ON calls (cache_key) WHERE cache_key IS NOT NULL AND output IS NOT NULL AND error IS NULL;

CREATE TABLE results (
  run_id        TEXT NOT NULL,
  sample_id     TEXT NOT NULL,
  model_id      TEXT NOT NULL,
  status        TEXT NOT NULL,
  output        TEXT,
  score         TEXT,
  error         TEXT,
  cached        INTEGER NOT NULL,
  attempts      INTEGER NOT NULL,
  latency_ms    REAL NOT NULL,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  cost_usd      REAL,
  finished_at   TEXT NOT NULL,
  PRIMARY KEY (run_id, sample_id, model_id),
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE,
  -- "An error is never stored as an output" (records.ts), enforced.
  CONSTRAINT result_done_has_output_error_has_error CHECK (
    (status = 'done' AND output IS NOT NULL AND error IS NULL) OR
    (status = 'error' AND error IS NOT NULL AND output IS NULL)
  )
) STRICT;
`;

/**
 * Version 2: judging. The run records its judge; a judge's call names the judge in `actor` (its
 * `model_id` stays the model whose output it graded); `reviews` keeps human verdicts beside the
 * judge's (one per item and model; a later review file replaces an earlier verdict).
 */
const V2_SQL = `
ALTER TABLE runs ADD COLUMN judge TEXT;
ALTER TABLE calls ADD COLUMN actor TEXT;
CREATE TABLE reviews (
  run_id      TEXT NOT NULL,
  sample_id   TEXT NOT NULL,
  model_id    TEXT NOT NULL,
  verdict     INTEGER NOT NULL CHECK (verdict IN (0, 1)),
  note        TEXT NOT NULL,
  source      TEXT NOT NULL,
  reviewed_at TEXT NOT NULL,
  PRIMARY KEY (run_id, sample_id, model_id),
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE
) STRICT;
`;

/**
 * Version 3, for the cost of a saved outcome (docs/benchmarks.md):
 * - `run_texts`: texts shared by a run's prompts (template text, tool lines), stored once per run.
 *   A sample's input refers to them by number (see `sample-input.ts`); older rows hold whole texts
 *   and read as before.
 * - `call_cache` replaces the `calls_cache` index: the newest successful call per cache key, filled
 *   in sorted batches rather than on every insert; `call_cache_watermark` is the last call id
 *   merged (see `call-cache.ts`).
 */
const V3_SQL = `
CREATE TABLE run_texts (
  run_id  TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  text_id INTEGER NOT NULL,
  text    TEXT NOT NULL,
  PRIMARY KEY (run_id, text_id)
) STRICT;

CREATE TABLE call_cache (
  cache_key TEXT PRIMARY KEY,
  call_id   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO call_cache (cache_key, call_id)
  SELECT cache_key, max(id) FROM calls WHERE cache_key IS NOT NULL AND output IS NOT NULL AND error IS NULL GROUP BY cache_key;
DROP INDEX calls_cache;
CREATE TABLE call_cache_watermark (last_call_id INTEGER NOT NULL) STRICT;
INSERT INTO call_cache_watermark (last_call_id) SELECT coalesce(max(id), 0) FROM calls;
`;

/**
 * Version 4: `sample_count`, the number of samples a run has. A new run stores its samples in
 * chunks just ahead of the calls (so the first call does not wait for all of them); a run stopped
 * before the last chunk has fewer rows, and resume rebuilds the rest from the same task. NULL in
 * runs made before: their samples were all stored with the run.
 */
const V4_SQL = `
ALTER TABLE runs ADD COLUMN sample_count INTEGER;
`;

/**
 * Version 5: `run_leases`, which process owns a running run (issue 13: two resumes of one run both
 * called every pending sample). One row per leased run, taken in one write transaction only when
 * there is none or it has expired; renewed by its holder's heartbeat, deleted when the run stops.
 * Times are epoch milliseconds (compared in SQL); `holder_id` is unique per process session, `pid`
 * and `host` are for the people reading a refusal. A run whose stored status is `running` with no
 * live lease is shown as stale (its holder died without saying so). The same record serves a later
 * fleet of workers on a shared store.
 */
const V5_SQL = `
CREATE TABLE run_leases (
  run_id       TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  holder_id    TEXT NOT NULL,
  pid          INTEGER NOT NULL,
  host         TEXT NOT NULL,
  acquired_at  INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
) STRICT;
`;

/**
 * Version 6: a call's `step`, its label in the sample's transcript when a sample takes several
 * calls (judged summaries: `claims`, `verdicts`, `coverage/questions` …). NULL for the one call of
 * a single-call sample and for the calls of runs made before.
 */
const V6_SQL = `
ALTER TABLE calls ADD COLUMN step TEXT;
`;

/**
 * Version 7: the roles a multi-step sample adds (issue 14). `runs.user_model`, the simulated
 * user's model id (`--user-model`), NULL for a run without one; `results.transcript`, the calls a
 * task's solver made for the sample in order (role, step, model, answer), NULL for a sample
 * answered in the default single call. Rows written before read as before.
 */
const V7_SQL = `
ALTER TABLE runs ADD COLUMN user_model TEXT;
ALTER TABLE results ADD COLUMN transcript TEXT;
`;

/**
 * Version 8: `runs.metrics_facts`, what a task's metrics need beyond the stored samples and
 * scores (harm measurement's guideline and human labels), as JSON: a run is reported from the
 * store alone, with no data dir. NULL for tasks that need nothing more and for runs made before.
 */
const V8_SQL = `
ALTER TABLE runs ADD COLUMN metrics_facts TEXT;
`;

/**
 * Version 9: repeats of the model under test (issue 24 §2). `runs.repeats`, how many times the model
 * answers each sample (NULL: once); `results.repeat`, which answer a result is (0-based), part of
 * the primary key (run_id, sample_id, model_id, repeat). SQLite cannot change a primary key in
 * place, so `results` is rebuilt with the same columns, constraints and STRICT typing, its rows
 * copied as repeat 0 (every run before repeats answered once).
 */
const V9_SQL = `
ALTER TABLE runs ADD COLUMN repeats INTEGER;
CREATE TABLE results_v9 (
  run_id        TEXT NOT NULL,
  sample_id     TEXT NOT NULL,
  model_id      TEXT NOT NULL,
  repeat        INTEGER NOT NULL DEFAULT 0,
  status        TEXT NOT NULL,
  output        TEXT,
  score         TEXT,
  error         TEXT,
  cached        INTEGER NOT NULL,
  attempts      INTEGER NOT NULL,
  latency_ms    REAL NOT NULL,
  input_tokens  INTEGER,
  output_tokens INTEGER,
  cost_usd      REAL,
  finished_at   TEXT NOT NULL,
  transcript    TEXT,
  PRIMARY KEY (run_id, sample_id, model_id, repeat),
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE,
  CONSTRAINT result_done_has_output_error_has_error CHECK (
    (status = 'done' AND output IS NOT NULL AND error IS NULL) OR
    (status = 'error' AND error IS NOT NULL AND output IS NULL)
  )
) STRICT;
INSERT INTO results_v9 (run_id, sample_id, model_id, repeat, status, output, score, error, cached, attempts, latency_ms,
                        input_tokens, output_tokens, cost_usd, finished_at, transcript)
  SELECT run_id, sample_id, model_id, 0, status, output, score, error, cached, attempts, latency_ms,
         input_tokens, output_tokens, cost_usd, finished_at, transcript FROM results;
DROP TABLE results;
ALTER TABLE results_v9 RENAME TO results;
`;

/**
 * Version 10: `suite_runs`, each suite run's gate outcomes as decided when it ended (issue 24):
 * `assay show <suite-run>` and the `last-passing` baseline read them rather than deciding the
 * gates again from the config file as it is now. One row per suite run, the record as JSON;
 * `suite` is its own column for reading one suite's runs. Suite runs that ended before have no
 * row: they are decided again as before.
 */
const V10_SQL = `
CREATE TABLE suite_runs (
  id         TEXT PRIMARY KEY,
  suite      TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  record     TEXT NOT NULL
) STRICT;
`;

/**
 * Version 11: `calls.repeat`, the repeat of the model under test a call was made for (issue 24
 * §2), in every role (the model's, the simulated user's, the judge's), as `results.repeat` keys
 * results; before, only the seed in a request told a repeat's calls apart. NOT NULL DEFAULT 0
 * rather than nullable: one meaning per value (0 is the first or only answer, as in `results`),
 * and adding a column with a constant default rewrites no row, so a large store upgrades at once;
 * calls stored before read as repeat 0 (a run with repeats made before this version shows all its
 * calls under its first repeat). Not in any index: no read filters calls by repeat alone.
 */
const V11_SQL = `
ALTER TABLE calls ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'runs, samples, calls (with call cache index), results', sql: V1_SQL },
  { version: 2, description: 'judge of a run, actor of a call, human reviews', sql: V2_SQL },
  { version: 3, description: 'texts shared by the prompts of a run; call cache index filled in batches', sql: V3_SQL },
  { version: 4, description: 'number of samples of a run (stored in chunks as the run goes)', sql: V4_SQL },
  { version: 5, description: 'run leases: one process owns a running run at a time', sql: V5_SQL },
  { version: 6, description: "a call's step in its sample's transcript", sql: V6_SQL },
  { version: 7, description: "a run's simulated user model; a result's transcript", sql: V7_SQL },
  { version: 8, description: "what a run's metrics need beyond its samples and scores", sql: V8_SQL },
  { version: 9, description: 'repeats of the model under test: a run\'s repeats, a result\'s repeat', sql: V9_SQL },
  { version: 10, description: "a suite run's gate outcomes as decided when it ended", sql: V10_SQL },
  { version: 11, description: "a call's repeat of the model under test", sql: V11_SQL },
];

/** The schema version this build of assay writes and understands. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
