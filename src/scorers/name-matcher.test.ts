import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldCase, nameMatcher } from './name-matcher.js';

describe('nameMatcher', () => {
  it('reports every whole-word occurrence, overlapping ones included, by start and longer first', () => {
    const matcher = nameMatcher(['URLTool', 'PDF&URLTool', 'PDF'], { caseSensitive: false });
    // "see pdf&urltool": 4..15 is PDF&URLTool, 4..7 is PDF, 8..15 is URLTool.
    assert.deepEqual(matcher.find('see pdf&urltool'), [
      { name: 'PDF&URLTool', start: 4, end: 15 },
      { name: 'PDF', start: 4, end: 7 },
      { name: 'URLTool', start: 8, end: 15 },
    ]);
  });

  it('honours case sensitivity', () => {
    const sensitive = nameMatcher(['Now'], { caseSensitive: true });
    assert.deepEqual(sensitive.find('now and Now'), [{ name: 'Now', start: 8, end: 11 }]);
    const insensitive = nameMatcher(['Now'], { caseSensitive: false });
    assert.deepEqual(insensitive.find('now and Now').map((o) => o.start), [0, 8]);
  });

  it('finds a name at the very start and end of the text, and repeated or adjacent occurrences', () => {
    const matcher = nameMatcher(['ab'], { caseSensitive: true });
    assert.deepEqual(matcher.find('ab ab,ab'), [
      { name: 'ab', start: 0, end: 2 },
      { name: 'ab', start: 3, end: 5 },
      { name: 'ab', start: 6, end: 8 },
    ]);
    assert.deepEqual(matcher.find('abab ab_ab'), []);
  });

  it('matches names literally, whatever characters they contain', () => {
    const matcher = nameMatcher(['a.b', 'C++ (beta)', 'what?', '[x]'], { caseSensitive: true });
    assert.deepEqual(matcher.find('axb C++ (beta) what? [x]').map((o) => o.name), ['C++ (beta)', 'what?', '[x]']);
  });

  it('drops blank and duplicate names and keeps list order', () => {
    const insensitive = nameMatcher(['b', '', 'ccc', 'B', ' ', 'aa'], { caseSensitive: false });
    assert.deepEqual(insensitive.names, ['b', 'ccc', 'aa']);
    const sensitive = nameMatcher(['b', 'B', 'b'], { caseSensitive: true });
    assert.deepEqual(sensitive.names, ['b', 'B']);
  });

  it('an empty list finds nothing', () => {
    assert.deepEqual(nameMatcher([], { caseSensitive: false }).find('anything at all'), []);
    assert.deepEqual(nameMatcher([''], { caseSensitive: false }).find('anything at all'), []);
  });

  it('finds nothing in an empty text', () => {
    assert.deepEqual(nameMatcher(['x'], { caseSensitive: false }).find(''), []);
  });

  it('keeps positions right in non-ASCII text whose lowercase is longer', () => {
    // "İ" (U+0130) lowercases to two code units; positions must still point into the original.
    const text = 'İİ then MapTool';
    const [found] = nameMatcher(['maptool'], { caseSensitive: false }).find(text);
    assert.deepEqual(found, { name: 'maptool', start: 8, end: 15 });
    assert.equal(text.slice(8, 15), 'MapTool');
  });
});

describe('nameMatcher cache', () => {
  it('reuses the matcher for the same array', () => {
    const names = ['x', 'y'];
    assert.equal(nameMatcher(names, { caseSensitive: true }), nameMatcher(names, { caseSensitive: true }));
    assert.notEqual(nameMatcher(names, { caseSensitive: false }), nameMatcher(names, { caseSensitive: true }));
  });

  it('notices an array changed after its first use', () => {
    const names = ['alpha'];
    assert.equal(nameMatcher(names, { caseSensitive: true }).find('beta').length, 0);
    names[0] = 'beta';
    assert.deepEqual(nameMatcher(names, { caseSensitive: true }).find('beta'), [{ name: 'beta', start: 0, end: 4 }]);
  });
});

describe('foldCase', () => {
  it('lowercases ASCII and other scripts', () => {
    assert.equal(foldCase('PDF&URLTool'), 'pdf&urltool');
    assert.equal(foldCase('ÄÖÜ Straße'), 'äöü straße');
  });

  it('never changes the length', () => {
    assert.equal(foldCase('İx'), 'İx');
    assert.equal(foldCase('İX').length, 2);
  });
});
