import { FailFast, type FailFastStop } from '../runner/fail-fast.js';
import { recordedStops } from '../store/run-stops.js';
import type { RunRecord, UnitStartState } from '../store/records.js';
import type { Store } from '../store/store.js';

/** What the fleet's stops are read from: the run's status and events as stored (the run of a unit's start-state read). */
type StoredRunState = NonNullable<UnitStartState['run']>;

/** How stale a worker's view of the stops other workers recorded may be before it reads the run again. */
export const STOPS_REFRESH_MS = 2_000;

interface RunStops {
  readonly failFast: FailFast;
  /** How many of `failFast.stops` are recorded with the run already. */
  recorded: number;
  /** The stops the run records (this worker's and the others'), as last read. */
  known: readonly FailFastStop[];
  readAt: number;
}

/**
 * Fail-fast over a fleet (what stops a model: `runner/fail-fast.ts`). Each worker finds the
 * streaks among its own units of a run, holding no result (a unit waiting in a worker that died
 * would never get one); a stop is recorded with the run (`Store.setRunStatus` with a `failFast` event: the run becomes
 * `interrupted`, and `assay show` says why), and every worker reads the run's recorded stops, at
 * most `STOPS_REFRESH_MS` old, before it starts a unit: a model stopped anywhere starts no new
 * unit anywhere. A wrong key on one worker stops the run for all: its keys are per worker, but its
 * units cannot be kept from it, and the fix and `assay resume` are the user's either way.
 */
export class FleetStops {
  /** By session: a run, or a run as a resume queued it again (`Unit.session`), which starts with no stop. */
  private readonly runs = new Map<string, RunStops>();

  constructor(
    private readonly store: Store,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The run's fail-fast for this worker's units of a session (`--no-fail-fast`, recorded with the run, turns it off). */
  failFastFor(session: string, run: RunRecord): FailFast {
    return this.stateOf(session, run).failFast;
  }

  /**
   * The stop that keeps this unit's model from starting, found by this worker or recorded by
   * another; undefined when none does. `stored`: the run as the caller has just read it (the
   * worker reads it with each unit's result status, `Store.unitStartState`) — a reading fresher
   * than any this keeps, so the run is not read again; without it, the run is read once its view
   * is `STOPS_REFRESH_MS` old.
   */
  async stopFor(session: string, run: RunRecord, modelId: string, stored?: StoredRunState): Promise<FailFastStop | undefined> {
    const state = this.stateOf(session, run);
    if (stored !== undefined || this.clock() - state.readAt >= STOPS_REFRESH_MS) {
      const read = stored ?? (await this.store.getRun(run.id));
      state.known = read ? recordedStops(read) : [];
      state.readAt = this.clock();
    }
    const covers = (s: FailFastStop): boolean => s.role !== 'test' || s.actor === modelId;
    return state.failFast.stops.find(covers) ?? state.known.find(covers);
  }

  /**
   * Records with the run the stops this worker found since the last call, and returns them (none:
   * empty) — unless `current` says the session is no longer the run's (a resume has queued the run
   * again since): its stops are then dropped, not recorded.
   */
  async record(session: string, runId: string, current: () => Promise<boolean> = async () => true): Promise<readonly FailFastStop[]> {
    const state = this.runs.get(session);
    if (!state || state.failFast.stops.length === state.recorded) return [];
    const fresh = state.failFast.stops.slice(state.recorded);
    state.recorded = state.failFast.stops.length;
    if (!(await current())) return [];
    await this.store.setRunStatus(runId, 'interrupted', { type: 'failFast', stops: fresh });
    return fresh;
  }

  /** Drops what this worker counted of a session (its session closed, `WorkerSessions`): its stops are recorded with the run already. */
  forget(session: string): void {
    this.runs.delete(session);
  }

  private stateOf(session: string, run: RunRecord): RunStops {
    let state = this.runs.get(session);
    if (!state) {
      state = { failFast: new FailFast(run.engine.failFast ?? true, { holdResults: false }), recorded: 0, known: [], readAt: Number.NEGATIVE_INFINITY };
      this.runs.set(session, state);
    }
    return state;
  }
}
