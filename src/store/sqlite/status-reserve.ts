import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';

/**
 * Room kept beside a SQLite store so that a run can still say how it ended on a disk full to the
 * last byte. A run that meets a full disk stops as `interrupted`; writing that status is one small
 * transaction (the lease row deleted, the run's row updated: a few 8 KB pages appended to the WAL),
 * and on a disk with no byte left even that fails, so the run would read `running` until its lease
 * lapsed, then `stale`. A file of {@link RESERVE_BYTES} made when a session takes a run's lease is
 * given back (deleted) when that write meets a full disk, and the write is tried once more in the
 * room it leaves; the next session to take a lease makes it again.
 *
 * One file per store, shared by the processes on it (`<db>-reserve`, beside SQLite's `-wal` and
 * `-shm`): any of them may spend it, and whoever takes the next lease remakes it.
 */
export const RESERVE_BYTES = 1024 * 1024;

export const reservePath = (file: string): string => `${file}-reserve`;

export class StatusReserve {
  constructor(private readonly path: string) {}

  /**
   * Makes the reserve if it is missing or short (a crash while it was written). Never fails the
   * session: a disk with no room for it now is told later, by the status write it could not save.
   */
  ensure(): void {
    try {
      if (statSync(this.path).size >= RESERVE_BYTES) return;
    } catch {
      // missing: made below
    }
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'w', 0o600);
      // Written, not truncated to size: a sparse file would hold no blocks to give back.
      const chunk = Buffer.alloc(64 * 1024);
      for (let written = 0; written < RESERVE_BYTES; written += chunk.length) writeSync(fd, chunk);
    } catch {
      // No room (or no write access) for it: a partial reserve would only take the disk's last bytes.
      this.spend();
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Gives the reserve's room back to the file system; true when there was a reserve to give. */
  spend(): boolean {
    try {
      rmSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}
