// The rules every table of the device catalogue follows (CLI.md "Every table the device has"): the
// loose IPv4 check, IPv4 values compared by meaning, secrets compared as set or not, the order of
// numbered tables, key 0 and SPEC.md's renamed tables in documents. No device.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allTables, devicePicksKey, findTable, keepsOrder, namesOf } from '../../src/catalogue/index.js';
import { ipv4Meaning, isLooseIpv4 } from '../../src/catalogue/ipv4.js';
import { validateObject } from '../../src/catalogue/validate.js';
import { changedFields, sameValue } from '../../src/objects/compare.js';
import type { Obj } from '../../src/objects/normalize.js';
import { readDocument } from '../../src/plan/document.js';
import { computePlan, requestOf, type Comparison } from '../../src/plan/plan.js';
import { tableNamed } from '../../src/plan/read.js';

const table = (path: string) => findTable(path)!;
const POLICY = 'firewall/policy';

function compare(vdoms: Record<string, Record<string, unknown>>, actual: Record<string, unknown>, prune = false) {
  const desired = readDocument({ vdoms }, 'doc').tables;
  const comparisons: Comparison[] = desired.map((d) => ({
    desired: d,
    actual: actual[`${d.vdom} ${d.table.path}`] as Obj[],
  }));
  return computePlan(comparisons, { prune });
}

describe('IPv4 fields', () => {
  test('the check is loose: an address, with a mask or a prefix, a range, or nothing', () => {
    for (const ok of [
      '10.0.0.1',
      '10.0.0.0 255.255.255.0',
      '10.0.0.0/24',
      '0.0.0.0 0.0.0.0',
      '0.0.0.0/0',
      '10.0.0.1-10.0.0.9',
      '10.0.0.1 - 10.0.0.9',
      '',
      '255.255.255.0',
      '10.0.0.0  255.0.255.0',
      '10.0.0.0/255.255.255.0',
    ]) {
      assert.ok(isLooseIpv4(ok), ok);
    }
    for (const bad of [
      '10.0.0',
      '10.0.0.256',
      'lan',
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0 24',
      '10.0.0.0 255.255.255.0 x',
      '::1',
      '10.0.0.1-',
    ]) {
      assert.ok(!isLooseIpv4(bad), bad);
    }
  });

  test('a body with a value that is not IPv4-shaped is refused, naming the field; a multi-value field takes several', () => {
    const problems = validateObject(table('firewall/address'), { name: 'lan', subnet: '10.0.0.0/33' });
    assert.deepEqual(
      problems.map((p) => [p.kind, p.field]),
      [['format', 'subnet']],
    );
    assert.deepEqual(
      validateObject(table('router/static'), { 'seq-num': 1, dst: '10.0.0.0/8', gateway: '192.0.2.1' }),
      [],
    );
    assert.deepEqual(
      validateObject(table('system.snmp/user'), { name: 'u', 'notify-hosts': '192.0.2.1 192.0.2.2' }),
      [],
    );
    assert.equal(validateObject(table('system.snmp/user'), { name: 'u', 'notify-hosts': '192.0.2.1 host' }).length, 1);
  });

  test('an unknown field, nested or not, gets a "did you mean"', () => {
    const [problem] = validateObject(table(POLICY), { policyid: 1, srcintf: [{ nmae: 'port1' }] });
    assert.match(problem.message, /'srcintf\.0\.nmae' is not a field of this table \(did you mean 'name'\?\)/);
  });

  test('values compare by meaning: a prefix equals its mask, a bare address a /32', () => {
    assert.equal(ipv4Meaning('10.0.0.0/24'), '10.0.0.0 255.255.255.0');
    assert.equal(ipv4Meaning('10.0.0.0 255.255.255.0'), '10.0.0.0 255.255.255.0');
    assert.equal(ipv4Meaning('10.0.0.1'), '10.0.0.1 255.255.255.255');
    assert.equal(ipv4Meaning('0.0.0.0/0'), '0.0.0.0 0.0.0.0');
    const subnet = table('firewall/address').fields.subnet;
    assert.ok(sameValue(subnet, '10.0.0.0/24', '10.0.0.0 255.255.255.0'));
    assert.ok(sameValue(subnet, '192.0.2.7', '192.0.2.7 255.255.255.255'));
    assert.ok(!sameValue(subnet, '10.0.0.0/16', '10.0.0.0 255.255.255.0'));
    assert.ok(!sameValue(subnet, '10.0.1.0/24', '10.0.0.0 255.255.255.0'));
    // Every field of format ipv4, whatever its name: a route's destination, a range.
    const dst = table('router/static').fields.dst;
    assert.ok(sameValue(dst, '0.0.0.0/0', '0.0.0.0 0.0.0.0'));
    assert.ok(sameValue(table('firewall/address').fields['start-ip'], '10.0.0.1', '10.0.0.1'));
    assert.ok(
      sameValue(table('system.snmp/user').fields['notify-hosts'], '192.0.2.2 192.0.2.1', '192.0.2.1 192.0.2.2'),
    );
    // Not a format ipv4 field: text as text.
    assert.ok(!sameValue(table('firewall/address').fields.comment, '10.0.0.0/24', '10.0.0.0 255.255.255.0'));
  });

  test('a plan shows no change for an address written as a prefix that the device answers with a mask', () => {
    const planned = compare(
      { root: { 'firewall/address': [{ name: 'lan', subnet: '10.0.0.0/24' }] } },
      { 'root firewall/address': [{ name: 'lan', subnet: '10.0.0.0 255.255.255.0' }] },
    );
    assert.deepEqual(planned.plan, { create: [], update: [], move: [], delete: [] });
  });
});

describe('secrets', () => {
  test('a password field is set or not: any value on the device, ENC or not, equals any desired value', () => {
    const passwd = table('user/local').fields.passwd;
    assert.equal(passwd.format, 'password');
    assert.ok(sameValue(passwd, 'new secret', 'ENC XXXX'));
    assert.ok(sameValue(passwd, 'ENC AAAA', 'ENC BBBB'));
    assert.ok(sameValue(passwd, 'new secret', 'old secret'));
    assert.ok(sameValue(passwd, '', ''));
    assert.ok(!sameValue(passwd, 'new secret', ''));
    assert.ok(!sameValue(passwd, '', 'ENC XXXX'));
    assert.ok(!sameValue(passwd, null, 'ENC XXXX'));
  });

  test('only a secret set or cleared is a change', () => {
    const fields = table('user/tacacs+').fields;
    assert.deepEqual(
      changedFields(
        fields,
        'name',
        { name: 't', key: 'k1', 'secondary-key': 'k2' },
        { name: 't', key: 'ENC 1', 'secondary-key': '' },
      ),
      { 'secondary-key': { from: '', to: 'k2' } },
    );
  });
});

describe('order and keys', () => {
  test('every numbered table that can be updated keeps its order, firewall policies and static routes among them', () => {
    const ordered = allTables().filter(keepsOrder);
    for (const path of [POLICY, 'router/static', 'firewall/DoS-policy', 'dlp/filepattern'])
      assert.ok(
        ordered.some((t) => t.path === path),
        path,
      );
    assert.ok(ordered.every((t) => t.keyType === 'integer' && !t.singleton && t.operations.includes('U')));
    assert.ok(!ordered.some((t) => t.path === 'firewall/address' || t.path === 'log.disk/setting'));
  });

  test('policies in another order than their ids: the fewest moves, after the creates', () => {
    const policy = (policyid: number) => ({ policyid, name: `p${policyid}`, action: 'accept' });
    const planned = compare(
      { root: { [POLICY]: [policy(3), policy(1), policy(4), policy(2)] } },
      { [`root ${POLICY}`]: [policy(1), policy(2), policy(3)] },
    );
    assert.deepEqual(
      planned.plan.create.map((c) => c.key),
      [4],
    );
    assert.deepEqual(planned.plan.move, [
      { vdom: 'root', table: POLICY, key: 3, before: 1 },
      { vdom: 'root', table: POLICY, key: 4, after: 1 },
    ]);
    assert.deepEqual(
      planned.steps.map((s) => s.action),
      ['create', 'move', 'move'],
    );
    assert.deepEqual(requestOf(planned.steps[1], table(POLICY)).query, { vdom: ['root'], action: 'move', before: '1' });
  });

  test('on an empty table the creates alone give the order: new objects land at the end', () => {
    const planned = compare(
      { root: { [POLICY]: [{ policyid: 9 }, { policyid: 2 }, { policyid: 5 }] } },
      { [`root ${POLICY}`]: [] },
    );
    assert.deepEqual(
      planned.plan.create.map((c) => c.key),
      [9, 2, 5],
    );
    assert.deepEqual(planned.plan.move, []);
  });

  test("key 0: the device picks the key; such an object is the device's of the same name, else created", () => {
    assert.ok(
      devicePicksKey(table(POLICY), 0) &&
        devicePicksKey(table(POLICY), '0') &&
        !devicePicksKey(table('firewall/address'), '0'),
    );
    const planned = compare(
      {
        root: {
          [POLICY]: [{ policyid: 0, name: 'a' }, { policyid: 1 }, { policyid: 0, name: 'b', comments: 'new' }],
        },
      },
      { [`root ${POLICY}`]: [{ policyid: 1 }, { policyid: 2, name: 'b' }, { policyid: 3, name: 'c' }] },
      true,
    );
    assert.deepEqual(
      planned.plan.create.map((c) => [c.key, c.object.name]),
      [[0, 'a']],
    );
    assert.deepEqual(planned.plan.update, [
      { vdom: 'root', table: POLICY, key: 2, changes: { comments: { from: null, to: 'new' } } },
    ]);
    assert.deepEqual(planned.plan.move, []);
    assert.deepEqual(
      planned.plan.delete.map((d) => d.key),
      [3],
    );
    assert.deepEqual(planned.createdAnew, []);
    const unnamed = compare({ root: { 'router/static': [{ 'seq-num': 0 }] } }, { 'root router/static': [] });
    assert.deepEqual(unnamed.createdAnew, [{ vdom: 'root', table: 'router/static', key: 0 }]);
    assert.throws(
      () =>
        readDocument(
          {
            vdoms: {
              root: {
                [POLICY]: [
                  { policyid: 0, name: 'x' },
                  { policyid: 0, name: 'x' },
                ],
              },
            },
          },
          'doc',
        ),
      /repeats the name "x" under key 0/,
    );
    assert.throws(
      () => readDocument({ vdoms: { root: { 'router/static': [{ 'seq-num': 3 }, { 'seq-num': 3 }] } } }, 'doc'),
      /repeats the key/,
    );
  });
});

describe("SPEC.md's renamed tables", () => {
  test('either name in a document is the same table, under the name written; both at once are refused', () => {
    const {
      tables: [spec],
    } = readDocument({ vdoms: { root: { 'log.vendoranalyzer2/filter': { severity: 'information' } } } }, 'doc');
    const {
      tables: [device],
    } = readDocument({ vdoms: { root: { 'log.fortianalyzer2/filter': { severity: 'information' } } } }, 'doc');
    assert.equal(spec.table.path, 'log.vendoranalyzer2/filter');
    assert.equal(device.table.path, 'log.fortianalyzer2/filter');
    assert.equal(device.table.aliasOf, 'log.vendoranalyzer2/filter');
    assert.deepEqual(device.table.fields, spec.table.fields);
    assert.throws(
      () =>
        readDocument({ vdoms: { root: { 'log.vendoranalyzer2/filter': {}, 'log.fortianalyzer2/filter': {} } } }, 'doc'),
      /names the same table twice, as log.vendoranalyzer2\/filter and log.fortianalyzer2\/filter/,
    );
  });

  test('a table is asked under its own name first, then the other; the name that answered is the one written', () => {
    assert.deepEqual(namesOf(table('vpn.ipsec/vendorclient')), ['vpn.ipsec/vendorclient', 'vpn.ipsec/forticlient']);
    assert.deepEqual(namesOf(table('vpn.ipsec/forticlient')), ['vpn.ipsec/forticlient', 'vpn.ipsec/vendorclient']);
    assert.deepEqual(namesOf(table(POLICY)), [POLICY]);
    const asDevice = tableNamed(table('log.vendoranalyzer-cloud/filter'), 'log.fortianalyzer-cloud/filter');
    assert.equal(asDevice.path, 'log.fortianalyzer-cloud/filter');
    assert.equal(asDevice.aliasOf, 'log.vendoranalyzer-cloud/filter');
    const back = tableNamed(asDevice, 'log.vendoranalyzer-cloud/filter');
    assert.equal(back.path, 'log.vendoranalyzer-cloud/filter');
    assert.equal(back.aliasOf, undefined);
  });
});
