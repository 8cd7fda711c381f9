// The config-as-code library: documents, the comparison rules and plans, without a device.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allTables, findTable, keepsOrder } from '../../src/catalogue/index.js';
import { changedFields, sameValue } from '../../src/objects/compare.js';
import type { Obj } from '../../src/objects/normalize.js';
import { buildDocument, readDocument } from '../../src/plan/document.js';
import { orderMoves } from '../../src/plan/order.js';
import { computePlan, planIsEmpty, redactPlan, requestOf, type Comparison } from '../../src/plan/plan.js';

const table = (path: string) => findTable(path)!;
const BINDINGS = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';

function compare(vdoms: Record<string, Record<string, unknown>>, actual: Record<string, unknown>, prune = false) {
  const desired = readDocument({ vdoms }, 'doc').tables;
  const comparisons: Comparison[] = desired.map((d) => ({
    desired: d,
    actual: actual[`${d.vdom} ${d.table.path}`] as Obj[],
  }));
  return computePlan(comparisons, { prune });
}

describe('documents', () => {
  test('drop q_* fields and order fields stably: key first, then the catalogue order, then others by name', () => {
    const {
      tables: [t],
    } = readDocument(
      {
        vdoms: {
          root: {
            [ACL]: [
              { comments: 'c', q_origin_key: 'a', name: 'a', rule: [{ action: 'deny', q_origin_key: 1, id: 1 }] },
            ],
          },
        },
      },
      'doc',
    );
    const [object] = t.content as Obj[];
    assert.deepEqual(Object.keys(object), ['name', 'comments', 'rule']);
    assert.deepEqual(object.rule, [{ id: 1, action: 'deny' }]);
  });

  test('refuse what is not a document, naming where', () => {
    const bad: [unknown, RegExp][] = [
      [{ root: {} }, /not a config document/],
      [{ vdoms: { root: { 'no/such-table': [] } } }, /not a table of the catalogue/],
      [{ vdoms: { root: { 'log.disk/setting': [] } } }, /singleton table/],
      [{ vdoms: { root: { [BINDINGS]: { ip: '1.1.1.1' } } } }, /keyed table/],
      [{ vdoms: { root: { [BINDINGS]: [{ ip: '1.1.1.1' }] } } }, /object 1\) has no 'seq-num'/],
      [{ vdoms: { root: { [BINDINGS]: [{ 'seq-num': 1 }, { 'seq-num': '1' }] } } }, /repeats the key/],
      [{ vdoms: { dmz: { [BINDINGS]: [{ 'seq-num': 1, status: 'maybe' }] } } }, /vdom dmz, object 1\).*status/],
    ];
    for (const [doc, message] of bad) assert.throws(() => readDocument(doc, 'doc'), message);
  });
});

describe('comparison rules', () => {
  const disk = table('log.disk/setting');
  test('numbers and numeric strings by value; strings exactly', () => {
    assert.ok(sameValue({ type: 'integer' }, 5, '5'));
    assert.ok(sameValue({ type: 'string' }, '10', 10));
    assert.ok(!sameValue({ type: 'string' }, 'a', 'A'));
    assert.ok(!sameValue({ type: 'integer' }, 5, 6));
  });
  test('multiple fields as sets of words', () => {
    assert.ok(sameValue(disk.fields['roll-day'], 'monday tuesday', 'tuesday  monday'));
    assert.ok(!sameValue(disk.fields['roll-day'], 'monday tuesday', 'monday'));
    assert.ok(!sameValue({ type: 'string' }, 'monday tuesday', 'tuesday monday'), 'only multiple fields are sets');
  });
  test('a secret the device returns as ENC ... equals anything', () => {
    assert.ok(sameValue(disk.fields.uploadpass, 'plain', 'ENC AbCd=='));
    assert.ok(!sameValue(disk.fields.uploadpass, 'plain', ''));
  });
  test('named members are a set; numbered entries keep their order; only stated fields count', () => {
    const member = table('vpn.ipsec/concentrator').fields.member;
    assert.ok(
      sameValue(
        member,
        [{ name: 'a' }, { name: 'b' }],
        [
          { name: 'b', q_origin_key: 'b' },
          { name: 'a', q_origin_key: 'a' },
        ],
      ),
    );
    assert.ok(!sameValue(member, [{ name: 'a' }], [{ name: 'a' }, { name: 'b' }]));
    const rule = table(ACL).fields.rule;
    const device = [
      { id: 1, action: 'permit', prefix: '10.0.0.0 255.0.0.0' },
      { id: 2, action: 'deny', prefix: '0.0.0.0 0.0.0.0' },
    ];
    assert.ok(sameValue(rule, [{ id: 1, action: 'permit' }, { id: 2 }], device));
    assert.ok(!sameValue(rule, [{ id: 2 }, { id: 1 }], device), 'rules are ordered');
    assert.ok(!sameValue(rule, [{ id: 1, action: 'deny' }, { id: 2 }], device));
  });
  test('only fields the document states are compared, the key aside', () => {
    const t = table(BINDINGS);
    assert.deepEqual(
      changedFields(
        t.fields,
        'seq-num',
        { 'seq-num': 1, ip: '10.0.0.1' },
        { 'seq-num': 1, ip: '10.0.0.1', name: 'other' },
      ),
      {},
    );
    assert.deepEqual(
      changedFields(t.fields, 'seq-num', { 'seq-num': 1, ip: '10.0.0.2' }, { 'seq-num': 1, ip: '10.0.0.1' }),
      { ip: { from: '10.0.0.1', to: '10.0.0.2' } },
    );
  });
});

describe('plans', () => {
  const device = {
    [`root ${BINDINGS}`]: [
      { 'seq-num': 1, ip: '10.0.0.1', q_origin_key: 1 },
      { 'seq-num': 2, ip: '10.0.0.2' },
      { 'seq-num': 3, ip: '10.0.0.3' },
    ],
    [`root ${ACL}`]: [{ name: 'x' }],
    'root log.disk/setting': { status: 'enable', 'roll-day': 'monday' },
  };
  const desired = {
    root: {
      [BINDINGS]: [
        { 'seq-num': 1, ip: '10.0.0.1' },
        { 'seq-num': '2', ip: '10.0.0.9' },
        { 'seq-num': 4, ip: '10.0.0.4' },
      ],
      [ACL]: [],
      'log.disk/setting': { status: 'disable', 'roll-day': 'monday' },
    },
  };

  test('create, update (changed fields only), and with prune delete, in apply order', () => {
    const { plan, steps } = compare(desired, device, true);
    assert.deepEqual(plan.create, [
      { vdom: 'root', table: BINDINGS, key: 4, object: { 'seq-num': 4, ip: '10.0.0.4' } },
    ]);
    assert.deepEqual(plan.update, [
      { vdom: 'root', table: BINDINGS, key: 2, changes: { ip: { from: '10.0.0.2', to: '10.0.0.9' } } },
      { vdom: 'root', table: 'log.disk/setting', key: null, changes: { status: { from: 'enable', to: 'disable' } } },
    ]);
    assert.deepEqual(plan.delete, [
      { vdom: 'root', table: BINDINGS, key: 3 },
      { vdom: 'root', table: ACL, key: 'x' },
    ]);
    assert.deepEqual(
      steps.map((s) => `${s.action} ${s.table} ${s.key}`),
      [
        `update ${BINDINGS} 2`,
        `create ${BINDINGS} 4`,
        'update log.disk/setting null',
        `delete ${ACL} x`,
        `delete ${BINDINGS} 3`,
      ],
    );
  });

  test('without prune nothing is deleted; an identical document plans nothing', () => {
    assert.deepEqual(compare(desired, device).plan.delete, []);
    const same = { root: { [BINDINGS]: device[`root ${BINDINGS}`], 'log.disk/setting': { status: 'enable' } } };
    const { plan, steps } = compare(same, device, true);
    assert.deepEqual(plan, { create: [], update: [], move: [], delete: [] });
    assert.deepEqual(steps, []);
  });

  test('requests: POST the object, PUT only the changed fields, DELETE by key, in the VDOM', () => {
    const { steps, tables } = compare(desired, device, true);
    const requests = steps.map((s) => requestOf(s, tables.get(s.table)!));
    assert.deepEqual(
      requests.map((r) => [r.method, r.tablePath, r.mkey, r.body, r.query]),
      [
        ['PUT', BINDINGS, 2, { ip: '10.0.0.9' }, { vdom: ['root'] }],
        ['POST', BINDINGS, undefined, { 'seq-num': 4, ip: '10.0.0.4' }, { vdom: ['root'] }],
        ['PUT', 'log.disk/setting', undefined, { status: 'disable' }, { vdom: ['root'] }],
        ['DELETE', ACL, 'x', undefined, { vdom: ['root'] }],
        ['DELETE', BINDINGS, 3, undefined, { vdom: ['root'] }],
      ],
    );
  });

  test('secrets are redacted in what is printed, not in what is sent', () => {
    const planned = compare(
      { root: { 'log.disk/setting': { uploadpass: 'hunter2' } } },
      { 'root log.disk/setting': { uploadpass: '' } },
    );
    assert.deepEqual(redactPlan(planned).update[0].changes, { uploadpass: { from: '', to: '<redacted>' } });
    assert.deepEqual(requestOf(planned.steps[0], planned.tables.get('log.disk/setting')!).body, {
      uploadpass: 'hunter2',
    });
  });
});

describe('order', () => {
  /** The keys after carrying out the moves, as the device does. */
  function moved(device: number[], moves: ReturnType<typeof orderMoves>): number[] {
    const keys = [...device];
    for (const move of moves) {
      keys.splice(keys.indexOf(move.key as number), 1);
      const anchor = keys.indexOf(('before' in move ? move.before : move.after) as number);
      keys.splice(anchor + ('before' in move ? 0 : 1), 0, move.key as number);
    }
    return keys;
  }

  test('the fewest moves, each anchored on an object already in place, give the document order', () => {
    const cases: [number[], number[], number][] = [
      [[1, 2, 3, 4], [1, 2, 3, 4], 0],
      [[1, 2, 3, 4], [2, 1, 3, 4], 1],
      [[1, 2, 3, 4], [4, 1, 2, 3], 1],
      [[1, 2, 3, 4], [2, 3, 4, 1], 1],
      [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], 4],
      [[9, 1, 8, 2, 3], [3, 2, 1], 2],
    ];
    for (const [device, desired, count] of cases) {
      const moves = orderMoves(device, desired);
      assert.equal(moves.length, count, `${device} → ${desired}: ${JSON.stringify(moves)}`);
      const after = moved(device, moves).filter((k) => desired.includes(k));
      assert.deepEqual(after, desired, `${device} → ${desired}: ${JSON.stringify(moves)}`);
    }
    // Every permutation of six objects, among others the document does not list.
    const permute = (xs: number[]): number[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => permute([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    for (const desired of permute([1, 2, 3, 4, 5, 6])) {
      const device = [7, 1, 2, 8, 3, 4, 5, 6, 9];
      assert.deepEqual(
        moved(device, orderMoves(device, desired)).filter((k) => k < 7),
        desired,
      );
    }
  });

  test('the catalogue keeps the order of numbered tables that can be updated, never of named ones or singletons', () => {
    const ordered = allTables().filter(keepsOrder);
    assert.equal(ordered.length, 75);
    assert.deepEqual(
      ordered.filter((t) => t.spec).map((t) => t.path),
      [
        'dlp/filepattern',
        'emailfilter/bwl',
        'emailfilter/bword',
        'firewall.ipmacbinding/table',
        'system.3g-modem/custom',
        'webfilter/content',
        'webfilter/content-header',
      ],
    );
    const paths = ordered.map((t) => t.path);
    assert.ok(paths.includes('firewall/policy') && paths.includes('router/static'));
    assert.ok(!paths.includes('firewall/address') && !paths.includes('log.disk/setting'));
  });

  const BWL = 'emailfilter/bwl';
  const bwl = (...ids: number[]) => ids.map((id) => ({ id, name: `list-${id}` }));

  test('a table whose order matters: moves after the creates, before the deletes; requests PUT action=move', () => {
    const planned = compare({ root: { [BWL]: bwl(3, 1, 4, 2) } }, { [`root ${BWL}`]: bwl(1, 2, 3, 5) }, true);
    assert.deepEqual(planned.plan.move, [
      { vdom: 'root', table: BWL, key: 3, before: 1 },
      { vdom: 'root', table: BWL, key: 4, after: 1 },
    ]);
    assert.deepEqual(
      planned.steps.map((s) => `${s.action} ${s.key}`),
      ['create 4', 'move 3', 'move 4', 'delete 5'],
    );
    const requests = planned.steps.map((s) => requestOf(s, planned.tables.get(s.table)!));
    assert.deepEqual(
      requests.slice(1, 3).map((r) => [r.method, r.mkey, r.body, r.query]),
      [
        ['PUT', 3, undefined, { vdom: ['root'], action: 'move', before: '1' }],
        ['PUT', 4, undefined, { vdom: ['root'], action: 'move', after: '1' }],
      ],
    );
    assert.deepEqual(
      compare({ root: { [BWL]: bwl(1, 3) } }, { [`root ${BWL}`]: bwl(1, 2, 3) }).plan.move,
      [],
      'objects the document does not list do not count',
    );
  });

  test('a table whose order does not matter never reports it', () => {
    const planned = compare(
      { root: { [ACL]: [{ name: 'b' }, { name: 'a' }] } },
      { [`root ${ACL}`]: [{ name: 'a' }, { name: 'b' }] },
    );
    assert.deepEqual(planned.plan, { create: [], update: [], move: [], delete: [] });
  });
});

describe('the document around the tables: global:, device:, defaults:', () => {
  test('global tables come first and once; a copy under each VDOM is the same table, copies that differ are refused', () => {
    const read = readDocument(
      {
        defaults: 'excluded',
        device: { serial: 'FGT60F0000000001', version: 'v6.4.14' },
        vdoms: { root: { [ACL]: [], 'system/dns': { timeout: 3 } }, dmz: { 'system/dns': { timeout: 3 } } },
      },
      'doc',
    );
    assert.deepEqual(
      read.tables.map((t) => [t.vdom, t.table.path]),
      [
        [null, 'system/dns'],
        ['root', ACL],
      ],
    );
    assert.deepEqual(read.device, { serial: 'FGT60F0000000001', version: 'v6.4.14' });
    assert.equal(read.defaultsExcluded, true);
    const bad: [unknown, RegExp][] = [
      [
        { vdoms: { root: { 'system/dns': { timeout: 3 } }, dmz: { 'system/dns': { timeout: 4 } } } },
        /different copies/,
      ],
      [{ global: { [ACL]: [] } }, /not a global table/],
      [{ defaults: 'omitted', vdoms: {} }, /'defaults' must be 'excluded'/],
      [{ device: { serial: ['x'] }, vdoms: {} }, /'device' must be \{serial, version\}/],
      [{ vdoms: {}, extra: 1 }, /unknown top-level field 'extra'/],
    ];
    for (const [doc, message] of bad) assert.throws(() => readDocument(doc, 'doc'), message);
  });

  test('a document is written defaults:, device:, global:, vdoms:, in that order, each only when it has something', () => {
    const { tables } = readDocument(
      { global: { 'system/dns': { timeout: 3 } }, vdoms: { root: { [ACL]: [] } } },
      'doc',
    );
    const written = buildDocument(tables, { device: { serial: 'S', version: 'v6.4.14' }, defaultsExcluded: true });
    assert.deepEqual(Object.keys(written), ['defaults', 'device', 'global', 'vdoms']);
    assert.deepEqual(Object.keys(buildDocument(tables.slice(0, 1))), ['global']);
    assert.deepEqual(Object.keys(buildDocument(tables.slice(1))), ['vdoms']);
  });
});

describe('what a plan leaves out', () => {
  const address = table('firewall/address');
  const at = (content: unknown, actual: unknown, vdom: string | null = 'root', t = address): Comparison => ({
    desired: { vdom, table: t, content: content as Obj[] },
    actual: actual as Obj[],
  });

  test('a left-out field is compared with the default where the document leaves out defaults; never the key or a UUID', () => {
    const defaults = {
      name: '',
      uuid: '00000000-0000-0000-0000-000000000000',
      comment: '',
      color: 0,
      'sub-type': 'sdn',
    };
    const current = { name: 'a', uuid: '5a1d...', comment: 'x', color: 0 };
    const planned = computePlan([{ ...at([{ name: 'a' }], [current]), defaults }], { prune: false });
    // `sub-type` is not shown on the device: not compared.
    assert.deepEqual(planned.plan.update, [
      { vdom: 'root', table: 'firewall/address', key: 'a', changes: { comment: { from: 'x', to: '' } } },
    ]);
    const ignored = computePlan([{ ...at([{ name: 'a' }], [current]), defaults }], {
      prune: false,
      ignoreFields: new Set(['comment']),
    });
    assert.deepEqual(ignored.plan.update, []);
  });

  test('--prune keeps factory objects, q_static objects and VDOMs', () => {
    const planned = computePlan(
      [
        at([], [{ name: 'all' }, { name: 'mine', q_static: true }, { name: 'extra' }]),
        at([{ name: 'root' }], [{ name: 'root' }, { name: 'dmz' }], null, table('system/vdom')),
      ],
      { prune: true },
    );
    assert.deepEqual(planned.plan.delete, [{ vdom: 'root', table: 'firewall/address', key: 'extra' }]);
  });

  test("a change the table's operations cannot make is left out of the plan, and said", () => {
    const certificates = table('certificate/local');
    const planned = computePlan([at([{ name: 'imported' }], [], null, certificates)], { prune: true });
    assert.ok(planIsEmpty(planned.plan));
    assert.deepEqual(
      planned.notRestorable.map((s) => [s.action, s.key]),
      [['create', 'imported']],
    );
  });

  test('plain-text secrets are listed as not compared, or sent with setSecrets; ENC values never', () => {
    const users = table('user/local');
    const comparison = at(
      [
        { name: 'bob', passwd: 'N3w' },
        { name: 'eve', passwd: 'ENC abc' },
      ],
      [
        { name: 'bob', passwd: 'ENC old' },
        { name: 'eve', passwd: 'ENC old' },
      ],
      'root',
      users,
    );
    const noted = computePlan([comparison], { prune: false });
    assert.deepEqual(noted.plan.update, []);
    assert.deepEqual(noted.secrets, [{ vdom: 'root', table: 'user/local', key: 'bob', field: 'passwd' }]);
    const sent = computePlan([comparison], { prune: false, setSecrets: true });
    assert.deepEqual(sent.plan.update, [
      { vdom: 'root', table: 'user/local', key: 'bob', changes: { passwd: { from: 'ENC old', to: 'N3w' } } },
    ]);
    assert.deepEqual(sent.secrets, []);
  });
});
