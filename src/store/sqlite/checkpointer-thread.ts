// Runs in a worker thread (see checkpointer.ts): its own connection to the store's file, copying
// committed WAL frames into the database file every few milliseconds so the writer never has to.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 5000');
// PASSIVE: copies what no reader still needs, never waits for the writer nor blocks it. Prepared
// once: a statement prepared on every tick could fail to prepare (the file gone, say) again and
// again, and an exception thrown while the process exits and terminates this thread aborts Node.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
/** Failed passes in a row; past a few hundred ms of them the thread stops (the file is gone, or unreadable here). */
let failures = 0;
const MAX_FAILURES = 50;
const timer = setInterval(() => {
  try {
    checkpoint.get();
    failures = 0;
  } catch {
    // A busy or failed pass is retried on the next tick; the writer's own fallback bounds the WAL meanwhile.
    if (++failures >= MAX_FAILURES) clearInterval(timer);
  }
}, intervalMs);

// "stop": close the connection cleanly (so the writer's close is the last one and tidies the WAL), then end.
parentPort?.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
