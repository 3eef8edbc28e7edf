import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RESERVE_BYTES, reservePath, StatusReserve } from './status-reserve.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-reserve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('StatusReserve', () => {
  it('keeps a file of real blocks beside the store, made again when short, given back once', () => {
    const path = reservePath(join(dir, 'runs.db'));
    assert.equal(path, join(dir, 'runs.db-reserve'));
    const reserve = new StatusReserve(path);
    reserve.ensure();
    const made = statSync(path);
    assert.equal(made.size, RESERVE_BYTES);
    // Blocks on the disk, not a sparse file: deleting it gives the room back.
    assert.ok(made.blocks * 512 >= RESERVE_BYTES, `${made.blocks} blocks`);
    reserve.ensure();
    assert.equal(statSync(path).mtimeMs, made.mtimeMs, 'a whole reserve is left as it is');
    writeFileSync(path, 'short');
    reserve.ensure();
    assert.equal(statSync(path).size, RESERVE_BYTES);
    assert.equal(reserve.spend(), true);
    assert.equal(existsSync(path), false);
    assert.equal(reserve.spend(), false, 'nothing left to give');
  });

  it('never fails the session: a reserve that cannot be made is left out', () => {
    const reserve = new StatusReserve(join(dir, 'no-such-folder', 'runs.db-reserve'));
    reserve.ensure();
    assert.equal(existsSync(join(dir, 'no-such-folder')), false);
    assert.equal(reserve.spend(), false);
  });
});
