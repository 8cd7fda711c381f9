import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mostSevere, SEVERITY } from '../../src/severity.js';

test("the most severe exit code follows CLI.md's order, not the highest number", () => {
  assert.deepEqual(SEVERITY, [1, 9, 3, 4, 5, 8, 7, 6, 2, 10, 0]);
  assert.equal(mostSevere([6, 3]), 3, 'an unreachable device does not hide behind a not-found');
  assert.equal(mostSevere([10, 2]), 2);
  assert.equal(mostSevere([0, 10, 0]), 10);
  assert.equal(mostSevere([7, 8, 6]), 8);
  assert.equal(mostSevere([3, 9]), 9);
  assert.equal(mostSevere([5, 1, 9]), 1);
  assert.equal(mostSevere([]), 0);
  assert.equal(mostSevere([0, 42]), 42, 'a code outside the contract counts as an internal error');
});
