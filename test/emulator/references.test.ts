// The emulator keeps references whole as a device does (PROTOCOL.md, "References and integrity"): a
// write naming a missing object is refused, an object in use is not deleted, a rename carries its users
// along, `q_ref`/`q_static` count them, the usage query lists them, transactions see their own view.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findTable, type TableDef } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, type Json, keysOf, start } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const POLICY = `${CMDB}/firewall/policy`;
const USAGE = '/api/v2/monitor/system/object/usage';

/** A policy body with every field a policy needs, naming factory and demo objects that exist. */
const policy = (policyid: number, extra: Json = {}) => ({
  policyid,
  name: `p${policyid}`,
  srcintf: [{ name: 'port1' }],
  dstintf: [{ name: 'port2' }],
  srcaddr: [{ name: 'lan-net' }],
  dstaddr: [{ name: 'all' }],
  schedule: 'always',
  service: [{ name: 'ALL' }],
  ...extra,
});

/** A refusal of a write naming a missing object: HTTP 500, the code, the value in the device's text, nothing written. */
async function refusedAsMissing(
  method: string,
  path: string,
  body: Json,
  code: -3 | -651,
  field: string,
  value: string,
): Promise<void> {
  const tablePath = path
    .slice(CMDB.length + 1)
    .split('?')[0]
    .split('/')
    .slice(0, 2)
    .join('/');
  const before = (await get(emu, `${CMDB}/${tablePath}?action=revision${path.includes('vdom=dmz') ? '&vdom=dmz' : ''}`))
    .json.results.revision;
  const reply = await call(emu, method, path, { body });
  assert.equal(reply.status, 500, reply.text);
  assert.equal(reply.json.error, code);
  assert.equal(
    reply.json.cli_error.split('\n')[0],
    `node_check_object fail! for ${field} ${value}`,
    reply.json.cli_error,
  );
  assert.match(
    reply.json.cli_error,
    new RegExp(`value parse error before '${value}'\\nCommand fail. Return code ${code}\\n$`),
  );
  const after = (await get(emu, `${CMDB}/${tablePath}?action=revision${path.includes('vdom=dmz') ? '&vdom=dmz' : ''}`))
    .json.results.revision;
  assert.equal(after, before, 'nothing written');
}

describe('a write naming an object that does not exist', () => {
  it('a member list (srcaddr[].name): -3, the value named, nothing created', async () => {
    await refusedAsMissing('POST', POLICY, policy(90, { srcaddr: [{ name: 'nope' }] }), -3, 'name', 'nope');
    assert.equal((await get(emu, item('firewall/policy', 90))).status, 404);
  });

  it('an interface in a member list (srcintf[].name): -651 as the CLI layer cannot parse it', async () => {
    await refusedAsMissing('POST', POLICY, policy(90, { srcintf: [{ name: 'port9' }] }), -651, 'name', 'port9');
  });

  it('a single field: a schedule (-3), a route device (-651), in an update too', async () => {
    await refusedAsMissing('POST', POLICY, policy(90, { schedule: 'weekends' }), -3, 'schedule', 'weekends');
    await refusedAsMissing('PUT', item('router/static', 1), { device: 'port9' }, -651, 'device', 'port9');
    assert.equal((await get(emu, item('router/static', 1))).json.results[0].device, 'port2');
  });

  it("a field of a sub-table's entries (icap/profile respmod-forward-rules[].host)", async () => {
    await refusedAsMissing(
      'PUT',
      item('icap/profile', 'icap-av'),
      { 'respmod-forward-rules': [{ name: 'r', host: 'no-such-host' }] },
      -3,
      'host',
      'no-such-host',
    );
  });

  it('a sub-table path (POST <item>/<child>) appending a member that does not exist', async () => {
    await refusedAsMissing(
      'POST',
      `${item('firewall/addrgrp', 'internal-nets')}/member`,
      { name: 'nope' },
      -3,
      'name',
      'nope',
    );
    const members = (await get(emu, item('firewall/addrgrp', 'internal-nets'))).json.results[0].member;
    assert.deepEqual(keysOf(members, 'name'), ['lan-net', 'servers-net']);
  });

  it('an integer-keyed target (antivirus/profile analytics-wl-filetype names dlp/filepattern id)', async () => {
    await refusedAsMissing(
      'PUT',
      item('antivirus/profile', 'default'),
      { 'analytics-wl-filetype': 99 },
      -3,
      'analytics-wl-filetype',
      '99',
    );
    const named = await call(emu, 'PUT', item('antivirus/profile', 'default'), {
      body: { 'analytics-wl-filetype': 2 },
    });
    assert.equal(named.status, 200, named.text);
  });

  it('a global target from a VDOM (ftp-proxy/explicit ssl-cert names certificate/local, held once)', async () => {
    await refusedAsMissing(
      'PUT',
      `${CMDB}/ftp-proxy/explicit?vdom=dmz`,
      { 'ssl-cert': 'nope' },
      -3,
      'ssl-cert',
      'nope',
    );
    // root's imported certificate is in the one global table: dmz names it too.
    const reply = await call(emu, 'PUT', `${CMDB}/ftp-proxy/explicit?vdom=dmz`, { body: { 'ssl-cert': 'vpn-portal' } });
    assert.equal(reply.status, 200, reply.text);
  });

  it('names another VDOM does not make exist: dmz has no lan-net', async () => {
    await refusedAsMissing(
      'POST',
      `${CMDB}/firewall/addrgrp?vdom=dmz`,
      { name: 'g', member: [{ name: 'lan-net' }] },
      -3,
      'name',
      'lan-net',
    );
  });

  it('takes empty references, the words any and ssl.root for interfaces, a zone, and any name of a database table', async () => {
    const reply = await call(emu, 'POST', POLICY, {
      body: policy(91, {
        srcintf: [{ name: 'any' }],
        dstintf: [{ name: 'ssl.root' }, { name: 'virtual-wan-link' }],
        'internet-service-name': [{ name: 'Anything-Cloud.Service' }],
        'reputation-minimum': 0,
        'ssl-ssh-profile': '',
      }),
    });
    assert.equal(reply.status, 200, reply.text);
    const route = await call(emu, 'POST', `${CMDB}/router/static`, { body: { dst: '10.9.0.0/16', device: '' } });
    assert.equal(route.status, 200, route.text);
    assert.equal((await call(emu, 'DELETE', item('firewall/policy', 91))).status, 200);
  });

  it('a create missing a field every policy needs is refused as a missing attribute', async () => {
    const { srcintf: _, ...lacking } = policy(92);
    const reply = await call(emu, 'POST', POLICY, { body: lacking });
    assert.equal(reply.status, 424);
    assert.equal(reply.json.cli_error, "Attribute 'srcintf' MUST be set");
  });
});

describe('deleting an object in use', () => {
  it('is HTTP 500, -23, revision_changed false, naming its users; the object stays', async () => {
    const reply = await call(emu, 'DELETE', item('firewall/address', 'lan-net'));
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -23);
    assert.equal(reply.json.revision_changed, false);
    assert.match(reply.json.cli_error, /^lan-net is in use by .*firewall\/policy 1 \(srcaddr\)/);
    assert.match(reply.json.cli_error, /firewall\/addrgrp internal-nets \(member\)/);
    assert.match(
      reply.json.cli_error,
      /delete table entry lan-net unset oper error ret=-23\nCommand fail\. Return code -23\n$/,
    );
    assert.equal((await get(emu, item('firewall/address', 'lan-net'))).status, 200);
  });

  it('of a global table, named from another VDOM: refused too', async () => {
    assert.equal((await call(emu, 'POST', `${CMDB}/system/accprofile`, { body: { name: 'ops' } })).status, 200);
    const admin = await call(emu, 'POST', `${CMDB}/system/admin?vdom=dmz`, {
      body: { name: 'bob', accprofile: 'ops' },
    });
    assert.equal(admin.status, 200, admin.text);
    const reply = await call(emu, 'DELETE', item('system/accprofile', 'ops'));
    assert.equal(reply.json.error, -23);
    assert.match(reply.json.cli_error, /system\/admin bob \(accprofile\)/);
    assert.equal((await call(emu, 'DELETE', `${item('system/admin', 'bob')}?vdom=dmz`)).status, 200);
    assert.equal(
      (await call(emu, 'DELETE', item('system/accprofile', 'ops'))).status,
      200,
      'free once its user is gone',
    );
  });

  it('a sub-table entry something names cannot be taken away (the SD-WAN zone a policy names)', async () => {
    assert.equal(
      (await call(emu, 'POST', POLICY, { body: policy(93, { dstintf: [{ name: 'virtual-wan-link' }] }) })).status,
      200,
    );
    const reply = await call(emu, 'PUT', `${CMDB}/system/sdwan`, { body: { zone: [] } });
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -23);
    assert.equal((await call(emu, 'DELETE', item('firewall/policy', 93))).status, 200);
    assert.equal((await call(emu, 'PUT', `${CMDB}/system/sdwan`, { body: { zone: [] } })).status, 200);
    assert.equal(
      (await call(emu, 'PUT', `${CMDB}/system/sdwan`, { body: { zone: [{ name: 'virtual-wan-link' }] } })).status,
      200,
    );
  });

  it('a factory object is never deleted, used or not (q_static)', async () => {
    const reply = await call(emu, 'DELETE', item('firewall/address', 'none'));
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -23);
    assert.match(reply.json.cli_error, /factory object/);
    const [none] = (await get(emu, `${item('firewall/address', 'none')}?with_meta=1`)).json.results;
    assert.deepEqual([none.q_static, none.q_ref, none.q_no_rename], [true, 0, true]);
  });

  it('an object nothing names is deleted', async () => {
    assert.equal((await call(emu, 'DELETE', item('firewall/address', 'dhcp-pool'))).status, 200);
  });
});

describe('renaming', () => {
  it('a PUT with a new key renames the object and every reference to it', async () => {
    const reply = await call(emu, 'PUT', item('firewall/address', 'servers-net'), { body: { name: 'srv-net' } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.mkey, 'srv-net');
    const group = (await get(emu, item('firewall/addrgrp', 'internal-nets'))).json.results[0];
    assert.deepEqual(keysOf(group.member, 'name'), ['lan-net', 'srv-net']);
    assert.deepEqual(keysOf((await get(emu, item('firewall/policy', 4))).json.results[0].srcaddr, 'name'), ['srv-net']);
    const [renamed] = (await get(emu, `${item('firewall/address', 'srv-net')}?with_meta=1`)).json.results;
    assert.equal(renamed.q_ref, 2);
    assert.equal(
      (await call(emu, 'PUT', item('firewall/address', 'srv-net'), { body: { name: 'servers-net' } })).status,
      200,
    );
  });

  it('an integer key: the objects naming its number follow it', async () => {
    await call(emu, 'PUT', item('antivirus/profile', 'default'), { body: { 'analytics-bl-filetype': 3 } });
    assert.equal((await call(emu, 'PUT', item('dlp/filepattern', 3), { body: { id: 30 } })).status, 200);
    assert.equal((await get(emu, item('antivirus/profile', 'default'))).json.results[0]['analytics-bl-filetype'], 30);
    assert.equal((await call(emu, 'DELETE', item('dlp/filepattern', 30))).json.error, -23);
  });

  it('a factory object keeps its name', async () => {
    const reply = await call(emu, 'PUT', item('firewall/address', 'all'), { body: { name: 'everything' } });
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -651);
    assert.equal((await get(emu, item('firewall/address', 'all'))).status, 200);
  });
});

describe('q_ref and the usage query', () => {
  it('q_ref counts the objects that name each object, in a list too', async () => {
    const results = (await get(emu, `${CMDB}/firewall/address?with_meta=1`)).json.results;
    const ref = (name: string) => results.find((a: Json) => a.name === name).q_ref;
    assert.equal(ref('lan-net'), 3, 'policies 1 and 3, the group internal-nets');
    assert.equal(ref('web-server'), 2, 'policy 5, the group published');
    assert.equal(ref('FABRIC_DEVICE'), 0);
  });

  it('answers currently_using in the shape a device gives: one entry per object and field', async () => {
    const reply = await get(emu, `${USAGE}?q_path=firewall&q_name=address&mkey=lan-net`);
    assert.equal(reply.status, 200);
    assert.equal(reply.json.status, 'success');
    assert.equal(reply.json.vdom, 'root');
    const using = reply.json.results.currently_using;
    assert.deepEqual(using.map((u: Json) => `${u.path}.${u.name} ${u.mkey} ${u.attribute} ${u.vdom}`).sort(), [
      'firewall.addrgrp internal-nets member root',
      'firewall.policy 1 srcaddr root',
      'firewall.policy 3 srcaddr root',
    ]);
    assert.deepEqual(
      using.find((u: Json) => u.mkey === 1),
      {
        path: 'firewall',
        name: 'policy',
        mkey: 1,
        vdom: 'root',
        attribute: 'srcaddr',
        table_type: 'table',
        static: false,
        reference_count: 0,
      },
    );
    assert.ok(
      reply.json.results.can_use.some((c: Json) => c.path === 'firewall' && c.name === 'policy' && c.range === 'vdom'),
    );
  });

  it('an unknown key: an empty list; in another VDOM that VDOM objects; bad requests refused', async () => {
    const unknown = await get(emu, `${USAGE}?q_path=firewall&q_name=address&mkey=no-such`);
    assert.deepEqual([unknown.status, unknown.json.results.currently_using], [200, []]);
    const dmz = await get(emu, `${USAGE}?q_path=firewall&q_name=address&mkey=mail-server&vdom=dmz`);
    assert.deepEqual(keysOf(dmz.json.results.currently_using, 'mkey').sort(), [2, 'mail']);
    assert.equal((await get(emu, `${USAGE}?q_path=firewall&q_name=address`)).status, 424);
    assert.equal((await get(emu, `${USAGE}?q_path=firewall&q_name=nosuch&mkey=x`)).status, 404);
    assert.equal((await get(emu, `${USAGE}?q_path=firewall&q_name=address&mkey=x&vdom=nosuch`)).status, 403);
  });
});

describe('transactions keep references whole in their own view', () => {
  const start = async () =>
    (await call(emu, 'POST', `${CMDB}?action=transaction-start`, { body: { timeout: 60 } })).json.results[
      'transaction-id'
    ];
  const inTx = (id: number, method: string, path: string, body?: Json) =>
    call(emu, method, path, { body, headers: { 'X-TRANSACTION-ID': String(id) } });

  it('a write sees what its transaction created; outside it does not exist until commit', async () => {
    const id = await start();
    assert.equal(
      (await inTx(id, 'POST', `${CMDB}/firewall/address`, { name: 'tx-net', subnet: '10.77.0.0/16' })).status,
      200,
    );
    const grouped = await inTx(id, 'POST', `${CMDB}/firewall/addrgrp`, {
      name: 'tx-group',
      member: [{ name: 'tx-net' }],
    });
    assert.equal(grouped.status, 200, grouped.text);
    const outside = await call(emu, 'POST', POLICY, { body: policy(97, { dstaddr: [{ name: 'tx-net' }] }) });
    assert.equal(outside.json.error, -3, 'not committed: another request does not see it');
    assert.equal((await inTx(id, 'DELETE', item('firewall/address', 'tx-net'))).json.error, -23, 'its group names it');
    await call(emu, 'POST', `${CMDB}?action=transaction-commit`, { body: { 'transaction-id': id } });
    assert.equal(
      (await call(emu, 'DELETE', item('firewall/address', 'tx-net'))).json.error,
      -23,
      'committed, still in use',
    );
    assert.equal((await call(emu, 'DELETE', item('firewall/addrgrp', 'tx-group'))).status, 200);
    assert.equal((await call(emu, 'DELETE', item('firewall/address', 'tx-net'))).status, 200);
  });

  it('deleting the users then the object inside a transaction works; abort leaves both', async () => {
    const id = await start();
    assert.equal((await inTx(id, 'DELETE', item('firewall/address', 'web-server'))).json.error, -23);
    assert.equal((await inTx(id, 'DELETE', item('firewall/policy', 5))).status, 200);
    const regrouped = await inTx(id, 'PUT', item('firewall/addrgrp', 'published'), { member: [{ name: 'dmz-net' }] });
    assert.equal(regrouped.status, 200);
    const [staged] = (await inTx(id, 'GET', `${item('firewall/address', 'web-server')}?with_meta=1`)).json.results;
    assert.equal(staged.q_ref, 0);
    assert.equal((await inTx(id, 'DELETE', item('firewall/address', 'web-server'))).status, 200);
    await call(emu, 'POST', `${CMDB}?action=transaction-abort`, { body: { 'transaction-id': id } });
    assert.equal((await get(emu, item('firewall/address', 'web-server'))).status, 200);
    assert.equal((await call(emu, 'DELETE', item('firewall/address', 'web-server'))).json.error, -23);
  });
});

describe('new objects', () => {
  it("take the catalogue's defaults (a policy denies) and a UUID of their own, a clone too", async () => {
    assert.equal((await call(emu, 'POST', POLICY, { body: policy(95) })).status, 200);
    const [created] = (await get(emu, item('firewall/policy', 95))).json.results;
    assert.equal(created.action, 'deny');
    assert.equal(created['ssl-ssh-profile'], 'no-inspection');
    assert.match(created.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal((await call(emu, 'POST', `${item('firewall/policy', 95)}?action=clone&nkey=96`)).status, 200);
    const [copy] = (await get(emu, item('firewall/policy', 96))).json.results;
    assert.match(copy.uuid, /^[0-9a-f-]{36}$/);
    assert.notEqual(copy.uuid, created.uuid);
    const address = await call(emu, 'POST', `${CMDB}/firewall/address`, { body: { name: 'u1', uuid: '' } });
    assert.equal(address.status, 200);
    assert.notEqual((await get(emu, item('firewall/address', 'u1'))).json.results[0].uuid, '');
    for (const key of [95, 96]) await call(emu, 'DELETE', item('firewall/policy', key));
  });
});

describe('global tables', () => {
  it('one system/global for every VDOM: a write in dmz is what root reads, vdom does not narrow', async () => {
    const reply = await call(emu, 'PUT', `${CMDB}/system/global?vdom=dmz`, { body: { admintimeout: 31 } });
    assert.equal(reply.status, 200);
    assert.equal((await get(emu, `${CMDB}/system/global`)).json.results.admintimeout, 31);
    const both = (await get(emu, `${CMDB}/certificate/local?vdom=root,dmz`)).json;
    assert.deepEqual(keysOf(both[0].results, 'name'), keysOf(both[1].results, 'name'));
    assert.ok(keysOf(both[1].results, 'name').includes('vpn-portal'), "root's certificate read in dmz");
  });
});

describe('the demo seed', () => {
  it('every reference resolves (in its VDOM, or the global table it names)', async () => {
    const fresh = await start();
    try {
      const problems: string[] = [];
      const { allTables } = await import('../../src/catalogue/index.js');
      const { namesAt, referenceSites, valuesAt } = await import('../../src/catalogue/references.js');
      const { factoryObjects, isFactoryObject } = await import('../../src/catalogue/factory.js');
      const vdoms = ['root', 'dmz'];
      const holds = (tablePath: string, field: string, vdom: string, name: unknown) => {
        const data = fresh.objects(tablePath, vdom);
        return (Array.isArray(data) ? data : [data]).some((object) =>
          valuesAt(object, field).some((value) => String(value) === String(name)),
        );
      };
      let names = 0;
      for (const table of allTables()) {
        const global = table.scope === 'global';
        for (const vdom of global ? ['root'] : vdoms) {
          const data = fresh.objects(table.path, vdom);
          for (const object of Array.isArray(data) ? data : [data]) {
            for (const site of referenceSites(table)) {
              for (const name of namesAt(object, site)) {
                names++;
                const found = site.targets.some((target) => {
                  if (factoryObjects().databases.has(target.table)) return true;
                  if (isFactoryObject(target.table, name, target.field)) return true;
                  const targetGlobal = findTable(target.table)?.scope === 'global';
                  // A global object naming a per-VDOM table names it in whichever VDOM has it.
                  const where = targetGlobal ? ['root'] : global ? vdoms : [vdom];
                  return where.some((v) => holds(target.table, target.field, v, name));
                });
                if (!found)
                  problems.push(
                    `${vdom} ${table.path} ${table.key ? object[table.key] : ''} ${site.path.join('.')} = ${name}`,
                  );
              }
            }
          }
        }
      }
      assert.ok(names > 250, `${names} references walked`);
      assert.deepEqual(problems, []);
    } finally {
      await fresh.close();
    }
  });
});

describe('one reading of references', () => {
  it("the emulator's usage query and the reference library's UsageIndex name the same users of every demo object", async () => {
    const fresh = await start();
    try {
      const { allTables } = await import('../../src/catalogue/index.js');
      const { SHIPPED_CATALOGUE } = await import('../../src/catalogue/provider.js');
      const { UsageIndex } = await import('../../src/plan/references/index.js');
      const vdoms = ['root', 'dmz'];
      const where = (global: boolean) => (global ? [null] : vdoms);
      const readings = allTables().flatMap((table) =>
        where(table.scope === 'global').map((vdom) => ({
          vdom,
          table: table.path,
          content: fresh.objects(table.path, vdom ?? 'root'),
        })),
      );
      const library = new UsageIndex(readings);
      const row = (vdom: string | null, table: string, key: unknown, field: string) =>
        `${vdom ?? 'global'} ${table} ${String(key)} (${field})`;
      const asked: { table: TableDef; vdom: string | null; key: unknown }[] = [];
      for (const table of allTables()) {
        // Only what something can name: an object of another table has no users.
        if (table.singleton || !table.key || !SHIPPED_CATALOGUE.referrers(table.path).length) continue;
        for (const vdom of where(table.scope === 'global'))
          for (const object of fresh.objects(table.path, vdom ?? 'root') as Json[])
            asked.push({ table, vdom, key: object[table.key] });
      }
      const problems: string[] = [];
      let users = 0;
      const compare = async ({ table, vdom, key }: (typeof asked)[number]) => {
        const [path, name] = table.path.split('/');
        const query = `q_path=${path}&q_name=${name}&mkey=${encodeURIComponent(String(key))}&vdom=${vdom ?? 'root'}`;
        const answer = (await get(fresh, `${USAGE}?${query}`)).json.results.currently_using as Json[];
        const device = answer.map((u) => row(u.vdom ?? null, `${u.path}/${u.name}`, u.mkey ?? null, u.attribute));
        const expected = (library.usersOf(vdom, table.path, key as string) ?? []).map((u) =>
          row(u.vdom, u.table, u.key, u.field),
        );
        users += expected.length;
        if (JSON.stringify([...device].sort()) !== JSON.stringify([...expected].sort()))
          problems.push(`${table.path} ${key} in ${vdom}: device ${device.join(', ')}; library ${expected.join(', ')}`);
      };
      for (let i = 0; i < asked.length; i += 16) await Promise.all(asked.slice(i, i + 16).map(compare));
      assert.ok(users > 100, `${users} users compared`);
      assert.deepEqual(problems, []);
    } finally {
      await fresh.close();
    }
  });
});
