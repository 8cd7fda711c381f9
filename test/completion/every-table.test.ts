// Tab offers every table the device has and every field of the table on the line, from the catalogue
// (the summary index for table names, the one table's file for its fields). No shell, no device.
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { complete, type Sources } from '../../src/completion/engine.js';
import { PROGRAM } from '../../src/completion/program.js';

const sources: Sources = {
  keys: async () => [],
  devices: async () => [],
  vdoms: async () => [],
  catalogue: async () => SHIPPED_CATALOGUE,
};

async function values(line: string): Promise<string[]> {
  const words = line.split(' ');
  return (await complete(PROGRAM, words.slice(0, -1), words[words.length - 1], sources)).candidates.map((c) => c.value);
}

test('table names as the device spells them: uppercase, +, and the device names of renamed tables', async () => {
  assert.deepEqual(await values('list firewall/Do'), ['firewall/DoS-policy', 'firewall/DoS-policy6']);
  assert.deepEqual(await values('list user/tac'), ['user/tacacs+']);
  assert.ok((await values('get log.forti')).includes('log.fortianalyzer2/'));
  assert.ok((await values('get log.vendor')).includes('log.vendoranalyzer2/'));
  assert.ok((await values('list router/')).includes('router/static'));
});

test('fields and allowed values of a device table', async () => {
  assert.deepEqual(await values('update firewall/policy 1 --set srci'), ['srcintf=']);
  assert.deepEqual(await values('update firewall/policy 1 --set action='), [
    'action=accept',
    'action=deny',
    'action=ipsec',
  ]);
  assert.deepEqual(await values('create router/static --set gate'), ['gateway=']);
  assert.ok((await values('list firewall/address --filter ty')).includes('type'));
});
