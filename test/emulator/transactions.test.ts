import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { ReferenceIndex } from '../../src/emulator/references.js';
import { buildDatabase } from '../../src/emulator/state.js';
import { CommittedView, type KeyedTable } from '../../src/emulator/store.js';
import { TransactionManager } from '../../src/emulator/transactions.js';
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

  it('stages a move until commit, as a device does', async () => {
    const BWL = 'emailfilter/bwl';
    for (const id of [2, 3])
      assert.equal((await call(emu, 'POST', `${CMDB}/${BWL}`, { body: { id, name: `tx-move-${id}` } })).status, 200);
    const order = async (options = {}) =>
      ((await get(emu, `${CMDB}/${BWL}`, options)).json.results as { id: number }[]).map((o) => o.id);
    const id = await begin();
    assert.equal((await call(emu, 'PUT', `${item(BWL, '3')}?action=move&before=1`, inTx(id))).status, 200);
    assert.deepEqual(await order(), [1, 2, 3], 'invisible outside the transaction');
    assert.deepEqual(await order(inTx(id)), [3, 1, 2], 'visible inside it');
    assert.equal(
      (await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': id } })).status,
      200,
    );
    assert.deepEqual(await order(), [3, 1, 2]);
  });

  it('discards writes on abort', async () => {
    const id = await begin();
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-aborted' }, ...inTx(id) });
    assert.equal(
      (await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } })).status,
      200,
    );
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
    assert.deepEqual(
      listed.json.results.map((tx: { 'transaction-id': number }) => tx['transaction-id']),
      [id],
    );
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

  it('answers the start as a real device does: action, revision, revision_changed false and vdom beside results', async () => {
    const reply = await call(emu, 'POST', `${CMDB}?action=transaction-start&vdom=dmz`, { body: { timeout: 30 } });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.action, 'transaction-start');
    assert.equal(reply.json.revision_changed, false);
    assert.equal(typeof reply.json.revision, 'string');
    assert.equal(reply.json.vdom, 'dmz');
    assert.equal(reply.json.status, 'success');
    const id = reply.json.results['transaction-id'];
    await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } });
  });

  it('leaves the transaction open after a failing write, for the client to commit or abort', async () => {
    const id = await begin();
    assert.equal((await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-kept' }, ...inTx(id) })).status, 200);
    const bad = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-bad', nosuchfield: 1 }, ...inTx(id) });
    assert.ok(bad.status >= 400);
    const listed = await get(emu, `${CMDB}?action=transaction-list`);
    assert.ok(
      listed.json.results.some((tx: { 'transaction-id': number }) => tx['transaction-id'] === id),
      'still open',
    );
    assert.equal(
      (await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } })).status,
      200,
    );
    assert.equal((await get(emu, item(ACL, 'tx-kept'))).status, 404, 'the abort discards the write before the failure');
  });

  it('makes a write fail on a table another transaction holds, and outside any transaction, until it ends', async () => {
    const holder = await begin();
    const other = await begin();
    assert.equal(
      (await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-held' }, ...inTx(holder) })).status,
      200,
    );
    const fromOther = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-other' }, ...inTx(other) });
    assert.equal(fromOther.status, 500);
    assert.match(fromOther.json.cli_error, /locked by transaction/);
    const outside = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-outside' } });
    assert.equal(outside.status, 500);
    assert.equal((await get(emu, item(ACL, 'tx-held'))).status, 404);
    assert.equal(
      (await call(emu, 'POST', `${CMDB}/dlp/filepattern`, { body: { id: 77, name: 'elsewhere' }, ...inTx(other) }))
        .status,
      200,
      'other tables stay free',
    );
    await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': holder } });
    await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': other } });
    assert.equal(
      (await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'tx-outside' } })).status,
      200,
      'released at commit',
    );
    assert.equal((await get(emu, item(ACL, 'tx-held'))).status, 200);
  });
});

describe('transaction expiry', () => {
  it('expires a transaction at its timeout after the start, discarding its writes and releasing its tables', () => {
    let now = 1_000_000;
    const db = buildDatabase(['root'], 'empty');
    const index = new ReferenceIndex(db, SHIPPED_CATALOGUE);
    const manager = new TransactionManager(
      db,
      index,
      () => undefined,
      () => now,
    );
    const committed = manager.guard(new CommittedView(db, () => undefined, index));
    const id = manager.start(10);
    const insert = (view: NonNullable<ReturnType<TransactionManager['view']>>, name: string) =>
      view.write('root', ACL, (state) => {
        (state as KeyedTable).insert({ name });
        return true;
      });
    now += 6_000;
    insert(manager.view(id)!, 'staged');
    assert.throws(() => insert(committed, 'outside'), /locked/);
    now += 3_999;
    assert.ok(manager.view(id), 'busy or not, still open just before the deadline');
    now += 1;
    assert.equal(manager.view(id), undefined, 'gone at its timeout');
    assert.equal(manager.commit(id), false);
    assert.deepEqual(manager.list(), []);
    assert.equal((db.table('root', ACL) as KeyedTable).has('staged'), false);
    insert(committed, 'outside');
    assert.equal((db.table('root', ACL) as KeyedTable).has('outside'), true);
  });
});
