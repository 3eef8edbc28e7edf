// Runs in a worker thread (see checkpointer.ts): its own connection to the store's file, copying
// committed WAL frames into the database file every few milliseconds so the writer never has to.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    // PASSIVE: copies what no reader still needs, never waits for the writer nor blocks it.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy or failed pass is retried on the next tick; the writer's own fallback bounds the WAL meanwhile.
  }
}, intervalMs);

// "stop": close the connection cleanly (so the writer's close is the last one and tidies the WAL), then end.
parentPort?.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
