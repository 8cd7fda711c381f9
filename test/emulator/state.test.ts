import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { startEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('cmdb-emulator-state-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** A GET on a new connection: a restarted emulator listens on the port the pooled ones knew. */
function getFresh(url: string, token: string): Promise<{ status: number; json: { results: { revision: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('state file', () => {
  it('persists committed changes, credentials and revisions across a restart', async () => {
    const file = join(dir, 'nested', 'state.json');
    const first = await startEmulator({ stateFile: file });
    const token = { token: first.token };
    await call(first, 'POST', `${CMDB}/router/access-list?vdom=dmz`, { body: { name: 'survives' }, ...token });
    await call(first, 'DELETE', item('firewall.ipmacbinding/table', 1), token);
    const revision = (await get(first, `${CMDB}/router/access-list?vdom=dmz&action=revision`, token)).json.results
      .revision;
    await first.close();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'nested')), ['state.json']);

    const second = await startEmulator({ stateFile: file });
    try {
      assert.equal(second.token, first.token);
      assert.equal(second.password, first.password);
      assert.equal(second.url, first.url, 'the same address, so saved profiles keep working');
      const names = (second.objects('router/access-list', 'dmz') as { name: string }[]).map((o) => o.name);
      assert.ok(names.includes('survives'));
      assert.equal((second.objects('firewall.ipmacbinding/table') as unknown[]).length, 7);
      assert.equal(
        (await getFresh(`${second.url}${CMDB}/router/access-list?vdom=dmz&action=revision`, first.token)).json.results
          .revision,
        revision,
      );
    } finally {
      await second.close();
    }
  });

  it('keeps every VDOM across a restart, also one none of whose tables was ever asked for', async () => {
    const file = join(dir, 'untouched.json');
    const first = await startEmulator({ stateFile: file });
    await call(first, 'POST', `${CMDB}/router/access-list`, { body: { name: 'root-only' }, token: first.token });
    await first.close();
    const second = await startEmulator({ stateFile: file });
    try {
      assert.equal(
        (await call(second, 'GET', `${CMDB}/router/access-list?vdom=dmz`, { token: second.token })).status,
        200,
      );
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

  it('refuses a file that is not a state file rather than overwrite it, naming the file', async () => {
    const file = join(dir, 'foreign.json');
    writeFileSync(file, '{"something": "else"}');
    await assert.rejects(startEmulator({ stateFile: file }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ESTATEFILE');
      assert.equal(error.message, `${file}: is not a cmdb emulator state file`);
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), '{"something": "else"}');
    writeFileSync(file, '{"format": "cmdb-emu');
    await assert.rejects(startEmulator({ stateFile: file }), (error: Error) =>
      error.message.startsWith(`${file}: is not valid JSON`),
    );
  });

  it('listens on another port when told to, and keeps that one', async () => {
    const file = join(dir, 'port.json');
    const first = await startEmulator({ stateFile: file, seed: 'empty' });
    await first.close();
    const second = await startEmulator({ stateFile: file, port: 0 });
    await second.close();
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).port, Number(new URL(second.url).port));
  });

  it('leaves the file untouched by a run that changes nothing, and by any run with saveOnlyChanges until a change', async () => {
    const file = join(dir, 'quiet.json');
    const first = await startEmulator({ stateFile: file, seed: 'empty' });
    await first.close();
    const written = statSync(file).mtimeMs;
    const text = readFileSync(file, 'utf8');
    const again = await startEmulator({ stateFile: file });
    await getFresh(`${again.url}${CMDB}/ips/custom`, again.token);
    await again.close();
    const demo = await startEmulator({ stateFile: file, keepAddress: false, saveOnlyChanges: true });
    assert.notEqual(demo.url, first.url);
    await getFresh(`${demo.url}${CMDB}/ips/custom`, demo.token);
    await demo.close();
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(statSync(file).mtimeMs, written);
    const changing = await startEmulator({ stateFile: file, keepAddress: false, saveOnlyChanges: true });
    await call(changing, 'POST', `${CMDB}/ips/custom`, { body: { tag: 'changed' }, token: changing.token });
    await changing.close();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.vdoms.root['ips/custom'].objects[0].tag, 'changed');
    assert.equal(saved.port, JSON.parse(text).port, 'an in-process run keeps the address of the file');
  });

  it("loads a file written before global tables were held once: the root VDOM's copy, else the first VDOM's", async () => {
    const file = join(dir, 'per-vdom-globals.json');
    const settings = (hostname: string) => ({ revision: 3, settings: { hostname, admintimeout: 5 } });
    writeFileSync(
      file,
      JSON.stringify({
        format: 'cmdb-emulator-state',
        version: 1,
        credentials: { password: 'p', token: 'oldformattoken00000000000000001' },
        seed: 'empty',
        vdoms: {
          dmz: {
            'system/global': settings('from-dmz'),
            'system/dns': { revision: 2, settings: { primary: '192.0.2.53' } },
          },
          root: { 'system/global': settings('from-root') },
        },
      }),
    );
    const emu = await startEmulator({ stateFile: file });
    try {
      const token = { token: emu.token };
      const global = async (vdom: string) =>
        (await get(emu, `${CMDB}/system/global?vdom=${vdom}`, token)).json.results.hostname;
      assert.deepEqual([await global('root'), await global('dmz')], ['from-root', 'from-root']);
      assert.equal((await get(emu, `${CMDB}/system/dns`, token)).json.results.primary, '192.0.2.53', 'only dmz had it');
      await call(emu, 'PUT', `${CMDB}/system/global?vdom=dmz`, { body: { admintimeout: 9 }, ...token });
    } finally {
      await emu.close();
    }
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.global['system/global'].settings.admintimeout, 9);
    assert.equal(saved.global['system/global'].settings.hostname, 'from-root');
    assert.equal(saved.vdoms.dmz['system/global'], undefined, 'held once from now on');
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
