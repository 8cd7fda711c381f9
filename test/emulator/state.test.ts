import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cmdb-emulator-state-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('state file', () => {
  it('persists committed changes, credentials and revisions across a restart', async () => {
    const file = join(dir, 'nested', 'state.json');
    const first = await startEmulator({ stateFile: file });
    const token = { token: first.token };
    await call(first, 'POST', `${CMDB}/router/access-list?vdom=dmz`, { body: { name: 'survives' }, ...token });
    await call(first, 'DELETE', item('firewall.ipmacbinding/table', 1), token);
    const revision = (await get(first, `${CMDB}/router/access-list?vdom=dmz&action=revision`, token)).json.results.revision;
    await first.close();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'nested')), ['state.json']);

    const second = await startEmulator({ stateFile: file });
    try {
      assert.equal(second.token, first.token);
      assert.equal(second.password, first.password);
      const names = (second.objects('router/access-list', 'dmz') as { name: string }[]).map((o) => o.name);
      assert.ok(names.includes('survives'));
      assert.equal((second.objects('firewall.ipmacbinding/table') as unknown[]).length, 7);
      assert.equal((await get(second, `${CMDB}/router/access-list?vdom=dmz&action=revision`, token)).json.results.revision, revision);
    } finally {
      await second.close();
    }
  });

  it('writes the file at every committed change, not only at close', async () => {
    const file = join(dir, 'live.json');
    const emu = await startEmulator({ stateFile: file, seed: 'empty' });
    try {
      await call(emu, 'POST', `${CMDB}/ips/custom`, { body: { tag: 'live-write' }, token: emu.token });
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(saved.vdoms.root['ips/custom'].objects[0].tag, 'live-write');
    } finally {
      await emu.close();
    }
  });

  it('seeds only when there is no state file yet', async () => {
    const file = join(dir, 'empty.json');
    const emu = await startEmulator({ stateFile: file, seed: 'empty' });
    await emu.close();
    const again = await startEmulator({ stateFile: file, seed: 'demo' });
    try {
      assert.deepEqual(again.objects('router/access-list'), []);
    } finally {
      await again.close();
    }
  });

  it('refuses a file that is not a state file rather than overwrite it', async () => {
    const file = join(dir, 'foreign.json');
    writeFileSync(file, '{"something": "else"}');
    await assert.rejects(startEmulator({ stateFile: file }), /not a cmdb emulator state file/);
    assert.equal(readFileSync(file, 'utf8'), '{"something": "else"}');
  });

  it('reuses its generated certificate so that a pinned fingerprint still matches', async () => {
    const file = join(dir, 'tls.json');
    const first = await startEmulator({ stateFile: file, tls: true });
    await first.close();
    const second = await startEmulator({ stateFile: file, tls: true });
    await second.close();
    assert.equal(second.fingerprint, first.fingerprint);
  });
});
