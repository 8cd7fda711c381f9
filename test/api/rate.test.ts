// The device's rate limit (429 on ordinary requests): how long to wait, and how a run slows down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitDelayMs, RateGate } from '../../src/api/rate.js';

test('Retry-After is honoured; without it the wait doubles, with jitter, from half a second', () => {
  assert.equal(rateLimitDelayMs(1, 3), 3000);
  for (const [attempt, ceiling] of [
    [1, 500],
    [2, 1000],
    [3, 2000],
    [4, 4000],
  ]) {
    assert.equal(
      rateLimitDelayMs(attempt, null, () => 0),
      ceiling / 2,
    );
    assert.equal(
      rateLimitDelayMs(attempt, null, () => 0.999999),
      Math.round(ceiling / 2 + (0.999999 * ceiling) / 2),
    );
  }
});

test('after a 429 the requests in flight are halved, down to one, and grow back with successes', async () => {
  const gate = new RateGate();
  for (let i = 0; i < 8; i++) await gate.enter();
  gate.limited(0);
  for (let i = 0; i < 8; i++) gate.leave();
  // Now at most 4 at once: the fifth waits until one leaves.
  for (let i = 0; i < 4; i++) await gate.enter();
  let fifth = false;
  const waiting = gate.enter().then(() => (fifth = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(fifth, false, 'the fifth request waits');
  gate.leave();
  await waiting;
  assert.equal(fifth, true);
  // Another 429 with four in flight: two at once.
  gate.limited(0);
  for (let i = 0; i < 4; i++) gate.leave();
  await gate.enter();
  await gate.enter();
  let third = false;
  const blocked = gate.enter().then(() => (third = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(third, false);
  // Two successes at a limit of two: room for one more.
  gate.succeeded();
  gate.succeeded();
  await blocked;
  assert.equal(third, true);
});
