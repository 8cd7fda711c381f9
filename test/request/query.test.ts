import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allTables, findTable, type TableDef } from '../../src/catalogue/index.js';
import { tableFromSchema } from '../../src/catalogue/device-schema.js';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { parseFilter, readQuery } from '../../src/request/query.js';
import { parseMkey, requireOperation, resolveTable } from '../../src/request/table.js';
import { UsageError } from '../../src/errors.js';
import { captureIO, offlineContext } from '../helpers/io.js';

const table = (path: string) => findTable(path) as TableDef;

test('all eight filter operators, with OR inside one filter', () => {
  const t = table('router/access-list');
  for (const op of ['==', '!=', '=@', '!@', '<=', '<', '>=', '>'])
    assert.equal(parseFilter(t, `name${op}x`), `name${op}x`);
  assert.equal(parseFilter(t, 'name==a,name==b'), 'name==a,name==b');
});

test('a filter with no known operator, or on an unknown field, is a usage error', () => {
  const t = table('router/access-list');
  assert.throws(
    () => parseFilter(t, 'name~x'),
    (e: unknown) => e instanceof UsageError && /no known operator/.test(e.message),
  );
  assert.throws(() => parseFilter(t, 'name==a,oops'), /no known operator/);
  assert.throws(() => parseFilter(t, 'nmae==a'), /not a field/);
});

test('list options become query parameters', () => {
  const q = readQuery(table('firewall.ipmacbinding/table'), {
    fields: 'ip,mac',
    filter: ['ip=@10.'],
    start: '5',
    count: '10',
    withMeta: true,
    scope: 'vdom',
    key: 'name',
    pattern: 'x',
  });
  assert.deepEqual(q.format, ['ip', 'mac']);
  assert.equal(q.start, 5);
  assert.equal(q.count, 10);
  assert.equal(q.with_meta, true);
  assert.throws(() => readQuery(table('firewall.ipmacbinding/table'), { key: 'name' }), /go together/);
  assert.throws(() => readQuery(table('firewall.ipmacbinding/table'), { count: '-1' }), /invalid --count/);
  assert.throws(() => readQuery(table('firewall.ipmacbinding/table'), { scope: 'all' }), /invalid --scope/);
});

test('integer keys must be integers', () => {
  assert.equal(parseMkey(table('dlp/filepattern'), '7', { vdoms: undefined }), 7);
  assert.throws(() => parseMkey(table('dlp/filepattern'), '7a', { vdoms: undefined }), UsageError);
  assert.equal(parseMkey(table('router/access-list'), '10.0.0.0/8', { vdoms: undefined }), '10.0.0.0/8');
});

test('a name typed for the integer key of any table with a name field gets the list that finds it by name', () => {
  const hintOf = (t: TableDef, raw: string, existing: { vdoms: string[] | undefined } | null) => {
    try {
      parseMkey(t, raw, existing);
    } catch (e) {
      if (e instanceof UsageError) return e.hint;
    }
    assert.fail(`${t.path} took '${raw}'`);
  };
  const named = allTables().filter((t) => t.keyType === 'integer' && t.fields.name && t.operations.includes('L'));
  assert.ok(named.length > 30);
  for (const t of named)
    assert.equal(hintOf(t, 'web', { vdoms: undefined }), `find it by name: cmdb list ${t.path} --filter name==web`);
  const policy = table('firewall/policy');
  assert.equal(
    hintOf(policy, String.raw`a,b c\d`, { vdoms: ['*'] }),
    // The filter's escapes (\, and \\), then the shell's double quotes around them.
    String.raw`find it by name: cmdb list firewall/policy --filter "name==a\\,b c\\\\d" --vdom "*"`,
  );
  assert.equal(hintOf(policy, 'web', null), null);
  for (const t of allTables().filter((t) => t.keyType === 'integer' && !t.fields.name))
    assert.equal(hintOf(t, 'web', { vdoms: undefined }), null, t.path);
});

test('an operation the catalogue does not list is a usage error naming what the table has, unless --force', () => {
  const t = table('certificate/ca');
  assert.throws(
    () => requireOperation(t, { force: false, say: offlineContext().out }, 'U'),
    (e: unknown) => e instanceof UsageError && /does not support update; it has: list, read$/.test(e.message),
  );
  const io = captureIO();
  requireOperation(t, { force: true, say: offlineContext({ force: true }, {}, io).out }, 'U');
  assert.match(io.err(), /--force/);
});

/** How a command line resolves its table: --force or not, notices to `io`. */
const line = (io = captureIO(), force = false) => ({ force, say: offlineContext({ force }, {}, io).out });

test('a path in no catalogue is a typo: a usage error naming the nearest tables (case folded), unless --force', async () => {
  const typo = async (input: string, hint: RegExp) =>
    assert.rejects(
      resolveTable(SHIPPED_CATALOGUE, input, line()),
      (e: unknown) =>
        e instanceof UsageError &&
        /is not a table of the 6\.4\.14 catalogue$/.test(e.message) &&
        hint.test(e.hint ?? ''),
    );
  await typo('router/access-lst', /^did you mean router\/access-list\b.*--force sends it anyway/);
  await typo('Firewall.ipmacbinding/table', /^did you mean firewall\.ipmacbinding\/table\b/);
  await typo('FIREWALL/address', /^did you mean firewall\/address\b/);
  await typo('firewall/x_y', /--force/);
  // Case matters on devices: a table spelt with capitals is found as it is spelt.
  assert.equal((await resolveTable(SHIPPED_CATALOGUE, 'firewall/DoS-policy', line())).known, true);
  // Where nothing else could use it (an export needs the key): no --force in the hint.
  await assert.rejects(
    resolveTable(SHIPPED_CATALOGUE, 'router/access-lst', null),
    (e: unknown) => e instanceof UsageError && !/--force/.test(e.hint ?? ''),
  );
  const io = captureIO();
  const forced = await resolveTable(SHIPPED_CATALOGUE, 'router/access-lst', line(io, true));
  assert.deepEqual([forced.known, forced.keyType], [false, 'string']);
  assert.match(
    io.err(),
    /router\/access-lst is not a table of the 6\.4\.14 catalogue; sending it anyway .*\(--force\)/,
  );
  await assert.rejects(resolveTable(SHIPPED_CATALOGUE, 'not a path', line()), UsageError);
  assert.equal((await resolveTable(SHIPPED_CATALOGUE, '/log.disk/setting', line())).path, 'log.disk/setting');
});

test('a table the catalogue lacks is looked up in the device schema where the catalogue can; in neither, it is a typo', async () => {
  const asked: string[] = [];
  const catalogue = {
    ...SHIPPED_CATALOGUE,
    lookup: async (path: string) => (
      asked.push(path),
      path === 'router/policy-x'
        ? tableFromSchema(path, { category: 'table', mkey: 'seq-num', mkey_type: 'integer' })
        : undefined
    ),
  };
  const t = await resolveTable(catalogue, 'router/policy-x', line());
  assert.deepEqual([t.known, t.key, t.keyType], [true, 'seq-num', 'integer']);
  assert.equal((await resolveTable(catalogue, 'router/static', line())).known, true);
  await assert.rejects(
    resolveTable(catalogue, 'router/nothing-here', line()),
    /router\/nothing-here is not a table of the 6\.4\.14 catalogue or of the device's schema/,
  );
  assert.deepEqual(asked, ['router/policy-x', 'router/nothing-here']);
});

test('filter escapes: \\, is a literal comma and \\\\ a backslash; a lone backslash is escaped', () => {
  const t = table('router/access-list');
  assert.equal(parseFilter(t, 'comments==a\\,b'), 'comments==a\\,b');
  assert.equal(parseFilter(t, 'comments==a\\,b,name==c'), 'comments==a\\,b,name==c');
  assert.equal(parseFilter(t, 'comments==C:\\\\temp'), 'comments==C:\\\\temp');
  assert.equal(parseFilter(t, 'comments==C:\\temp'), 'comments==C:\\\\temp');
  assert.equal(parseFilter(t, 'comments==ends\\'), 'comments==ends\\\\');
  assert.throws(
    () => parseFilter(t, 'comments==a,b'),
    (e: unknown) => e instanceof UsageError && /\\,/.test(e.hint ?? ''),
  );
});

test("the vendor's names of catalogued tables are those tables, sent as typed, without a notice", async () => {
  const io = captureIO();
  for (const [alias, canonical] of [
    ['log.fortianalyzer2/filter', 'log.vendoranalyzer2/filter'],
    ['log.fortianalyzer2/override-setting', 'log.vendoranalyzer2/override-setting'],
    ['log.fortianalyzer-cloud/filter', 'log.vendoranalyzer-cloud/filter'],
    ['vpn.ipsec/forticlient', 'vpn.ipsec/vendorclient'],
  ]) {
    const t = await resolveTable(SHIPPED_CATALOGUE, alias, line(io));
    const c = table(canonical);
    assert.equal(t.path, alias);
    assert.equal(t.known, true);
    assert.deepEqual(
      [t.fields, t.key, t.keyType, t.operations, t.group, t.singleton],
      [c.fields, c.key, c.keyType, c.operations, c.group, c.singleton],
    );
  }
  assert.equal(io.err(), '');
  assert.equal(findTable('log.fortianalyzer9/filter'), undefined);
});
