// A `.conf` as a plan, without a device: its tables become a document's (global ones once, `vdom` null),
// and its verbs the steps they need against the device's table, none when the device shows them done.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import type { Obj } from '../../src/objects/normalize.js';
import { readConfDocument } from '../../src/plan/document.js';
import { computePlan, requestOf, type Comparison } from '../../src/plan/plan.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

/** The plan of a `.conf` against the device's tables (`vdom table` → objects). */
function plan(conf: string, device: Record<string, Obj[] | Obj>, prune = false) {
  const doc = readConfDocument(conf, 'fw.conf', SHIPPED_CATALOGUE, { vdom: 'root' });
  const comparisons: Comparison[] = doc.tables.map((d) => ({
    desired: d,
    actual: device[`${d.vdom ?? 'global'} ${d.table.path}`] ?? [],
  }));
  return computePlan(comparisons, { prune });
}

const steps = (planned: ReturnType<typeof plan>) =>
  planned.steps.map((s) => {
    const q = requestOf(s, planned.tables.get(s.table)!);
    return `${q.method} ${s.vdom ?? 'global'} ${s.table} ${s.key} ${JSON.stringify(q.body ?? q.query)}`;
  });

describe('a .conf as a plan', () => {
  test('a global table is held once (vdom null) and its verbs are steps there: rename, delete, purge', () => {
    const device = {
      'global system/accprofile': [{ name: 'old-ro' }, { name: 'gone' }, { name: 'extra' }, { name: 'super_admin' }],
    };
    const conf = text(
      'config system accprofile',
      '    rename "old-ro" to "read-only"',
      '    edit "read-only"',
      '        set comments "renamed"',
      '    next',
      '    delete "gone"',
      'end',
    );
    assert.deepEqual(steps(plan(conf, device)), [
      'PUT global system/accprofile old-ro {"name":"read-only"}',
      'PUT global system/accprofile read-only {"comments":"renamed"}',
      'DELETE global system/accprofile gone {}',
    ]);
    const purged = steps(plan(`${conf.replace('    delete "gone"\n', '    purge\n')}`, device));
    assert.deepEqual(
      purged.slice(2),
      ['DELETE global system/accprofile extra {}', 'DELETE global system/accprofile gone {}'],
      'the factory super_admin is kept',
    );
    const done = { 'global system/accprofile': [{ name: 'read-only', comments: 'renamed' }] };
    assert.deepEqual(steps(plan(conf, done)), [], 'renamed and deleted already: nothing to do');
  });

  test('move lines take the place of the document order; one already shown is left out', () => {
    const device = { 'root firewall/policy': [{ policyid: 1 }, { policyid: 2 }, { policyid: 3 }] };
    const conf = text('config firewall policy', '    move 3 before 1', '    move 1 after 3', 'end');
    assert.deepEqual(steps(plan(conf, device)), [
      'PUT root firewall/policy 3 {"vdom":["root"],"action":"move","before":"1"}',
    ]);
  });

  test('the verbs name the file and line when the device does not allow them', () => {
    const device = { 'root firewall/address': [{ name: 'a' }, { name: 'b' }] };
    assert.throws(
      () => plan(text('config firewall address', '    rename "a" to "b"', 'end'), device),
      /fw\.conf:2: rename: firewall\/address "b" \(vdom root\) is already on the device/,
    );
    assert.throws(
      () => plan(text('config firewall address', '    edit "a"', '    next', '    delete "a"', 'end'), device),
      /fw\.conf:4: delete "a": the file also edits/,
    );
    assert.throws(
      () => plan(text('config firewall address', '    move "z" after "a"', 'end'), device),
      /fw\.conf:2: move: there is no firewall\/address "z"/,
    );
  });
});
