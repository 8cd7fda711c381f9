import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPath, buildQuery, normalizeBaseUrl, redactAddress } from '../../src/api/url.js';

test('the whole mkey is one percent-encoded path segment', () => {
  const cases: [string | number, string][] = [
    ['10.0.0.0/8', '10.0.0.0%2F8'],
    ['a b', 'a%20b'],
    ['x?y', 'x%3Fy'],
    ['50%', '50%25'],
    ['#1', '%231'],
    ['café/ü', 'caf%C3%A9%2F%C3%BC'],
    [7, '7'],
  ];
  for (const [mkey, encoded] of cases) {
    assert.equal(buildPath('/api/v2/cmdb', 'router/access-list', mkey), `/api/v2/cmdb/router/access-list/${encoded}`);
  }
});

test('table paths are sent as the device spells them, encoded only where a URL needs it', () => {
  assert.equal(buildPath('/api/v2/cmdb', 'user/tacacs+'), '/api/v2/cmdb/user/tacacs+');
  assert.equal(buildPath('/api/v2/cmdb', 'firewall/DoS-policy', 3), '/api/v2/cmdb/firewall/DoS-policy/3');
  assert.equal(
    buildPath('/api/v2/cmdb', 'firewall.service/custom', 'HTTP/S'),
    '/api/v2/cmdb/firewall.service/custom/HTTP%2FS',
  );
  assert.equal(buildPath('/api/v2/cmdb', 'odd area/t#1'), '/api/v2/cmdb/odd%20area/t%231');
});

test('paths join prefix and table whatever the slashes', () => {
  assert.equal(buildPath('api/v2/cmdb/', '/log.disk/setting'), '/api/v2/cmdb/log.disk/setting');
  assert.equal(buildPath('/api/v2/cmdb', ''), '/api/v2/cmdb');
});

test('query: booleans as 1, format pipe-joined, filter repeated, vdom comma-joined', () => {
  const q = buildQuery({
    vdom: ['root', 'dmz'],
    with_meta: true,
    datasource: false,
    format: ['name', 'ip', 'mac'],
    filter: ['status==enable', 'name=@web,name=@mail'],
    start: 0,
    count: 10,
  });
  assert.equal(
    q,
    '?vdom=root%2Cdmz&with_meta=1&format=name%7Cip%7Cmac&filter=status%3D%3Denable&filter=name%3D%40web%2Cname%3D%40mail&start=0&count=10',
  );
  const decoded = new URLSearchParams(q);
  assert.deepEqual(decoded.getAll('filter'), ['status==enable', 'name=@web,name=@mail']);
  assert.equal(decoded.get('format'), 'name|ip|mac');
  assert.equal(decoded.get('vdom'), 'root,dmz');
  assert.equal(decoded.get('datasource'), null);
});

test('query: vdom * and the hyphenated exclude-default-values', () => {
  assert.equal(buildQuery({ vdom: ['*'], 'exclude-default-values': true }), '?vdom=*&exclude-default-values=1');
  assert.equal(buildQuery({}), '');
});

test('base URLs: bare host means https, ports and IPv6 kept', () => {
  assert.equal(normalizeBaseUrl('fw.example'), 'https://fw.example');
  assert.equal(normalizeBaseUrl('fw.example:8443/'), 'https://fw.example:8443');
  assert.equal(normalizeBaseUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  assert.equal(normalizeBaseUrl('[2001:db8::1]:10443'), 'https://[2001:db8::1]:10443');
  assert.equal(normalizeBaseUrl('2001:db8::1'), 'https://[2001:db8::1]');
  assert.throws(() => normalizeBaseUrl('ftp://x'));
});

test('an address is shown with its whole user information as ***', () => {
  assert.equal(redactAddress('http://admin:pw@fw'), 'http://***@fw');
  assert.equal(redactAddress('http://pw-secret@fw:8443'), 'http://***@fw:8443');
  assert.equal(redactAddress('a@b:pw@fw'), '***@fw');
  assert.equal(redactAddress('https://fw.example'), 'https://fw.example');
});
