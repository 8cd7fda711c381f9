// The reader of the device's syntax: documentation-style snippets, a backup with its header, VDOM
// layout and `config global`, every verb, and what it makes of values, against the shipped catalogue.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTable } from '../../src/catalogue/index.js';
import { contentOf, isConf, readConf, type ConfDocument, type ReadOptions } from '../../src/syntax/index.js';

const read = (text: string, options: Partial<ReadOptions> = {}): ConfDocument =>
  readConf(text, 'fw.conf', { lookup: findTable, ...options });
const lines = (...l: string[]) => `${l.join('\n')}\n`;
/** Each table as `vdom table` → its content. */
const contents = (doc: ConfDocument) =>
  Object.fromEntries(doc.tables.map((t) => [`${t.vdom ?? 'global'} ${t.table.path}`, contentOf(t)]));

describe('recognised by content', () => {
  test('a first line (past comments) starting config, or a backup header; YAML and JSON are not', () => {
    assert.ok(isConf('config firewall address\nend\n'));
    assert.ok(isConf('\uFEFF\n# from the handbook\n\n  config system dns\n    set primary 1.1.1.1\nend'));
    assert.ok(isConf('#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin\n#buildno=2093\n'));
    assert.ok(!isConf('vdoms:\n  root: {}\n'));
    assert.ok(!isConf('# config firewall address\nvdoms: {}\n'));
    assert.ok(!isConf('{"vdoms": {}}'));
    assert.ok(!isConf('configuration: 1\n'));
    assert.ok(!isConf(''));
  });
});

describe('a snippet from the documentation', () => {
  const snippet = lines(
    'config firewall address',
    '    edit "lan-net"',
    '        set subnet 192.168.1.0/24',
    '        set associated-interface "port1"',
    '    next',
    '    edit servers-net',
    '        set subnet 10.10.10.0 255.255.255.0',
    '        set color 3',
    '    next',
    'end',
    'config firewall addrgrp',
    '    edit "internal-nets"',
    '        set member "lan-net" servers-net',
    '    next',
    'end',
    'config firewall policy',
    '    edit 0',
    '        set name "lan-to-servers"',
    '        set srcintf "port1"',
    '        set dstintf "port4"',
    '        set srcaddr "internal-nets"',
    '        set dstaddr "servers-net"',
    '        set action accept',
    '        set schedule "always"',
    '        set service "HTTPS" "SSH"',
    '        set logtraffic all',
    '    next',
    'end',
  );

  test('reads into the VDOM given, values typed by their fields', () => {
    const doc = read(snippet, { vdom: 'dmz' });
    assert.equal(doc.backup, false);
    assert.equal(doc.defaultsExcluded, false);
    assert.deepEqual(doc.unknown, []);
    assert.deepEqual(contents(doc), {
      'dmz firewall/address': [
        { name: 'lan-net', subnet: '192.168.1.0 255.255.255.0', 'associated-interface': 'port1' },
        { name: 'servers-net', subnet: '10.10.10.0 255.255.255.0', color: 3 },
      ],
      'dmz firewall/addrgrp': [{ name: 'internal-nets', member: [{ name: 'lan-net' }, { name: 'servers-net' }] }],
      'dmz firewall/policy': [
        {
          policyid: 0,
          name: 'lan-to-servers',
          srcintf: [{ name: 'port1' }],
          dstintf: [{ name: 'port4' }],
          srcaddr: [{ name: 'internal-nets' }],
          dstaddr: [{ name: 'servers-net' }],
          action: 'accept',
          schedule: 'always',
          service: [{ name: 'HTTPS' }, { name: 'SSH' }],
          logtraffic: 'all',
        },
      ],
    });
    const policy = doc.tables.find((t) => t.table.path === 'firewall/policy')!;
    assert.deepEqual(
      policy.objects.map((o) => [o.line, o.key]),
      [[17, 0]],
    );
    assert.deepEqual(
      doc.tables.map((t) => [t.table.path, t.line]),
      [
        ['firewall/address', 1],
        ['firewall/addrgrp', 11],
        ['firewall/policy', 16],
      ],
    );
  });

  test('every edit 0 is a new object; other keys stated twice merge, the later line winning', () => {
    const doc = read(
      lines(
        'config firewall policy',
        '    edit 0',
        '        set name "a"',
        '    next',
        '    edit 0',
        '        set name "b"',
        '    next',
        '    edit 7',
        '        set name "seven"',
        '        set action accept',
        '    next',
        'end',
        'config firewall policy',
        '    edit 7',
        '        set action deny',
        '    next',
        'end',
      ),
    );
    assert.deepEqual(contents(doc)['root firewall/policy'], [
      { policyid: 0, name: 'a' },
      { policyid: 0, name: 'b' },
      { policyid: 7, name: 'seven', action: 'deny' },
    ]);
  });

  test('a singleton, global tables to global, a group of settings and a sub-table', () => {
    const doc = read(
      lines(
        'config system dns',
        '    set primary 9.9.9.9',
        '    set domain "example.com" "corp.example.com"',
        'end',
        'config log disk setting',
        '    set status enable',
        '    set roll-day monday friday',
        '    set max-log-file-size 50',
        'end',
        'config system interface',
        '    edit "port1"',
        '        set allowaccess ping https ssh',
        '        config ipv6',
        '            set ip6-mode static',
        '        end',
        '    next',
        'end',
        'config router access-list',
        '    edit "acl1"',
        '        config rule',
        '            edit 1',
        '                set prefix 10.0.0.0 255.0.0.0',
        '                set exact-match disable',
        '            next',
        '            edit 2',
        '                set action deny',
        '                set prefix any',
        '            next',
        '        end',
        '    next',
        'end',
      ),
    );
    assert.deepEqual(contents(doc), {
      'global system/dns': { primary: '9.9.9.9', domain: [{ domain: 'example.com' }, { domain: 'corp.example.com' }] },
      'root log.disk/setting': { status: 'enable', 'roll-day': 'monday friday', 'max-log-file-size': 50 },
      'root system/interface': [{ name: 'port1', allowaccess: 'ping https ssh', ipv6: { 'ip6-mode': 'static' } }],
      'root router/access-list': [
        {
          name: 'acl1',
          rule: [
            { id: 1, prefix: '10.0.0.0 255.0.0.0', 'exact-match': 'disable' },
            { id: 2, action: 'deny', prefix: 'any' },
          ],
        },
      ],
    });
  });
});

describe('quoting and comments', () => {
  test('a quoted value spans lines; single quotes; \\" and \\\\ escaped; ENC secrets kept whole', () => {
    const doc = read(
      lines(
        '# a comment',
        'config user local',
        '    edit "alice"',
        '        # another',
        '        set passwd ENC SH2nlSm9Q3Ww6bYbh5D0dAs3ZsHnqTzzMBZyNrSoJrkB5U+2c3DwpCJrQ3A=',
        "        set email-to ''",
        '    next',
        'end',
        'config firewall address',
        '    edit "say \\"hi\\" \\\\ there"',
        '        set comment "line one',
        'line two with a # inside"',
        "        set fqdn 'it''s'",
        '    next',
        'end',
      ),
    );
    assert.deepEqual(contents(doc), {
      'root user/local': [
        { name: 'alice', passwd: 'ENC SH2nlSm9Q3Ww6bYbh5D0dAs3ZsHnqTzzMBZyNrSoJrkB5U+2c3DwpCJrQ3A=', 'email-to': '' },
      ],
      'root firewall/address': [
        { name: 'say "hi" \\ there', comment: 'line one\nline two with a # inside', fqdn: 'its' },
      ],
    });
    // Lines are counted across the value that spans two.
    assert.deepEqual(
      doc.tables[1].objects.map((o) => o.line),
      [10],
    );
    assert.throws(
      () => read(lines('config firewall address', '    edit "a"', '        set comment "one', 'two"', '    nxt')),
      /^UsageError: fw\.conf:5: unknown command 'nxt'/,
    );
  });

  test('config <path> "<key>" opens one object, closed by end; SPEC.md\'s renamed tables by either name', () => {
    const doc = read(
      lines(
        'config system replacemsg mail "email-block"',
        '    set buffer "blocked"',
        '    set format html',
        'end',
        'config log fortianalyzer2 setting',
        '    set status enable',
        'end',
      ),
    );
    assert.deepEqual(contents(doc), {
      'global system.replacemsg/mail': [{ 'msg-type': 'email-block', buffer: 'blocked', format: 'html' }],
      'global log.vendoranalyzer2/setting': { status: 'enable' },
    });
  });
});

describe('a backup', () => {
  const backup = lines(
    '#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin',
    '#conf_file_ver=3171',
    '#buildno=2093',
    '#global_vdom=1',
    'config vdom',
    'edit root',
    'next',
    'edit dmz',
    'next',
    'end',
    'config global',
    'config system global',
    '    set hostname "fw1"',
    'end',
    'config system interface',
    '    edit "port1"',
    '        set vdom "root"',
    '        set ip 192.168.1.99 255.255.255.0',
    '    next',
    '    edit "port3"',
    '        set vdom "dmz"',
    '    next',
    'end',
    'config system admin',
    '    edit "admin"',
    '        set vdom "root" "dmz"',
    '    next',
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
    '    edit "web-server"',
    '        set subnet 172.16.10.10 255.255.255.255',
    '    next',
    'end',
    'config system settings',
    '    set opmode nat',
    'end',
    'next',
    'end',
  );

  test('its header; the VDOM list is system/vdom; config global to global, both tables by their vdom field', () => {
    const doc = read(backup);
    assert.equal(doc.backup, true);
    assert.equal(doc.defaultsExcluded, true);
    assert.equal(doc.release, '6.4.14');
    assert.equal(doc.header.buildno, '2093');
    assert.equal(doc.header.global_vdom, '1');
    assert.deepEqual(doc.vdoms, ['root', 'dmz']);
    assert.deepEqual(contents(doc), {
      'global system/vdom': [{ name: 'root' }, { name: 'dmz' }],
      'global system/global': { hostname: 'fw1' },
      'root system/interface': [{ name: 'port1', vdom: 'root', ip: '192.168.1.99 255.255.255.0' }],
      'dmz system/interface': [{ name: 'port3', vdom: 'dmz' }],
      'root system/admin': [{ name: 'admin', vdom: [{ name: 'root' }, { name: 'dmz' }] }],
      'root firewall/address': [{ name: 'lan-net', subnet: '192.168.1.0 255.255.255.0' }],
      'dmz firewall/address': [{ name: 'web-server', subnet: '172.16.10.10 255.255.255.255' }],
      'dmz system/settings': { opmode: 'nat' },
    });
  });

  test('the defaults mark of an export; a file without VDOMs goes to the VDOM given', () => {
    const doc = read(lines('#cmdb:defaults=excluded', 'config firewall address', 'end'), { vdom: 'dmz' });
    assert.equal(doc.backup, false);
    assert.equal(doc.defaultsExcluded, true);
    assert.deepEqual(contents(doc), { 'dmz firewall/address': [] });
  });
});

describe('verbs', () => {
  test('unset, append, unselect on objects; delete, purge, rename, move as steps with their lines', () => {
    const doc = read(
      lines(
        'config firewall policy',
        '    edit 4',
        '        unset comments',
        '        unset srcaddr',
        '        append srcaddr "dmz-net" "lan-net"',
        '        append srcaddr "web-server"',
        '        unselect dstaddr "all"',
        '    next',
        '    delete 9',
        '    move 4 before 2',
        '    purge',
        'end',
        'config firewall address',
        '    rename "old-net" to "new-net"',
        'end',
        'config system interface',
        '    edit "port1"',
        '        append allowaccess ssh',
        '        unselect allowaccess telnet http',
        '        unset status',
        '    next',
        'end',
      ),
    );
    const [policy, address, port] = doc.tables;
    assert.deepEqual(policy.objects, [
      {
        line: 2,
        key: 4,
        fields: { policyid: 4, comments: '', srcaddr: [] },
        unset: ['comments', 'srcaddr'],
        append: { srcaddr: [{ name: 'dmz-net' }, { name: 'lan-net' }, { name: 'web-server' }] },
        unselect: { dstaddr: [{ name: 'all' }] },
        lines: { comments: 3, srcaddr: 6, dstaddr: 7 },
      },
    ]);
    assert.deepEqual(policy.steps, [
      { verb: 'delete', line: 9, key: 9 },
      { verb: 'move', line: 10, key: 4, where: 'before', target: 2 },
      { verb: 'purge', line: 11 },
    ]);
    assert.deepEqual(address.objects, []);
    assert.deepEqual(address.steps, [{ verb: 'rename', line: 14, from: 'old-net', to: 'new-net' }]);
    assert.deepEqual(port.objects[0], {
      line: 17,
      key: 'port1',
      fields: { name: 'port1', status: 'up' },
      unset: ['status'],
      append: { allowaccess: 'ssh' },
      unselect: { allowaccess: 'telnet http' },
      lines: { allowaccess: 19, status: 20 },
    });
  });

  test('end in an edit block ends both, as on the device', () => {
    const doc = read(lines('config firewall address', '    edit "a"', '        set color 2', 'end'));
    assert.deepEqual(contents(doc), { 'root firewall/address': [{ name: 'a', color: 2 }] });
  });
});

describe('tables the catalogue does not know', () => {
  const text = lines(
    'config firewall address',
    'end',
    'config wanopt cache-service',
    '    set prefer-scenario balance',
    'end',
    'config vendor gadget',
    '    edit 1',
    '    next',
    'end',
    'config vendor gadget',
    'end',
  );

  test('are left out and listed once each, with their first line and how many blocks', () => {
    const lookup = (path: string) => (path === 'wanopt/cache-service' ? undefined : findTable(path));
    const doc = read(text, { lookup });
    assert.deepEqual(contents(doc), { 'root firewall/address': [] });
    assert.deepEqual(doc.unknown, [
      { path: 'wanopt/cache-service', line: 3, count: 1 },
      { path: 'vendor/gadget', line: 6, count: 2 },
    ]);
  });

  test('strict: the first is an error naming the file and line', () => {
    assert.throws(
      () => read(text, { strict: true }),
      (err: Error & { exitCode?: number }) =>
        err.name === 'UsageError' &&
        err.exitCode === 2 &&
        err.message === 'fw.conf:6: vendor/gadget is not a table of this device',
    );
  });
});
