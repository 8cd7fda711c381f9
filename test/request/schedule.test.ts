// runScheduled: the writer under apply and bulk create, which runs steps at once where they wait for
// nothing and after the steps they wait for otherwise.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runScheduled } from '../../src/request/bulk.js';

/** A step that takes a turn of the event loop, recording when it started and ended, and how many ran at once. */
function recorder(fail: Set<number> = new Set()) {
  const events: string[] = [];
  let running = 0;
  let most = 0;
  const work = async (i: number) => {
    events.push(`start ${i}`);
    most = Math.max(most, ++running);
    await new Promise((resolve) => setImmediate(resolve));
    running--;
    events.push(`end ${i}`);
    return !fail.has(i);
  };
  return { events, work, most: () => most };
}

describe('runScheduled', () => {
  test('steps that wait for nothing run together, up to the concurrency', async () => {
    const r = recorder();
    const results = await runScheduled({ count: 6, concurrency: 3, work: r.work, succeeded: (ok) => ok });
    assert.deepEqual(results, [true, true, true, true, true, true]);
    assert.equal(r.most(), 3);
  });

  test('a step starts only after every step it waits for has ended well', async () => {
    const r = recorder();
    const waits = [[], [], [0, 1], [2], []];
    await runScheduled({ count: 5, concurrency: 8, waits: (i) => waits[i], work: r.work, succeeded: (ok) => ok });
    const at = (e: string) => r.events.indexOf(e);
    assert.ok(at('end 0') < at('start 2') && at('end 1') < at('start 2'));
    assert.ok(at('end 2') < at('start 3'));
    assert.ok(at('start 4') < at('end 0'), 'a step waiting for nothing does not wait for the others');
  });

  test('a step whose wait failed never starts; stopped() ends the run after the steps in flight', async () => {
    const failed = recorder(new Set([0]));
    const waits = [[], [0], [1], []];
    const results = await runScheduled({
      count: 4,
      concurrency: 8,
      waits: (i) => waits[i],
      work: failed.work,
      succeeded: (ok) => ok,
    });
    assert.deepEqual(results, [false, undefined, undefined, true]);

    const r = recorder(new Set([1]));
    let stop = false;
    const stopped = await runScheduled({
      count: 6,
      concurrency: 2,
      work: async (i) => {
        const ok = await r.work(i);
        if (!ok) stop = true;
        return ok;
      },
      succeeded: (ok) => ok,
      stopped: () => stop,
    });
    assert.deepEqual(stopped.slice(0, 2), [true, false]);
    assert.ok(
      stopped.slice(3).every((x) => x === undefined),
      'no new step after the failure',
    );
  });

  test('with a concurrency of 1, the steps run in their order', async () => {
    const r = recorder();
    await runScheduled({ count: 4, concurrency: 1, work: r.work, succeeded: () => true });
    assert.deepEqual(
      r.events.filter((e) => e.startsWith('start')),
      ['start 0', 'start 1', 'start 2', 'start 3'],
    );
  });
});
