/**
 * The schema of an assay PostgreSQL store, as an ordered list of migrations. The database records
 * each one applied in `schema_migrations`; opening it applies the missing ones in order, in one
 * transaction (see `migrate.ts`). Numbered on their own: PostgreSQL's version 1 is SQLite's
 * version 8 in content, without SQLite's storage devices.
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
 * - JSON columns are `json`, not `jsonb`: `json` keeps the text as written, so a `\u0000` or a
 *   lone surrogate escape in a model's output is stored and read back (jsonb refuses `\u0000`),
 *   and nothing here queries inside them. SQL NULL means absent (undefined), JSON `null` means null.
 * - Times are `timestamptz` (read back as ISO 8601 UTC with milliseconds, as the runner writes
 *   them); a lease's times are the database server's clock (`now()`), so workers on several
 *   hosts agree on expiry.
 * - `calls` keeps every attempt; it is also the call cache: `calls_cache` is a partial index over
 *   successful calls with a key, newest first, so a lookup reads one index entry, and a call is
 *   visible to every other connection as soon as its transaction commits.
 * - A call whose messages are its sample's input (`messages_from_sample`) stores the request
 *   without them; reading joins the sample's input back in.
 * - `results` has one row per (sample, model); a retry replaces an error row in place (upsert).
 * - Text is ordered with COLLATE "C" in queries (byte order, as SQLite), whatever the database's collation.
 */
const V1_SQL = `
CREATE TABLE runs (
  id                text PRIMARY KEY,
  task              text NOT NULL,
  task_version      text NOT NULL,
  status            text NOT NULL,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  models            text[] NOT NULL,
  settings          json NOT NULL,
  seed              bigint NOT NULL,
  options           json NOT NULL,
  dataset_checksums json NOT NULL,
  prompt_version    text NOT NULL,
  toolkit_version   text NOT NULL,
  engine            json NOT NULL,
  judge             json,
  sample_count      integer,
  user_model        text,
  metrics_facts     json
);

CREATE INDEX runs_newest_first ON runs (created_at DESC, id COLLATE "C" DESC);

CREATE TABLE samples (
  run_id    text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  sample_id text NOT NULL,
  idx       integer NOT NULL,
  input     json NOT NULL,
  tools     json,
  target    json,
  metadata  json NOT NULL,
  hints     json,
  PRIMARY KEY (run_id, sample_id),
  UNIQUE (run_id, idx)
);

CREATE TABLE calls (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id               text NOT NULL,
  sample_id            text NOT NULL,
  model_id             text NOT NULL,
  role                 text NOT NULL,
  actor                text,
  step                 text,
  attempt              integer NOT NULL,
  cache_key            text,
  request              json,
  messages_from_sample boolean NOT NULL DEFAULT false,
  output               json,
  error                json,
  input_tokens         integer,
  output_tokens        integer,
  cost_usd             double precision,
  latency_ms           double precision NOT NULL,
  started_at           timestamptz NOT NULL,
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE,
  CONSTRAINT call_has_output_xor_error CHECK ((output IS NULL) <> (error IS NULL))
);

CREATE INDEX calls_by_sample ON calls (run_id, sample_id, id);
CREATE INDEX calls_cache ON calls (cache_key, id DESC) WHERE cache_key IS NOT NULL AND output IS NOT NULL AND error IS NULL;

CREATE TABLE results (
  run_id        text NOT NULL,
  sample_id     text NOT NULL,
  model_id      text NOT NULL,
  status        text NOT NULL,
  output        json,
  score         json,
  error         json,
  cached        boolean NOT NULL,
  attempts      integer NOT NULL,
  latency_ms    double precision NOT NULL,
  input_tokens  integer,
  output_tokens integer,
  cost_usd      double precision,
  finished_at   timestamptz NOT NULL,
  transcript    json,
  PRIMARY KEY (run_id, sample_id, model_id),
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE,
  -- "An error is never stored as an output" (records.ts), enforced.
  CONSTRAINT result_done_has_output_error_has_error CHECK (
    (status = 'done' AND output IS NOT NULL AND error IS NULL) OR
    (status = 'error' AND error IS NOT NULL AND output IS NULL)
  )
);

CREATE TABLE reviews (
  run_id      text NOT NULL,
  sample_id   text NOT NULL,
  model_id    text NOT NULL,
  verdict     boolean NOT NULL,
  note        text NOT NULL,
  source      text NOT NULL,
  reviewed_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, sample_id, model_id),
  FOREIGN KEY (run_id, sample_id) REFERENCES samples (run_id, sample_id) ON DELETE CASCADE
);

CREATE TABLE run_leases (
  run_id       text PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  holder_id    text NOT NULL,
  pid          integer NOT NULL,
  host         text NOT NULL,
  acquired_at  timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
`;

/**
 * Version 2: repeats of the model under test (issue 24 §2), as SQLite's version 9: `runs.repeats`
 * (NULL: once) and `results.repeat` (0-based; existing rows are repeat 0) in the primary key.
 */
const V2_SQL = `
ALTER TABLE runs ADD COLUMN repeats integer;
ALTER TABLE results ADD COLUMN repeat integer NOT NULL DEFAULT 0;
ALTER TABLE results DROP CONSTRAINT results_pkey;
ALTER TABLE results ADD PRIMARY KEY (run_id, sample_id, model_id, repeat);
`;

/**
 * Version 3: `suite_runs`, each suite run's gate outcomes as decided when it ended (SQLite's
 * version 10): the record as `json`, `suite` its own column.
 */
const V3_SQL = `
CREATE TABLE suite_runs (
  id         text PRIMARY KEY,
  suite      text NOT NULL,
  decided_at timestamptz NOT NULL,
  record     json NOT NULL
);
`;

/**
 * Version 4: `calls.repeat`, a call's repeat of the model under test, as SQLite's version 11 (see
 * there why NOT NULL DEFAULT 0): since PostgreSQL 11 a column added with a constant default
 * rewrites no row; existing calls read as repeat 0.
 */
const V4_SQL = `
ALTER TABLE calls ADD COLUMN repeat integer NOT NULL DEFAULT 0;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'runs, samples, calls (the call cache), results, reviews, run leases', sql: V1_SQL },
  { version: 2, description: "repeats of the model under test: a run's repeats, a result's repeat", sql: V2_SQL },
  { version: 3, description: "a suite run's gate outcomes as decided when it ended", sql: V3_SQL },
  { version: 4, description: "a call's repeat of the model under test", sql: V4_SQL },
];

/** The schema version this build of assay writes and understands. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** The tables an assay store creates: a schema holding one of them without `schema_migrations` is someone else's. */
export const ASSAY_TABLES = ['runs', 'samples', 'calls', 'results', 'reviews', 'run_leases', 'suite_runs'] as const;
