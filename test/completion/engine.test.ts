// The candidate engine on its own: no shell, no device (keys, profiles and VDOMs come from a stub).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allTables, type TableDef } from '../../src/catalogue/index.js';
import { DeviceCatalogue, SHIPPED_CATALOGUE, type Catalogue } from '../../src/catalogue/provider.js';
import { complete, type LineOptions, type Sources } from '../../src/completion/engine.js';
import { PROGRAM } from '../../src/completion/program.js';

interface Asked {
  table: string;
  line: LineOptions;
}

function stub(keys: string[] = ['lab gateway', 'lab/core', 'edge'], catalogue: Catalogue = SHIPPED_CATALOGUE) {
  const asked: Asked[] = [];
  const sources: Sources = {
    catalogue: async () => catalogue,
    keys: async (table: TableDef, line: LineOptions) => {
      asked.push({ table: table.path, line });
      return keys;
    },
    devices: async () => ['fw1', 'lab'],
    vdoms: async () => ['root', 'dmz'],
  };
  return { sources, asked };
}

/** Completes the last word of `line` (after `cmdb`) and returns the candidate values. */
async function values(line: string, sources = stub().sources): Promise<string[]> {
  const words = line.split(' ');
  const completion = await complete(PROGRAM, words.slice(0, -1), words[words.length - 1], sources);
  return completion.candidates.map((c) => c.value);
}

describe('commands and options', () => {
  it('offers the commands, not the hidden __complete', async () => {
    const all = await values('');
    for (const name of ['tables', 'list', 'get', 'create', 'clone', 'update', 'move', 'delete', 'completion'])
      assert.ok(all.includes(name), name);
    assert.ok(!all.some((c) => c.startsWith('__')));
    const de = await values('de');
    assert.ok(de.includes('defaults') && de.includes('delete') && de.every((c) => c.startsWith('de')), de.join());
  });

  it("offers a command's own options and the global ones, with or without a command", async () => {
    const list = await values('list firewall.ipmacbinding/table --');
    for (const flag of ['--filter', '--fields', '--scope', '--output', '--vdom', '--demo', '--help'])
      assert.ok(list.includes(flag), flag);
    assert.ok(!list.includes('--set'));
    assert.ok((await values('-')).includes('-o'));
    assert.ok(!(await values('-')).includes('--filter'), 'no command yet: only global options');
  });

  it('completes option values: formats, scopes, groups, areas, profiles, shells', async () => {
    assert.deepEqual(await values('-o '), ['cli', 'csv', 'json', 'ndjson', 'table', 'yaml']);
    // Once the command is named, the formats it prints: the device's syntax only for list, get and export.
    assert.deepEqual(await values('list t -o c'), ['cli', 'csv']);
    assert.deepEqual(await values('export -o '), ['cli', 'json', 'table', 'yaml']);
    assert.deepEqual(await values('tables -o c'), ['csv']);
    assert.deepEqual(await values('diff -o '), ['json', 'table', 'yaml']);
    assert.deepEqual(await values('list t --output j'), ['json']);
    assert.deepEqual(await values('list t --output=nd'), ['--output=ndjson']);
    assert.deepEqual(await values('list t --scope '), ['both', 'global', 'vdom']);
    assert.deepEqual(await values('tables --group fw'), ['fwgrp']);
    assert.deepEqual(await values('tables --area l'), ['log']);
    assert.deepEqual(await values('-d '), ['fw1', 'lab']);
    assert.deepEqual(await values('-d fw1,'), ['fw1,lab'], 'a comma list of profiles, each offered once');
    assert.deepEqual(await values('completion '), ['bash', 'fish', 'zsh']);
  });

  it('completes VDOM names, one list item at a time', async () => {
    assert.deepEqual(await values('--vdom '), ['*', 'dmz', 'root']);
    assert.deepEqual(await values('--vdom root,'), ['root,dmz']);
  });

  it('hands file options to the shell', async () => {
    const completion = await complete(PROGRAM, ['create', 'firewall.ipmacbinding/table', '-f'], '', stub().sources);
    assert.equal(completion.files, true);
  });

  it('skips option values when finding the command and its arguments', async () => {
    assert.deepEqual(await values('-o json --vdom root get firewall.ipm'), [
      'firewall.ipmacbinding/setting',
      'firewall.ipmacbinding/table',
    ]);
    assert.deepEqual(await values('-ojson get firewall.ipm'), [
      'firewall.ipmacbinding/setting',
      'firewall.ipmacbinding/table',
    ]);
  });
});

describe('table paths', () => {
  it('steps through area prefixes, without a space after a step', async () => {
    const completion = await complete(PROGRAM, ['schema'], 'log', stub().sources);
    assert.deepEqual(
      completion.candidates.map((c) => [c.value, !!c.noSpace]),
      [
        ['log.', true],
        ['log/', true],
      ],
    );
    const sub = await complete(PROGRAM, ['schema'], 'log.v', stub().sources);
    assert.deepEqual(
      sub.candidates.map((c) => [c.value, !!c.noSpace]),
      [
        ['log.vendoranalyzer-cloud/', true],
        ['log.vendoranalyzer2/', true],
      ],
    );
    assert.deepEqual(await values('schema log.d'), ['log.disk/filter', 'log.disk/setting']);
  });

  it('takes a step that leaves no choice at once', async () => {
    const hotspot = await values('schema wireless-controller.h');
    assert.equal(hotspot.length, 13);
    assert.ok(
      hotspot.every((v) => v.startsWith('wireless-controller.hotspot20/')),
      hotspot.join(' '),
    );
  });

  it('keeps a leading slash', async () => {
    assert.deepEqual(await values('schema /log.d'), ['/log.disk/filter', '/log.disk/setting']);
  });

  it('offers only the tables that support what the command does', async () => {
    const supports = (ops: string) => (t: TableDef) => [...ops].some((op) => t.operations.includes(op as never));
    const leaves = async (command: string) => {
      const out: string[] = [];
      const walk = async (prefix: string): Promise<void> => {
        for (const c of (await complete(PROGRAM, [command], prefix, stub().sources)).candidates) {
          if (c.noSpace) await walk(c.value);
          else out.push(c.value);
        }
      };
      await walk('');
      return out.sort();
    };
    // A table SPEC.md renamed is offered under the device's name too.
    const expect = (filter: (t: TableDef) => boolean) =>
      allTables()
        .filter(filter)
        .flatMap((t) => (t.deviceName ? [t.path, t.deviceName] : [t.path]))
        .sort();
    assert.deepEqual(
      await leaves('delete'),
      expect((t) => !t.singleton && supports('D')(t)),
    );
    assert.deepEqual(
      await leaves('get'),
      expect((t) => (t.singleton ? supports('GL')(t) : supports('R')(t))),
    );
    assert.deepEqual(
      await leaves('update'),
      expect((t) => (t.singleton ? supports('P')(t) : supports('U')(t))),
    );
    assert.deepEqual(
      await leaves('list'),
      expect((t) => (t.singleton ? supports('LG')(t) : supports('L')(t))),
    );
    assert.deepEqual(
      await leaves('move'),
      expect((t) => !t.singleton && supports('U')(t)),
    );
    assert.deepEqual(
      await leaves('schema'),
      expect(() => true),
    );
    assert.ok(!(await leaves('delete')).includes('log.disk/setting'));
  });

  it('offers every table with --force', async () => {
    assert.deepEqual(await values('--force delete log.d'), ['log.disk/filter', 'log.disk/setting']);
  });
});

describe('keys', () => {
  it('reads keys for get, update, delete, clone, move and --before/--after', async () => {
    for (const line of [
      'get router/access-list ',
      'update router/access-list ',
      'delete router/access-list ',
      'clone router/access-list ',
      'move router/access-list ',
      'revision router/access-list ',
    ]) {
      assert.deepEqual(await values(line), ['edge', 'lab gateway', 'lab/core'], line);
    }
    assert.deepEqual(await values('get router/access-list lab'), ['lab gateway', 'lab/core']);
    assert.deepEqual(await values('move router/access-list edge --before '), ['lab gateway', 'lab/core']);
    assert.deepEqual(await values('move router/access-list edge --after=lab'), [
      '--after=lab gateway',
      '--after=lab/core',
    ]);
  });

  it('offers each key once to delete, and no key where none goes', async () => {
    assert.deepEqual(await values('delete router/access-list edge lab/core '), ['lab gateway']);
    assert.deepEqual(await values('clone router/access-list edge '), []);
    assert.deepEqual(await values('update router/access-list edge '), []);
    assert.deepEqual(await values('list router/access-list '), []);
  });

  it('asks nothing for a singleton or an unknown table', async () => {
    const { sources, asked } = stub();
    assert.deepEqual(await values('get log.disk/setting ', sources), []);
    assert.deepEqual(await values('update log.disk/setting ', sources), []);
    assert.deepEqual(await values('get no.such/table ', sources), []);
    assert.deepEqual(asked, []);
  });

  it('passes the device options typed on the line', async () => {
    const { sources, asked } = stub();
    await values('get router/access-list --host ', sources);
    assert.equal(asked.length, 0, 'the cursor is on the value of --host');
    await values('--demo -d lab get --vdom=dmz router/access-list --host https://fw --insecure ', sources);
    assert.deepEqual(asked, [
      {
        table: 'router/access-list',
        line: {
          device: 'lab',
          host: 'https://fw',
          vdom: 'dmz',
          demo: true,
          insecure: true,
          caFile: undefined,
          force: undefined,
        },
      },
    ]);
  });
});

describe('fields', () => {
  it('completes --fields as a comma list of the table fields', async () => {
    assert.deepEqual(await values('list firewall.ipmacbinding/table --fields s'), ['seq-num', 'status']);
    assert.deepEqual(await values('list firewall.ipmacbinding/table --fields seq-num,s'), ['seq-num,status']);
  });

  it('completes --filter field names, then enum values after the operator', async () => {
    assert.deepEqual(await values('list firewall.ipmacbinding/table --filter st'), ['status']);
    assert.deepEqual(await values('list firewall.ipmacbinding/table --filter status=='), [
      'status==disable',
      'status==enable',
    ]);
    assert.deepEqual(await values('list firewall.ipmacbinding/table --filter status!=e'), ['status!=enable']);
    assert.deepEqual(await values('list firewall.ipmacbinding/table --filter ip==1,st'), ['ip==1,status']);
  });

  it('completes --set field= then the enum values of the field', async () => {
    const completion = await complete(PROGRAM, ['update', 'log.disk/setting', '--set'], 'roll-d', stub().sources);
    assert.deepEqual(
      completion.candidates.map((c) => [c.value, c.noSpace]),
      [['roll-day=', true]],
    );
    assert.deepEqual(await values('update log.disk/setting --set roll-day=s'), [
      'roll-day=saturday',
      'roll-day=sunday',
    ]);
    assert.deepEqual(await values('create firewall.ipmacbinding/table --set status='), [
      'status=disable',
      'status=enable',
    ]);
    assert.deepEqual(await values('update log.disk/setting --set max-log-file-size='), []);
  });

  it('completes a reference with the keys of the tables it names, from the device, after = += -= and a comma', async () => {
    const keysOf = (table: string) => (table === 'firewall/address' ? ['lan-net', 'dmz-net'] : ['internal-nets']);
    const asked: string[] = [];
    const sources: Sources = {
      ...stub().sources,
      keys: async (table: TableDef) => {
        asked.push(table.path);
        return keysOf(table.path);
      },
    };
    assert.deepEqual(await values('create firewall/policy --set srcaddr=', sources), [
      'srcaddr=dmz-net',
      'srcaddr=internal-nets',
      'srcaddr=lan-net',
    ]);
    assert.ok(asked.includes('firewall/address') && asked.includes('firewall/addrgrp'), asked.join());
    assert.deepEqual(await values('update firewall/policy 1 --set srcaddr+=l', sources), ['srcaddr+=lan-net']);
    assert.deepEqual(await values('update firewall/addrgrp g --set member-=d', sources), ['member-=dmz-net']);
    assert.deepEqual(await values('update firewall/addrgrp g --set member+=lan-net,d', sources), [
      'member+=lan-net,dmz-net',
    ]);
    // A single-value reference: the interfaces a route names.
    const routes = await values('create router/static --set device=', {
      ...stub().sources,
      keys: async (table: TableDef) => (table.path === 'system/interface' ? ['port1', 'port2'] : []),
    });
    assert.deepEqual(routes, ['device=port1', 'device=port2']);
    // A field that names nothing still offers its enum values only.
    assert.deepEqual(await values('create firewall/policy --set action=d', sources), ['action=deny']);
  });

  it('completes --key with a field name', async () => {
    assert.deepEqual(await values('list firewall.ipmacbinding/table --key se'), ['seq-num']);
  });

  it('offers no field before the table is on the line', async () => {
    assert.deepEqual(await values('list --fields '), []);
  });
});

describe("a device of another release: its catalogue's tables and fields", () => {
  const catalogue = new DeviceCatalogue({ version: 'v7.2.5', build: 1517 }, [
    {
      path: 'router',
      name: 'policy-x',
      schema: {
        category: 'table',
        mkey: 'seq-num',
        mkey_type: 'integer',
        children: {
          action: { type: 'option', options: [{ name: 'permit' }, { name: 'deny' }] },
          priority: { type: 'integer' },
        },
      },
    },
  ]);
  it('offers its tables, its fields and their values, and asks keys of its tables', async () => {
    const { sources, asked } = stub(['1', '2'], catalogue);
    assert.deepEqual(await values('get router/pol', sources), ['router/policy-x']);
    assert.deepEqual(await values('list router/ro', sources), []);
    assert.deepEqual(await values('create router/policy-x --set a', sources), ['action=']);
    assert.deepEqual(await values('create router/policy-x --set action=', sources), ['action=deny', 'action=permit']);
    assert.deepEqual(await values('get router/policy-x ', sources), ['1', '2']);
    assert.deepEqual(
      asked.map((a) => a.table),
      ['router/policy-x'],
    );
  });
});
