import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeModified, isPinned, modifiedDataFiles } from './pinned.js';

const PLUGIN_DES = 'metatool/plugin_des.json';
const PINNED_PLUGIN_DES = 'c446ade5acfb8e16c477124250665021e63b11bf6cb232db04fc9ba6bed0389a';

test('a pinned file read with other bytes is reported with both sums; matching and unpinned files are not', () => {
  const other = '0'.repeat(64);
  const modified = modifiedDataFiles({ [PLUGIN_DES]: other, 'metatool/data/all_clean_data.csv': 'cf2eb0474396677530931def51012da4e88f9f34f655332f04177b2054101baf', '/home/me/my-tools.json': other });
  assert.deepEqual(modified, [{ file: PLUGIN_DES, pinned: PINNED_PLUGIN_DES, actual: other }]);
  assert.equal(describeModified(modified), 'metatool/plugin_des.json (pinned c446ade5acfb…, read 000000000000…)');
  assert.deepEqual(modifiedDataFiles({ 'functionchat/v2.0.0/system_prompt.txt': 'd3119289419168fe2b23d54b85492b9c523427cb71caa1957c1395bdcfa16af9' }), []);
});

test('the derived MetaTool files are pinned too', () => {
  assert.equal(isPinned('metatool/derived/tool_neighbors_top20.json'), true);
  assert.equal(isPinned('metatool/derived/tool_embedding.json'), true);
  assert.equal(isPinned('metatool/nothing.json'), false);
});
