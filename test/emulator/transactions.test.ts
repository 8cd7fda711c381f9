import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, start } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const ACL = 'router/access-list';

async function begin(): Promise<number> {
  const reply = await call(emu, 'POST', `${CMDB}?action=transaction-start`, { body: { timeout: 60 } });
  assert.equal(reply.status, 200);
  const id = reply.json.results['transaction-id'];
  assert.equal(typeof id, 'number');
  return id;
}

const inTx = (id: number) => ({ headers: { 'X-TRANSACTION-ID': String(id) } });

describe('batch transactions', () => {
  it('stages writes until commit', async () => {
    const id = await begin();
    assert.equal((await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-one' }, ...inTx(id) })).status, 200);
    assert.equal((await call(emu, 'DELETE', item(ACL, 'deny-all'), inTx(id))).status, 200);
    assert.equal((await get(emu, item(ACL, 'tx-one'))).status, 404, 'invisible outside the transaction');
    assert.equal((await get(emu, item(ACL, 'deny-all'))).status, 200);
    assert.equal((await get(emu, item(ACL, 'tx-one'), inTx(id))).status, 200, 'visible inside it');
    const commit = await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': id } });
    assert.equal(commit.status, 200);
    assert.equal((await get(emu, item(ACL, 'tx-one'))).status, 200);
    assert.equal((await get(emu, item(ACL, 'deny-all'))).status, 404);
  });

  it('discards writes on abort', async () => {
    const id = await begin();
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-aborted' }, ...inTx(id) });
    assert.equal((await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } })).status, 200);
    assert.equal((await get(emu, item(ACL, 'tx-aborted'))).status, 404);
    assert.equal((await get(emu, item(ACL, 'tx-aborted'), inTx(id))).status, 404);
  });

  it('checks each staged request as it comes', async () => {
    const id = await begin();
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-dup' }, ...inTx(id) });
    const duplicate = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-dup' }, ...inTx(id) });
    assert.equal(duplicate.status, 500);
    assert.equal(duplicate.json.error, -5);
    await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } });
  });

  it('lists open transactions', async () => {
    const id = await begin();
    const listed = await get(emu, `${CMDB}?action=transaction-list`);
    assert.deepEqual(listed.json.results.map((tx: { 'transaction-id': number }) => tx['transaction-id']), [id]);
    const onTable = await get(emu, `${CMDB}/${ACL}?action=transaction-list`);
    assert.equal(onTable.json.results[0]['transaction-id'], id);
    await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': id } });
    assert.deepEqual((await get(emu, `${CMDB}?action=transaction-list`)).json.results, []);
  });

  it('answers 404 (-3) for an unknown transaction id', async () => {
    const commit = await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': 9999 } });
    assert.equal(commit.status, 404);
    assert.equal(commit.json.error, -3);
    const staged = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'nowhere' }, ...inTx(9999) });
    assert.equal(staged.status, 404);
    assert.equal((await get(emu, item(ACL, 'nowhere'))).status, 404);
  });

  it('refuses a commit without transaction-id and an unknown root action', async () => {
    assert.equal((await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: {} })).status, 424);
    assert.equal((await call(emu, 'POST', `${CMDB}?action=transaction-rewind`, { body: {} })).status, 400);
  });
});
