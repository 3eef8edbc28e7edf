import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonStrListRepr, pythonStrRepr } from './python-repr.js';

// Expected values are CPython 3 output of repr(...) for the same strings (written out by hand here).
describe('pythonStrRepr', () => {
  it('uses single quotes by default', () => {
    assert.equal(pythonStrRepr('plain'), "'plain'");
    assert.equal(pythonStrRepr(''), "''");
  });

  it("switches to double quotes when the text has ' and no \"", () => {
    assert.equal(pythonStrRepr("it's"), `"it's"`);
  });

  it('keeps single quotes and leaves " alone when there is no \'', () => {
    assert.equal(pythonStrRepr('say "hi"'), `'say "hi"'`);
  });

  it("escapes ' when the text has both quote kinds", () => {
    assert.equal(pythonStrRepr(`both ' and "`), `'both \\' and "'`);
  });

  it('escapes backslash, tab, newline and carriage return', () => {
    assert.equal(pythonStrRepr('back\\slash'), "'back\\\\slash'");
    assert.equal(pythonStrRepr('tab\there\nnew\rcr'), "'tab\\there\\nnew\\rcr'");
  });

  it('escapes other non-printable characters as \\x, \\u or \\U', () => {
    assert.equal(pythonStrRepr('bell\x07 del\x7f nbsp\xa0 shy\xad'), "'bell\\x07 del\\x7f nbsp\\xa0 shy\\xad'");
    assert.equal(pythonStrRepr('line\u2028sep'), "'line\\u2028sep'");
    assert.equal(pythonStrRepr('zw\u200bsp'), "'zw\\u200bsp'");
    assert.equal(pythonStrRepr('tag \u{e0001}'), "'tag \\U000e0001'");
  });

  it('keeps printable non-ASCII text (dashes, curly quotes, emoji, variation selectors)', () => {
    assert.equal(pythonStrRepr('em — dash ’ emoji 🍽 vs\ufe0f'), "'em — dash ’ emoji 🍽 vs\ufe0f'");
  });
});

describe('pythonStrListRepr', () => {
  it('joins element reprs with ", " inside brackets', () => {
    assert.equal(pythonStrListRepr(["it's", 'x']), `["it's", 'x']`);
    assert.equal(pythonStrListRepr([]), '[]');
  });
});
