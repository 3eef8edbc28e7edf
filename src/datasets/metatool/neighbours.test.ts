import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nearestNeighbours } from './neighbours.js';

// 2-d vectors with exact cosines: A, B point along x; C, E, F along y; D and G along (3, 4).
const vectors = new Map<string, number[]>([
  ['A', [1, 0]],
  ['B', [2, 0]],
  ['C', [0, 1]],
  ['D', [3, 4]],
  ['E', [0, 3]],
  ['F', [0, 2]],
  ['G', [6, 8]],
]);
const tools = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

describe('nearestNeighbours', () => {
  it('orders by cosine, not by raw dot product', () => {
    // cos(A,B)=1, cos(A,D)=3/5=cos(A,G)=6/10 (G has the largest dot product, 6 > 2), cos(A,C/E/F)=0.
    assert.deepEqual(nearestNeighbours(tools, vectors, 4).get('A'), ['A', 'B', 'D', 'G']);
  });

  it('breaks ties by name', () => {
    // From C: E and F at cosine 1, D and G at 4/5 = 8/10, A and B at 0.
    assert.deepEqual(nearestNeighbours(tools, vectors, 7).get('C'), ['C', 'E', 'F', 'D', 'G', 'A', 'B']);
  });

  it('puts the tool itself first even when another tool points the same way', () => {
    assert.deepEqual(nearestNeighbours(tools, vectors, 2).get('B'), ['B', 'A']);
    assert.deepEqual(nearestNeighbours(tools, vectors, 2).get('G'), ['G', 'D']);
  });

  it('only considers the listed tools', () => {
    assert.deepEqual(nearestNeighbours(['A', 'C', 'E'], vectors, 3).get('A'), ['A', 'C', 'E']);
  });
});
