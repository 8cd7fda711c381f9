// The catalogue as the build compiles it: SPEC.md's 42 tables and the 6.4.14 device's 472, one table
// read at a time, under the names devices use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allTables, findTable, keepsOrder, namesOf, tableSummaries } from '../../src/catalogue/index.js';
import { compileCatalogue, type SourceTable } from '../../src/catalogue/compile.js';
import { isWellFormedTablePath, tableFileName } from '../../src/catalogue/names.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('every table of the device, SPEC.md marking its 42, each read from its own file', () => {
  const summaries = tableSummaries();
  assert.equal(summaries.length, 472);
  assert.equal(summaries.filter((t) => t.spec).length, 42);
  for (const path of [
    'firewall/policy',
    'firewall/address',
    'router/static',
    'system/interface',
    'user/local',
    'firewall/DoS-policy',
    'user/tacacs+',
  ]) {
    assert.ok(findTable(path)?.known, path);
  }
  assert.deepEqual(findTable('router/static')?.keyType, 'integer');
  assert.ok(keepsOrder(findTable('firewall/policy')!));
  assert.equal(findTable('firewall/nosuch'), undefined);
  assert.equal(findTable('firewall/dos-policy'), undefined, 'paths are spelled as the device spells them');
  assert.ok(
    summaries.every((t) => isWellFormedTablePath(t.path)),
    'every path is well-formed',
  );
});

test("SPEC.md's operations stay a subset of the device's, kept for --spec", () => {
  const table = findTable('firewall.ipmacbinding/table')!;
  assert.deepEqual(table.specOperations, ['L', 'C', 'R', 'D']);
  assert.deepEqual(table.operations, ['L', 'C', 'R', 'U', 'D']);
  assert.deepEqual(findTable('certificate/ca')!.operations, ['L', 'R']);
});

test("the five renamed tables: SPEC.md's name in the catalogue, the device's name accepted and known", () => {
  const table = findTable('vpn.ipsec/forticlient')!;
  assert.equal(table.path, 'vpn.ipsec/forticlient');
  assert.equal(table.aliasOf, 'vpn.ipsec/vendorclient');
  assert.deepEqual(namesOf(findTable('log.vendoranalyzer2/filter')!), [
    'log.vendoranalyzer2/filter',
    'log.fortianalyzer2/filter',
  ]);
  assert.deepEqual(namesOf(findTable('firewall/policy')!), ['firewall/policy']);
  assert.equal(findTable('log.fortianalyzer-cloud/filter')?.aliasOf, 'log.vendoranalyzer-cloud/filter');
});

test('file names keep apart what a case-insensitive file system would fold together', () => {
  assert.notEqual(
    tableFileName('firewall/DoS-policy').toLowerCase(),
    tableFileName('firewall/dos-policy').toLowerCase(),
  );
  assert.equal(new Set(allTables().map((t) => tableFileName(t.path).toLowerCase())).size, 472);
});

test('compiling refuses sources that disagree on a SPEC.md table', () => {
  const device: SourceTable[] = [
    {
      path: '/a/b',
      group: 'g',
      operations: ['L', 'C'],
      key: { name: 'id', type: 'integer' },
      singleton: false,
      fields: { id: { type: 'integer' } },
    },
  ];
  const spec: SourceTable[] = [{ ...device[0], operations: ['L'], deviceKey: 'name' }];
  assert.throws(() => compileCatalogue(device, spec), /key/);
  assert.throws(() => compileCatalogue([], [{ ...device[0], deviceKey: 'id' }]), /does not have/);
  assert.deepEqual(compileCatalogue(device, [{ ...device[0], operations: ['L'], deviceKey: 'id' }])[0].specOperations, [
    'L',
  ]);
});

test('the shipped sources are the shared data files, unchanged', (t) => {
  for (const name of ['tables-6.4.14.json', 'tables-6.4.14-device.json', 'factory-objects-6.4.14.json']) {
    const shared = `${ROOT}../shared/data/${name}`;
    if (!existsSync(shared)) {
      t.skip('no ../shared/data beside the project');
      return;
    }
    assert.deepEqual(
      JSON.parse(readFileSync(`${ROOT}src/catalogue/${name}`, 'utf8')),
      JSON.parse(readFileSync(shared, 'utf8')),
      name,
    );
  }
});
