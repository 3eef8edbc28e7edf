import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { storeContract } from '../test-support/store-contract.js';
import { openSqliteStore } from './sqlite-store.js';

// The backend-neutral Store contract, on SQLite: each location is a new file.
const dir = mkdtempSync(join(tmpdir(), 'assay-sqlite-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
storeContract({
  name: 'SQLite',
  fresh: async () => {
    const file = join(dir, `store-${++files}.db`);
    return { open: () => openSqliteStore(file) };
  },
});
