// The writer of the device's syntax against hand-written text, as a device's `show` (and `show
// full-configuration`) prints the same objects: every kind of value, sub-tables, singletons, a table
// path with a sub-area, the two layouts and the defaults mark. Real catalogue tables, no device.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTable, type TableDef } from '../../src/catalogue/index.js';
import { ConfWriter, writeConf, type ConfTableInput, type Obj } from '../../src/syntax/index.js';

const table = (path: string): TableDef => findTable(path)!;
const root = (path: string, content: Obj[] | Obj): ConfTableInput => ({ vdom: 'root', table: table(path), content });
/** Lines joined as the device prints them, each ending its line. */
const text = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('values, as show prints them', () => {
  test('addresses: strings and references quoted, UUIDs, options and integers bare, a classnet as address and mask', () => {
    const out = writeConf(
      [
        root('firewall/address', [
          {
            name: 'lan-net',
            q_origin_key: 'lan-net',
            uuid: '0e03151e-3e07-4425-ace9-e3b1dbc56e1d',
            subnet: '192.168.1.0 255.255.255.0',
            type: 'ipmask',
            'associated-interface': 'port1',
            comment: 'office "LAN" \\ floor 2',
            color: 13,
            'allow-routing': 'disable',
          },
          { name: 'servers-net', subnet: '10.10.10.0/24', type: 'ipmask', color: 0 },
          { name: 'update.example.com', type: 'fqdn', fqdn: 'update.example.com', subnet: '0.0.0.0 0.0.0.0' },
        ]),
      ],
      { fields: 'changed' },
    );
    assert.equal(
      out,
      text(
        'config firewall address',
        '    edit "lan-net"',
        '        set uuid 0e03151e-3e07-4425-ace9-e3b1dbc56e1d',
        '        set subnet 192.168.1.0 255.255.255.0',
        '        set comment "office \\"LAN\\" \\\\ floor 2"',
        '        set associated-interface "port1"',
        '        set color 13',
        '    next',
        '    edit "servers-net"',
        '        set subnet 10.10.10.0 255.255.255.0',
        '    next',
        '    edit "update.example.com"',
        '        set type fqdn',
        '        set fqdn "update.example.com"',
        '    next',
        'end',
      ),
    );
  });

  test('a group: its members on one set, each quoted', () => {
    const out = writeConf(
      [
        root('firewall/addrgrp', [
          {
            name: 'internal-nets',
            member: [
              { name: 'lan-net', q_origin_key: 'lan-net' },
              { name: 'servers-net', q_origin_key: 'servers-net' },
            ],
            comment: 'every internal network',
          },
        ]),
      ],
      { fields: 'changed' },
    );
    assert.equal(
      out,
      text(
        'config firewall addrgrp',
        '    edit "internal-nets"',
        '        set member "lan-net" "servers-net"',
        '        set comment "every internal network"',
        '    next',
        'end',
      ),
    );
  });

  test('a policy: an integer key bare, member lists, options, a user-typed value bare, the catalogue order', () => {
    const policy = {
      policyid: 1,
      status: 'enable',
      comments: 'to the internet',
      nat: 'enable',
      service: [{ name: 'ALL' }],
      schedule: 'always',
      action: 'accept',
      dstaddr: [{ name: 'all' }],
      srcaddr: [{ name: 'lan-net' }, { name: 'servers-net' }],
      dstintf: [{ name: 'port2' }],
      srcintf: [{ name: 'port1' }],
      name: 'lan-to-internet',
      tos: '0x00',
      logtraffic: 'utm',
    };
    assert.equal(
      writeConf([root('firewall/policy', [policy])], { fields: 'changed' }),
      text(
        'config firewall policy',
        '    edit 1',
        '        set name "lan-to-internet"',
        '        set srcintf "port1"',
        '        set dstintf "port2"',
        '        set srcaddr "lan-net" "servers-net"',
        '        set dstaddr "all"',
        '        set action accept',
        '        set schedule "always"',
        '        set service "ALL"',
        '        set tos 0x00',
        '        set nat enable',
        '        set comments "to the internet"',
        '    next',
        'end',
      ),
    );
  });

  test('a sub-table: a nested config block with edit, next and end per entry', () => {
    const acl = {
      name: 'acl1',
      comments: '',
      rule: [
        { id: 1, action: 'permit', prefix: '10.0.0.0 255.0.0.0', wildcard: '', 'exact-match': 'disable', flags: 0 },
        { id: 2, action: 'deny', prefix: 'any', wildcard: '', 'exact-match': 'enable', flags: 0 },
      ],
    };
    assert.equal(
      writeConf([root('router/access-list', [acl])], { fields: 'changed' }),
      text(
        'config router access-list',
        '    edit "acl1"',
        '        config rule',
        '            edit 1',
        '                set prefix 10.0.0.0 255.0.0.0',
        '            next',
        '            edit 2',
        '                set action deny',
        '                set prefix any',
        '                set exact-match enable',
        '            next',
        '        end',
        '    next',
        'end',
      ),
    );
  });

  test('an interface: a multi-value option bare on one set, a group of settings as a block, a member list', () => {
    const port = {
      name: 'port1',
      vdom: 'root',
      ip: '192.168.1.99 255.255.255.0',
      allowaccess: 'ping https ssh',
      type: 'physical',
      alias: '',
      member: [],
      ipv6: { 'ip6-mode': 'dhcp', 'nd-mode': 'basic' },
    };
    const agg = { name: 'agg1', vdom: 'root', type: 'aggregate', member: [{ 'interface-name': 'port3' }] };
    assert.equal(
      writeConf([root('system/interface', [port, agg])], { fields: 'changed' }),
      text(
        'config system interface',
        '    edit "port1"',
        '        set vdom "root"',
        '        set ip 192.168.1.99 255.255.255.0',
        '        set allowaccess ping https ssh',
        '        set type physical',
        '        config ipv6',
        '            set ip6-mode dhcp',
        '        end',
        '    next',
        '    edit "agg1"',
        '        set vdom "root"',
        '        set type aggregate',
        '        set member "port3"',
        '    next',
        'end',
      ),
    );
  });

  test('a secret as the device prints it: ENC and its base64 bare', () => {
    const alice = {
      name: 'alice',
      status: 'enable',
      type: 'password',
      passwd: 'ENC SH2nlSm9Q3Ww6bYbh5D0dAs3ZsHnqTzzMBZyNrSoJrkB5U+2c3DwpCJrQ3A=',
      'email-to': 'alice@example.com',
    };
    assert.equal(
      writeConf([root('user/local', [alice])], { fields: 'changed' }),
      text(
        'config user local',
        '    edit "alice"',
        '        set passwd ENC SH2nlSm9Q3Ww6bYbh5D0dAs3ZsHnqTzzMBZyNrSoJrkB5U+2c3DwpCJrQ3A=',
        '        set email-to "alice@example.com"',
        '    next',
        'end',
      ),
    );
  });

  test('a singleton of a sub-area: set lines directly in config ... end; a multi-value option; an integer', () => {
    const setting = {
      status: 'enable',
      'roll-day': 'monday friday',
      'max-log-file-size': 20,
      uploadip: '10.0.0.5',
      'upload-destination': 'ftp-server',
    };
    assert.equal(
      writeConf([root('log.disk/setting', setting)], { fields: 'changed' }),
      text(
        'config log disk setting',
        '    set status enable',
        '    set roll-day monday friday',
        '    set uploadip 10.0.0.5',
        'end',
      ),
    );
  });

  test('a custom service: a table path with a sub-area, port ranges (user) bare', () => {
    const service = {
      name: 'app-8443',
      protocol: 'TCP/UDP/SCTP',
      'tcp-portrange': '8443 9443:1024-2048',
      'udp-portrange': '',
      category: 'Web Access',
      proxy: 'disable',
    };
    assert.equal(
      writeConf([root('firewall.service/custom', [service])], { fields: 'changed' }),
      text(
        'config firewall service custom',
        '    edit "app-8443"',
        '        set category "Web Access"',
        '        set tcp-portrange 8443 9443:1024-2048',
        '    next',
        'end',
      ),
    );
  });
});

describe('every field, as show full-configuration prints it', () => {
  test('fields at their default are written; an empty text is two quotes, an empty option unset', () => {
    const port = { name: 'port9', vdom: 'root', allowaccess: '', alias: '', status: 'up', type: 'physical' };
    assert.equal(
      writeConf([root('system/interface', [port])]),
      text(
        'config system interface',
        '    edit "port9"',
        '        set vdom "root"',
        '        unset allowaccess',
        '        set status up',
        '        set type physical',
        "        set alias ''",
        '    next',
        'end',
      ),
    );
  });

  test('an empty keyed table is config ... end; an empty value that is not the default stays two quotes', () => {
    assert.equal(writeConf([root('firewall/address', [])]), text('config firewall address', 'end'));
    const setting = { status: 'enable', uploadip: '' };
    assert.equal(
      writeConf([root('log.disk/setting', setting)]),
      text('config log disk setting', '    set status enable', "    set uploadip ''", 'end'),
    );
  });
});

describe('layouts', () => {
  const address = { name: 'lan-net', subnet: '192.168.1.0 255.255.255.0' };
  const dns = { primary: '9.9.9.9' };

  test('several VDOMs and a global table: the VDOM list, config global, then a block per VDOM', () => {
    const out = writeConf(
      [
        root('firewall/address', [address]),
        { vdom: 'dmz', table: table('firewall/address'), content: [address] },
        { vdom: null, table: table('system/dns'), content: dns },
      ],
      { fields: 'changed', header: ['#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin'] },
    );
    assert.equal(
      out,
      text(
        '#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin',
        'config vdom',
        'edit root',
        'next',
        'edit dmz',
        'next',
        'end',
        'config global',
        'config system dns',
        '    set primary 9.9.9.9',
        'end',
        'end',
        'config vdom',
        'edit root',
        'config firewall address',
        '    edit "lan-net"',
        '        set subnet 192.168.1.0 255.255.255.0',
        '    next',
        'end',
        'next',
        'end',
        'config vdom',
        'edit dmz',
        'config firewall address',
        '    edit "lan-net"',
        '        set subnet 192.168.1.0 255.255.255.0',
        '    next',
        'end',
        'next',
        'end',
      ),
    );
  });

  test('a whole document without defaults starts with the mark; a snippet of one VDOM has no VDOM blocks', () => {
    const out = writeConf([root('firewall/address', [address])], { fields: 'changed', document: true });
    assert.equal(
      out,
      text(
        '#cmdb:defaults=excluded',
        'config firewall address',
        '    edit "lan-net"',
        '        set subnet 192.168.1.0 255.255.255.0',
        '    next',
        'end',
      ),
    );
    // A snippet may hold global tables beside its VDOM's (read back by their scope).
    const snippet = writeConf([{ vdom: null, table: table('system/dns'), content: dns }], {
      fields: 'changed',
      layout: 'snippet',
    });
    assert.equal(snippet, text('config system dns', '    set primary 9.9.9.9', 'end'));
    assert.throws(
      () =>
        writeConf([root('firewall/address', []), { vdom: 'dmz', table: table('firewall/address'), content: [] }], {
          layout: 'snippet',
        }),
      /one VDOM/,
    );
  });

  test('system/vdom is the VDOM list; omitEmpty leaves out tables with nothing to print', () => {
    const out = writeConf(
      [
        { vdom: null, table: table('system/vdom'), content: [{ name: 'root' }, { name: 'dmz', 'vcluster-id': 0 }] },
        root('firewall/address', []),
        root('log.disk/setting', { status: 'disable' }),
        root('firewall/addrgrp', [{ name: 'g', member: [{ name: 'lan-net' }] }]),
      ],
      { fields: 'changed', omitEmpty: true },
    );
    assert.equal(
      out,
      text(
        'config vdom',
        'edit root',
        'next',
        'edit dmz',
        'next',
        'end',
        'config vdom',
        'edit root',
        'config firewall addrgrp',
        '    edit "g"',
        '        set member "lan-net"',
        '    next',
        'end',
        'next',
        'end',
      ),
    );
  });

  test('the streaming writer gives the same text as writeConf, one object at a time', () => {
    const objects = [address, { name: 'dmz-net', subnet: '172.16.10.0 255.255.255.0' }];
    const writer = new ConfWriter({ fields: 'changed', layout: 'snippet' });
    let out = writer.start();
    out += writer.open('root', table('firewall/address'));
    for (const object of objects) out += writer.object(object);
    out += writer.finish();
    assert.equal(out, writeConf([root('firewall/address', objects)], { fields: 'changed' }));
  });
});
