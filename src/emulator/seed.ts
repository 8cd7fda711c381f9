// The tables a new emulated device starts with: the factory objects every seed holds (the empty one
// included), and the demo's realistic, deterministic data over them.
import { createHash } from 'node:crypto';
import { allows, type TableDef } from '../catalogue/index.js';
import { factoryObjects } from '../catalogue/factory.js';
import { factoryObject, factorySettings, pem } from './factory.js';
import { isUuid, materialize, type Obj } from './schema.js';
import { keyId, KeyedTable, SingletonTable, type Owner, type TableState } from './store.js';

/** Whose tables a seed is for: a VDOM (the management VDOM, `primary`, gets more), or the global ones. */
export interface Flavor {
  index: number;
  primary: boolean;
  vdom: string;
  /** The device's one copy of a global table (it holds what each VDOM's would). */
  global: boolean;
  /** Every VDOM of the device, the management one first. */
  vdoms: readonly string[];
}
type KeyedSeed = (flavor: Flavor) => Obj[];
type SingletonSeed = (flavor: Flavor) => Obj;

/** The flavor of a table's owner: a VDOM, or null for the device's global tables (made as the management VDOM's). */
export function flavorOf(vdoms: readonly string[], owner: Owner): Flavor {
  const index = owner === null ? 0 : vdoms.indexOf(owner);
  return { index, primary: index === 0, vdom: owner ?? vdoms[0], global: owner === null, vdoms };
}

const hex2 = (n: number) => (n & 0xff).toString(16).padStart(2, '0');

/** The certificates an administrator imported: one VDOM's, or in the device's global table every VDOM's. */
const perVdom =
  (seed: KeyedSeed): KeyedSeed =>
  (f) =>
    f.global
      ? f.vdoms.flatMap((vdom, index) =>
          seed(flavorOf(f.vdoms, vdom)).filter((o) => index === 0 || o.range !== 'global'),
        )
      : seed(f);

const caSeed: KeyedSeed = (f) => [
  {
    name: 'Device_CA',
    ca: pem('CERTIFICATE', 'Device_CA'),
    range: 'global',
    source: 'factory',
    'ssl-inspection-trusted': 'enable',
  },
  {
    name: 'Device_CA_Untrusted',
    ca: pem('CERTIFICATE', 'Device_CA_Untrusted'),
    range: 'global',
    source: 'factory',
    'ssl-inspection-trusted': 'disable',
  },
  f.primary
    ? {
        name: 'Corp_Root_CA',
        ca: pem('CERTIFICATE', 'Corp_Root_CA'),
        range: 'vdom',
        source: 'user',
        'ssl-inspection-trusted': 'enable',
        'scep-url': 'http://pki.example.com/scep',
        'auto-update-days': 30,
        'auto-update-days-warning': 7,
      }
    : {
        name: 'Partner_CA',
        ca: pem('CERTIFICATE', 'Partner_CA'),
        range: 'vdom',
        source: 'user',
        'ssl-inspection-trusted': 'disable',
      },
];

const crlSeed: KeyedSeed = (f) => [
  {
    name: f.primary ? 'Corp_CRL' : 'Partner_CRL',
    crl: pem('X509 CRL', `crl-${f.index}`),
    range: 'vdom',
    source: 'user',
    'http-url': 'http://pki.example.com/corp.crl',
    'update-interval': 86400,
  },
];

const localCertSeed: KeyedSeed = (f) => [
  {
    name: 'Device_Self_Sign',
    certificate: pem('CERTIFICATE', 'Device_Self_Sign'),
    'private-key': pem('ENCRYPTED PRIVATE KEY', 'key-1'),
    password: 'factory-key-secret',
    state: 'OK',
    range: 'global',
    source: 'factory',
    comments: 'This is the default self-signed certificate.',
  },
  {
    name: 'Device_SSL_Inspection',
    certificate: pem('CERTIFICATE', 'Device_SSL_Inspection'),
    'private-key': pem('ENCRYPTED PRIVATE KEY', 'key-2'),
    password: 'factory-key-secret',
    state: 'OK',
    range: 'global',
    source: 'factory',
  },
  {
    name: f.primary ? 'vpn-portal' : 'dmz-web',
    certificate: pem('CERTIFICATE', `local-${f.index}`),
    'private-key': pem('ENCRYPTED PRIVATE KEY', `key-${f.index + 3}`),
    password: 'imported-key-secret',
    state: 'OK',
    range: 'vdom',
    source: 'user',
    comments: 'imported by the administrator',
    'ike-localid-type': 'fqdn',
    'ike-localid': f.primary ? 'vpn.example.com' : 'www.example.com',
  },
];

const chartSeed: KeyedSeed = () => [
  {
    name: 'traffic.bandwidth.timeline',
    dataset: 'traffic.bandwidth',
    category: 'traffic',
    type: 'graph',
    'graph-type': 'line',
    period: 'last24h',
    title: 'Bandwidth over time',
    favorite: 'yes',
    'x-series': [
      {
        databind: 'field(1)',
        caption: 'Time',
        'is-category': 'no',
        'scale-unit': 'hour',
        'scale-step': 1,
        'scale-format': 'YYYY-MM-DD HH',
        'font-size': 10,
        'caption-font-size': 12,
      },
    ],
    'y-series': [{ databind: 'field(2)', caption: 'Bandwidth', unit: 'bps', 'font-size': 10, 'caption-font-size': 12 }],
  },
  {
    name: 'traffic.top-sources',
    dataset: 'traffic.top-sources',
    category: 'traffic',
    type: 'table',
    period: 'last7d',
    title: 'Top sources by bytes',
    column: [
      { id: 1, 'header-value': 'Source', 'detail-value': '$1' },
      { id: 2, 'header-value': 'Bytes', 'detail-value': '$2', 'detail-unit': 'bytes', 'footer-value': 'total' },
    ],
  },
  {
    name: 'attack.by-severity',
    dataset: 'attack.by-severity',
    category: 'attack',
    type: 'graph',
    'graph-type': 'pie',
    dimension: '3D',
    title: 'Attacks by severity',
    'category-series': [{ databind: 'field(1)', 'font-size': 10 }],
    'value-series': [{ databind: 'field(2)' }],
  },
];

const datasetSeed: KeyedSeed = () => [
  {
    name: 'traffic.bandwidth',
    query:
      'select $flex_timescale(timestamp) as hodex, sum(coalesce(sentbyte, 0) + coalesce(rcvdbyte, 0)) ' +
      'as bandwidth from $log where $filter group by hodex order by hodex',
    field: [
      { id: 1, type: 'text', name: 'hodex', displayname: 'Time' },
      { id: 2, type: 'integer', name: 'bandwidth', displayname: 'Bandwidth' },
    ],
  },
  {
    name: 'traffic.top-sources',
    query:
      'select srcip, sum(coalesce(sentbyte, 0) + coalesce(rcvdbyte, 0)) ' +
      'as bytes from $log where $filter group by srcip order by bytes desc',
    field: [
      { id: 1, type: 'text', name: 'srcip', displayname: 'Source' },
      { id: 2, type: 'integer', name: 'bytes', displayname: 'Bytes' },
    ],
  },
  {
    name: 'attack.by-severity',
    query: 'select severity, count(*) as total from $log where $filter group by severity order by total desc',
    field: [
      { id: 1, type: 'text', name: 'severity', displayname: 'Severity' },
      { id: 2, type: 'integer', name: 'total', displayname: 'Events' },
    ],
    parameters: [{ id: 1, 'display-name': 'Severity', field: 'severity', 'data-type': 'text' }],
  },
];

const themeSeed: KeyedSeed = () => [
  {
    name: 'default-report',
    'page-orient': 'portrait',
    'column-count': '1',
    'default-html-style': 'default-html',
    'default-pdf-style': 'default-pdf',
    'page-style': 'page',
    'report-title-style': 'report-title',
  },
  {
    name: 'Blue Theme',
    'page-orient': 'landscape',
    'column-count': '2',
    'page-style': 'blue-page',
    'report-title-style': 'blue-title',
    'heading1-style': 'blue-h1',
    'normal-text-style': 'blue-text',
  },
];

const icapProfileSeed: KeyedSeed = () => [
  { name: 'default' },
  {
    name: 'icap-av',
    request: 'enable',
    response: 'enable',
    preview: 'enable',
    'preview-data-length': 1024,
    'request-server': 'icap-av-srv',
    'response-server': 'icap-av-srv',
    'request-path': '/reqmod',
    'response-path': '/respmod',
    'request-failure': 'bypass',
    'response-failure': 'error',
    methods: 'post',
    'icap-headers': [{ id: 1, name: 'X-Authenticated-User', content: '$user', 'base64-encoding': 'enable' }],
    'respmod-forward-rules': [
      {
        name: 'skip-images',
        host: 'cdn.example.com',
        action: 'bypass',
        'header-group': [{ id: 1, 'header-name': 'content-type', header: 'image/.*' }],
        'http-resp-status-code': [{ code: 200 }, { code: 304 }],
      },
    ],
  },
];

const icapServerSeed: KeyedSeed = () => [
  { name: 'icap-av-srv', 'ip-version': '4', 'ip-address': '192.0.2.10', port: 1344, 'max-connections': 100 },
  { name: 'icap-dlp-srv', 'ip-version': '6', 'ip6-address': '2001:db8::10', port: 11344, 'max-connections': 50 },
];

const filePatternSeed: KeyedSeed = (f) => [
  {
    id: 1,
    name: 'builtin-patterns',
    comment: 'script and executable extensions',
    entries: ['*.bat', '*.com', '*.exe', '*.hta', '*.js', '*.vbs'].map((pattern) => ({
      'filter-type': 'pattern',
      pattern,
    })),
  },
  {
    id: 2,
    name: 'all_executables',
    entries: ['exe', 'elf', 'mach-o', 'msi'].map((type) => ({
      'filter-type': 'type',
      pattern: type,
      'file-type': type,
    })),
  },
  ...(f.primary
    ? [
        {
          id: 3,
          name: 'office-documents',
          entries: ['msoffice', 'msofficex', 'pdf'].map((type) => ({
            'filter-type': 'type',
            pattern: type,
            'file-type': type,
          })),
        },
      ]
    : []),
];

const docSourceSeed: KeyedSeed = () => [
  {
    name: 'finance-share',
    'server-type': 'samba',
    server: '192.0.2.20',
    period: 'daily',
    vdom: 'mgmt',
    'file-path': '/finance/contracts',
    'file-pattern': '*.docx',
    sensitivity: 'Critical',
    'tod-hour': 2,
    'tod-min': 30,
    weekday: 'sunday',
    date: 1,
    username: 'dlp-scan',
    password: 'scan-secret',
  },
];

const ipsCustomSeed: KeyedSeed = () => [
  {
    tag: 'Block.Example.UserAgent',
    'rule-id': 1001,
    severity: 'medium',
    location: 'server',
    os: 'All',
    application: 'All',
    protocol: 'TCP',
    status: 'enable',
    log: 'enable',
    action: 'block',
    comment: 'blocks a scanner user agent',
    signature:
      'F-SBID( --name "Block.Example.UserAgent"; --protocol tcp; --service HTTP; --flow from_client; ' +
      '--pattern "BadBot/1.0"; --context header; --no_case; )',
  },
  {
    tag: 'Detect.Admin.Login',
    'rule-id': 1002,
    severity: 'low',
    location: 'server',
    os: 'All',
    application: 'All',
    protocol: 'TCP',
    status: 'enable',
    log: 'enable',
    'log-packet': 'enable',
    action: 'pass',
    comment: 'logs admin page requests',
    signature:
      'F-SBID( --name "Detect.Admin.Login"; --protocol tcp; --service HTTP; --flow from_client; ' +
      '--pattern "/admin/login"; --context uri; )',
  },
];

const decoderSeed: KeyedSeed = () => [
  { name: 'http_decoder', parameter: [{ name: 'port_list', value: '80 8080' }] },
  { name: 'dns_decoder', parameter: [{ name: 'port_list', value: '53' }] },
];

const bwlSeed: KeyedSeed = () => [
  {
    id: 1,
    name: 'corp-allowlist',
    comment: 'trusted senders and a blocked network',
    entries: [
      {
        id: 1,
        status: 'enable',
        type: 'email',
        action: 'clear',
        'pattern-type': 'wildcard',
        'email-pattern': '*@example.com',
      },
      {
        id: 2,
        status: 'enable',
        type: 'ip',
        action: 'reject',
        'addr-type': 'ipv4',
        'ip4-subnet': '198.51.100.0 255.255.255.0',
      },
      {
        id: 3,
        status: 'disable',
        type: 'email',
        action: 'spam',
        'pattern-type': 'regexp',
        'email-pattern': '^promo[0-9]+@.*$',
      },
    ],
  },
];

const bwordSeed: KeyedSeed = () => [
  {
    id: 1,
    name: 'spam-words',
    entries: [
      {
        id: 1,
        pattern: 'lottery winner',
        'pattern-type': 'wildcard',
        action: 'spam',
        where: 'subject',
        language: 'western',
        score: 10,
      },
      {
        id: 2,
        pattern: 'unclaimed*prize',
        'pattern-type': 'wildcard',
        action: 'spam',
        where: 'all',
        language: 'western',
        score: 5,
      },
    ],
  },
];

const contentSeed: KeyedSeed = () => [
  {
    id: 1,
    name: 'default-banned',
    entries: [
      { name: 'casino', 'pattern-type': 'wildcard', status: 'enable', lang: 'western', score: 10, action: 'block' },
      {
        name: 'free.*download',
        'pattern-type': 'regexp',
        status: 'enable',
        lang: 'western',
        score: 5,
        action: 'block',
      },
    ],
  },
];

const contentHeaderSeed: KeyedSeed = () => [
  { id: 1, name: 'block-executables', entries: [{ pattern: '.*application/x-msdownload', action: 'block' }] },
  { id: 2, name: 'allow-json', entries: [{ pattern: '.*application/json', action: 'allow' }] },
];

const authGroupSeed: KeyedSeed = () => [
  { name: 'peers-psk', 'auth-method': 'psk', psk: 'wanopt-demo-psk', 'peer-accept': 'any' },
  { name: 'peers-cert', 'auth-method': 'cert', cert: 'Fortinet_Factory', 'peer-accept': 'defined' },
];

const debugUrlSeed: KeyedSeed = () => [
  { name: 'debug-example', 'url-pattern': 'example.com/debug', status: 'enable', exact: 'disable' },
  { name: 'api?debug', 'url-pattern': '/api/*', status: 'disable', exact: 'enable' },
];

const accessListSeed: KeyedSeed = (f) => [
  {
    name: '10.0.0.0/8',
    comments: 'RFC 1918 class A',
    rule: [{ id: 1, action: 'permit', prefix: '10.0.0.0 255.0.0.0', 'exact-match': 'disable' }],
  },
  f.primary
    ? {
        name: 'mgmt nets',
        comments: 'management networks',
        rule: [
          { id: 1, action: 'permit', prefix: '192.168.1.0 255.255.255.0' },
          { id: 2, action: 'permit', prefix: '172.16.10.0 255.255.255.0', 'exact-match': 'enable' },
          { id: 3, action: 'deny', prefix: 'any' },
        ],
      }
    : {
        name: 'dmz servers',
        comments: 'published servers',
        rule: [{ id: 1, action: 'permit', prefix: '203.0.113.0 255.255.255.0' }],
      },
  { name: 'deny-all', rule: [{ id: 1, action: 'deny', prefix: 'any' }] },
];

const accessList6Seed: KeyedSeed = () => [
  { name: 'fd00::/8', comments: 'unique local addresses', rule: [{ id: 1, action: 'permit', prefix6: 'fd00::/8' }] },
  { name: 'deny-all6', rule: [{ id: 1, action: 'deny', prefix6: 'any' }] },
];

const switchTemplateSeed: KeyedSeed = () =>
  (
    [
      ['_default', 1],
      ['quarantine', 4093],
      ['rspan', 4092],
      ['voice', 4091],
      ['video', 4090],
    ] as const
  ).map(([name, vlanid], i) => ({
    name,
    vlanid,
    ip: `10.255.${i}.1 255.255.255.0`,
    allowaccess: 'ping',
    'auto-ip': 'enable',
    'dhcp-server': 'enable',
  }));

const cellularSeed: KeyedSeed = () => [
  {
    name: 'cellular-roaming',
    'mcc-mnc-list': [
      { id: 1, mcc: '310', mnc: '410' },
      { id: 2, mcc: '208', mnc: '01' },
    ],
  },
];

const ipAddressTypeSeed: KeyedSeed = () => [
  { name: 'public-v4', 'ipv4-address-type': 'public', 'ipv6-address-type': 'not-available' },
  { name: 'nat-v4-v6', 'ipv4-address-type': 'single-NATed-private', 'ipv6-address-type': 'available' },
];

const HOSTS = ['printer-2f', 'nas-01', 'voip-gw', 'cam-lobby', 'badge-reader', 'build-server', 'hr-laptop', 'ups-mgmt'];

const ipMacSeed: KeyedSeed = (f) =>
  HOSTS.slice(0, f.primary ? 8 : 4).map((name, i) => ({
    'seq-num': i + 1,
    ip: `192.168.${f.primary ? 1 : 50}.${10 + i}`,
    mac: `00:09:0f:${hex2(f.index)}:00:${hex2(i + 1)}`,
    name,
    status: i % 3 === 2 ? 'disable' : 'enable',
  }));

const modemSeed: KeyedSeed = () => [
  {
    id: 1,
    vendor: 'Example Wireless',
    model: 'EW-3000 LTE',
    'vendor-id': '1199',
    'product-id': '68a3',
    'class-id': 'ff',
    'init-string': 'AT+CGDCONT=1,"IP","internet"',
    'modeswitch-string': '55534243123456780000000000000011062000000100000000000000000000',
  },
];

const concentratorSeed: KeyedSeed = () => [
  { name: 'hub', 'src-check': 'enable', member: [{ name: 'branch-1' }, { name: 'branch-2' }] },
];

/** Two branch tunnels on the WAN port, which the concentrator joins and the VPN clients' realms use. */
const phase1Seed: KeyedSeed = (f) =>
  ['branch-1', 'branch-2'].map((name, i) => ({
    name,
    interface: f.primary ? 'port2' : ports(f)[1],
    'remote-gw': `198.51.100.${11 + i}`,
    proposal: 'aes256-sha256',
    psksecret: `${name}-demo-psk`,
    comments: `tunnel to ${name}`,
  }));

const phase2Seed: KeyedSeed = () =>
  ['branch-1', 'branch-2'].map((phase1name) => ({
    name: `${phase1name}-p2`,
    phase1name,
    proposal: 'aes256-sha256',
  }));

const userGroupSeed: KeyedSeed = (f) => [
  { name: 'vpn-users', member: f.primary ? [{ name: 'alice' }] : [] },
  { name: 'partners', member: [] },
];

const vendorClientSeed: KeyedSeed = () => [
  { realm: 'corp.example.com', usergroupname: 'vpn-users', phase2name: 'branch-1-p2', status: 'enable' },
  { realm: 'partners.example.net', usergroupname: 'partners', phase2name: 'branch-2-p2', status: 'disable' },
];

const sensitivitySeed: KeyedSeed = () => [{ name: 'Private' }, { name: 'Critical' }, { name: 'Warning' }];

/**
 * A UUID derived from a name, so that the demo is the same on every start (devices give every address and policy one).
 */
function uuidOf(name: string): string {
  const hex = createHash('sha1').update(`cmdb-demo:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const names = (...list: string[]) => list.map((name) => ({ name }));

/*
 * The tables administrators touch every day, consistent with each other: the policies name interfaces,
 * addresses, services and the schedule that exist in the same VDOM. The management VDOM has port1..port4
 * and five policies whose order on the device is not their id order (1, 3, 2, 5, 4); another VDOM a
 * smaller set on ports of its own.
 */

/** The two ports of a VDOM other than the management one: port5/port6 for the second, port7/port8 for the third... */
const ports = (f: Flavor) => [`port${3 + 2 * f.index}`, `port${4 + 2 * f.index}`];

const interfaceSeed: KeyedSeed = (f) => {
  const port = (name: string, ip: string, allowaccess: string, alias: string, role: string, extra: Obj = {}) => ({
    name,
    vdom: f.vdom,
    mode: 'static',
    ip,
    allowaccess,
    type: 'physical',
    alias,
    role,
    ...extra,
  });
  if (f.primary) {
    return [
      port('port1', '192.168.1.99 255.255.255.0', 'ping https ssh http fgfm', 'lan', 'lan', {
        description: 'office LAN',
        'device-identification': 'enable',
      }),
      port('port2', '203.0.113.2 255.255.255.240', 'ping', 'wan', 'wan', { 'estimated-upstream-bandwidth': 100000 }),
      port('port3', '172.16.10.1 255.255.255.0', 'ping https ssh', 'dmz', 'dmz'),
      port('port4', '10.10.10.1 255.255.255.0', 'ping', 'servers', 'lan', { description: 'server farm' }),
    ];
  }
  const [inside, outside] = ports(f);
  return [
    port(inside, `10.${20 + f.index}.0.1 255.255.255.0`, 'ping https', 'dmz-lan', 'lan'),
    port(outside, `198.51.100.${f.index} 255.255.255.0`, 'ping', 'dmz-wan', 'wan'),
  ];
};

/** The networks are `lan-net`..., so that README's `create firewall/address --set name=lan` works on the demo. */
const addressSeed: KeyedSeed = (f) => {
  const subnet = (name: string, value: string, extra: Obj = {}) => ({
    name,
    uuid: uuidOf(`${f.vdom}/address/${name}`),
    type: 'ipmask',
    subnet: value,
    ...extra,
  });
  const cdn = {
    name: 'cdn.example.com',
    uuid: uuidOf(`${f.vdom}/address/cdn.example.com`),
    type: 'fqdn',
    fqdn: 'cdn.example.com',
  };
  if (f.primary) {
    return [
      subnet('all', '0.0.0.0 0.0.0.0'),
      subnet('lan-net', '192.168.1.0 255.255.255.0', { 'associated-interface': 'port1', comment: 'office LAN' }),
      subnet('dmz-net', '172.16.10.0 255.255.255.0', { 'associated-interface': 'port3' }),
      subnet('servers-net', '10.10.10.0 255.255.255.0', { 'associated-interface': 'port4', color: 13 }),
      subnet('web-server', '172.16.10.10 255.255.255.255', { comment: 'published web server' }),
      {
        name: 'update.example.com',
        uuid: uuidOf(`${f.vdom}/address/update.example.com`),
        type: 'fqdn',
        fqdn: 'update.example.com',
      },
      {
        name: 'dhcp-pool',
        uuid: uuidOf(`${f.vdom}/address/dhcp-pool`),
        type: 'iprange',
        'start-ip': '192.168.1.100',
        'end-ip': '192.168.1.199',
      },
      cdn,
    ];
  }
  return [
    subnet('all', '0.0.0.0 0.0.0.0'),
    subnet('dmz-lan', `10.${20 + f.index}.0.0 255.255.255.0`),
    subnet('mail-server', `10.${20 + f.index}.0.25 255.255.255.255`),
    cdn,
  ];
};

const addrgrpSeed: KeyedSeed = (f) =>
  f.primary
    ? [
        {
          name: 'internal-nets',
          uuid: uuidOf(`${f.vdom}/addrgrp/internal-nets`),
          member: names('lan-net', 'servers-net'),
          comment: 'every internal network',
        },
        { name: 'published', uuid: uuidOf(`${f.vdom}/addrgrp/published`), member: names('web-server') },
      ]
    : [{ name: 'mail', uuid: uuidOf(`${f.vdom}/addrgrp/mail`), member: names('mail-server') }];

/** The predefined services (ALL, HTTP, HTTPS, SSH, DNS, PING...) are factory objects; the demo adds its own. */
const serviceSeed: KeyedSeed = (f) =>
  f.primary
    ? [
        {
          name: 'app-8443',
          category: 'Web Access',
          protocol: 'TCP/UDP/SCTP',
          'tcp-portrange': '8443',
          comment: 'line-of-business application',
        },
      ]
    : [];

const serviceGroupSeed: KeyedSeed = (f) =>
  f.primary
    ? [{ name: 'admin', member: names('SSH', 'HTTPS', 'PING'), comment: 'management protocols' }]
    : [{ name: 'mail', member: names('SMTP', 'HTTPS') }];

const recurringSeed: KeyedSeed = () => [
  { name: 'business-hours', day: 'monday tuesday wednesday thursday friday', start: '08:00', end: '18:00' },
];

function policy(
  f: Flavor,
  policyid: number,
  name: string,
  from: string,
  to: string,
  source: string,
  destination: string,
  service: string,
  action: 'accept' | 'deny',
  extra: Obj = {},
): Obj {
  return {
    policyid,
    name,
    uuid: uuidOf(`${f.vdom}/policy/${policyid}`),
    srcintf: names(from),
    dstintf: names(to),
    srcaddr: names(source),
    dstaddr: names(destination),
    action,
    schedule: 'always',
    service: names(service),
    nat: 'disable',
    logtraffic: action === 'deny' ? 'all' : 'utm',
    ...extra,
  };
}

/** In the device's order, which is not the id order: policy 3 was added later and moved above 2, 4 below 5. */
const policySeed: KeyedSeed = (f) => {
  if (!f.primary) {
    const [inside, outside] = ports(f);
    return [
      policy(f, 2, 'mail-in', outside, inside, 'all', 'mail-server', 'mail', 'accept'),
      policy(f, 1, 'dmz-out', inside, outside, 'dmz-lan', 'all', 'ALL', 'accept', { nat: 'enable' }),
    ];
  }
  return [
    policy(f, 1, 'lan-to-internet', 'port1', 'port2', 'lan-net', 'all', 'ALL', 'accept', {
      nat: 'enable',
      logtraffic: 'all',
    }),
    policy(f, 3, 'no-ssh-to-dmz', 'port1', 'port3', 'lan-net', 'dmz-net', 'SSH', 'deny', {
      comments: 'added later, moved above 2',
    }),
    policy(f, 2, 'lan-to-web', 'port1', 'port3', 'internal-nets', 'published', 'Web Access', 'accept'),
    policy(f, 5, 'publish-web', 'port2', 'port3', 'all', 'web-server', 'HTTPS', 'accept', { logtraffic: 'all' }),
    policy(f, 4, 'server-updates', 'port4', 'port2', 'servers-net', 'update.example.com', 'Web Access', 'accept', {
      nat: 'enable',
      status: 'disable',
    }),
  ];
};

/** A gateway route as devices show it (the derived defaults would make it a blackhole, SD-WAN member...). */
const route = (seq: number, dst: string, gateway: string, device: string, comment: string): Obj => ({
  'seq-num': seq,
  dst,
  gateway,
  device,
  distance: 10,
  comment,
  blackhole: 'disable',
  'dynamic-gateway': 'disable',
  sdwan: 'disable',
  'link-monitor-exempt': 'disable',
  bfd: 'disable',
});

const staticRouteSeed: KeyedSeed = (f) => {
  if (!f.primary) return [route(1, '0.0.0.0 0.0.0.0', `198.51.100.${f.index + 100}`, ports(f)[1], 'default route')];
  return [
    route(1, '0.0.0.0 0.0.0.0', '203.0.113.1', 'port2', 'default route'),
    route(2, '10.50.0.0 255.255.0.0', '10.10.10.254', 'port4', 'branch offices'),
    {
      ...route(3, '198.18.0.0 255.254.0.0', '0.0.0.0', '', 'benchmark networks go nowhere'),
      blackhole: 'enable',
      distance: 254,
    },
  ];
};

const localUserSeed: KeyedSeed = (f) =>
  f.primary
    ? [
        {
          name: 'alice',
          id: 1,
          status: 'enable',
          type: 'password',
          passwd: 'demo-Passw0rd',
          'email-to': 'alice@example.com',
        },
      ]
    : [];

const KEYED_SEEDS: Record<string, KeyedSeed> = {
  'system/interface': interfaceSeed,
  'firewall/address': addressSeed,
  'firewall/addrgrp': addrgrpSeed,
  'firewall.service/custom': serviceSeed,
  'firewall.service/group': serviceGroupSeed,
  'firewall.schedule/recurring': recurringSeed,
  'firewall/policy': policySeed,
  'router/static': staticRouteSeed,
  'user/local': localUserSeed,
  'certificate/ca': perVdom(caSeed),
  'certificate/crl': perVdom(crlSeed),
  'certificate/local': perVdom(localCertSeed),
  'vpn.certificate/ca': caSeed,
  'vpn.certificate/crl': crlSeed,
  'vpn.ipsec/concentrator': concentratorSeed,
  'vpn.ipsec/phase1': phase1Seed,
  'vpn.ipsec/phase2': phase2Seed,
  'vpn.ipsec/vendorclient': vendorClientSeed,
  'user/group': userGroupSeed,
  'dlp/sensitivity': sensitivitySeed,
  'report/chart': chartSeed,
  'report/dataset': datasetSeed,
  'report/theme': themeSeed,
  'icap/profile': icapProfileSeed,
  'icap/server': icapServerSeed,
  'dlp/filepattern': filePatternSeed,
  'dlp/fp-doc-source': docSourceSeed,
  'ips/custom': ipsCustomSeed,
  'ips/decoder': decoderSeed,
  'emailfilter/bwl': bwlSeed,
  'emailfilter/bword': bwordSeed,
  'webfilter/content': contentSeed,
  'webfilter/content-header': contentHeaderSeed,
  'wanopt/auth-group': authGroupSeed,
  'web-proxy/debug-url': debugUrlSeed,
  'router/access-list': accessListSeed,
  'router/access-list6': accessList6Seed,
  'switch-controller.initial-config/template': switchTemplateSeed,
  'wireless-controller.hotspot20/anqp-3gpp-cellular': cellularSeed,
  'wireless-controller.hotspot20/anqp-ip-address-type': ipAddressTypeSeed,
  'firewall.ipmacbinding/table': ipMacSeed,
  'system.3g-modem/custom': modemSeed,
};

const logFilter: SingletonSeed = () => ({
  severity: 'information',
  'forward-traffic': 'enable',
  'local-traffic': 'enable',
  'multicast-traffic': 'enable',
  'sniffer-traffic': 'enable',
  anomaly: 'enable',
  voip: 'enable',
  'dlp-archive': 'enable',
  'filter-type': 'include',
});

const SINGLETON_SEEDS: Record<string, SingletonSeed> = {
  'log.disk/filter': logFilter,
  'log.vendoranalyzer-cloud/filter': logFilter,
  'log.vendoranalyzer2/filter': logFilter,
  'log.vendoranalyzer2/override-filter': (f) => ({ ...logFilter(f), severity: 'warning' }),
  'log.disk/setting': (f) => ({
    status: 'enable',
    'ips-archive': 'enable',
    'max-log-file-size': 20,
    'roll-schedule': 'daily',
    'roll-day': 'sunday',
    'roll-time': '00:00',
    diskfull: 'overwrite',
    'maximum-log-age': f.primary ? 7 : 30,
    upload: 'disable',
    uploadport: 21,
    uploadtype: 'traffic',
    uploadsched: 'disable',
    uploadtime: '00:00',
    'upload-delete-files': 'enable',
    'full-first-warning-threshold': 75,
    'full-second-warning-threshold': 90,
    'full-final-warning-threshold': 95,
  }),
  'log.vendoranalyzer2/override-setting': () => ({
    'use-management-vdom': 'disable',
    status: 'disable',
    'ips-archive': 'enable',
    'certificate-verification': 'enable',
    'access-config': 'enable',
    'hmac-algorithm': 'sha256',
    'enc-algorithm': 'high',
    'conn-timeout': 10,
    'monitor-keepalive-period': 5,
    'monitor-failure-retry-period': 5,
    'upload-option': '5-minute',
    'upload-interval': 'daily',
    'upload-time': '00:59',
  }),
  'wanopt/cache-service': () => ({
    'prefer-scenario': 'balance',
    collaboration: 'disable',
    'device-id': 'default_dev_id',
    'acceptable-connections': 'any',
  }),
  'wanopt/settings': () => ({
    'host-id': 'default-id',
    'tunnel-ssl-algorithm': 'high',
    'auto-detect-algorithm': 'simple',
  }),
  'wanopt/webcache': () => ({
    'max-object-size': 512000,
    'neg-resp-time': 0,
    'fresh-factor': 100,
    'max-ttl': 7200,
    'min-ttl': 5,
    'default-ttl': 1440,
    'ignore-ims': 'disable',
    'ignore-conditional': 'disable',
    'ignore-pnc': 'disable',
    'ignore-ie-reload': 'enable',
    'cache-expired': 'disable',
    'cache-cookie': 'disable',
    'reval-pnc': 'disable',
    'always-revalidate': 'disable',
    'cache-by-default': 'disable',
    'host-validate': 'disable',
    external: 'disable',
  }),
  'web-proxy/explicit': (f) => ({
    status: f.primary ? 'enable' : 'disable',
    'http-incoming-port': '8080',
    'https-incoming-port': '0',
    'ftp-incoming-port': '0',
    'socks-incoming-port': '0',
    'unknown-http-version': 'reject',
    realm: 'default',
    'sec-default-action': 'deny',
    'https-replacement-message': 'enable',
    'message-upon-server-error': 'enable',
    'pac-file-server-port': '0',
    'pac-file-name': 'proxy.pac',
    'pac-file-data': 'function FindProxyForURL(url, host) {\n  return "PROXY 192.168.1.99:8080; DIRECT";\n}\n',
    'pac-policy': f.primary
      ? [
          {
            policyid: 1,
            status: 'enable',
            srcaddr: [{ name: 'all' }],
            dstaddr: [{ name: 'all' }],
            'pac-file-name': 'proxy.pac',
            comments: 'default PAC policy',
          },
        ]
      : [],
    'ssl-algorithm': 'low',
  }),
  'switch-controller.auto-config/default': () => ({
    'fgt-policy': 'default',
    'isl-policy': 'default',
    'icl-policy': 'default-icl',
  }),
  'firewall.ipmacbinding/setting': (f) => ({
    bindthroughfw: 'disable',
    bindtofw: f.primary ? 'disable' : 'enable',
    undefinedhost: 'block',
  }),
  'system.autoupdate/push-update': () => ({ status: 'disable', override: 'disable', address: '0.0.0.0', port: 9443 }),
};

/** SPEC.md's tables hold at least one object in the demo; the device's other tables are empty unless seeded. */
function fallbackSeed(table: TableDef): Obj[] {
  return table.spec ? [{ [table.key!]: table.keyType === 'integer' ? 1 : 'example' }] : [];
}

/** The demo objects of a keyed table (or the settings of a singleton), before defaults are filled in. */
function demoObjects(table: TableDef, flavor: Flavor): Obj[] | Obj {
  if (table.singleton) return SINGLETON_SEEDS[table.path]?.(flavor) ?? {};
  return KEYED_SEEDS[table.path]?.(flavor) ?? fallbackSeed(table);
}

/** The model's physical ports: port1..port4 in the management VDOM, two more for each other VDOM. */
function modelPorts(flavor: Flavor): string[] {
  return flavor.primary ? ['port1', 'port2', 'port3', 'port4'] : ports(flavor);
}

/** Factory objects placed once (in the management VDOM) although the table is kept per VDOM. */
const MANAGEMENT_ONLY = new Set(['system/admin']);

/** The keys of a table's factory objects for an owner: the catalogue's list, the model's ports, the VDOMs. */
function factoryKeysOf(table: TableDef, flavor: Flavor): string[] {
  if (table.path === 'system/interface') return flavor.global ? [] : modelPorts(flavor);
  if (table.path === 'system/vdom') return [...flavor.vdoms];
  if (MANAGEMENT_ONLY.has(table.path) && !flavor.primary) return [];
  return [...(factoryObjects().objects.get(table.path) ?? [])];
}

function factoryRow(table: TableDef, flavor: Flavor, key: string): Obj {
  if (table.path === 'system/interface') return { name: key, vdom: flavor.vdom, type: 'physical', mode: 'static' };
  const row = factoryObject(table.path, table.key!, key);
  return table.path === 'system/admin' ? { ...row, vdom: [{ name: flavor.vdoms[0] }] } : row;
}

/**
 * The objects nobody can delete: the factory objects, and in the demo the objects of the tables the API
 * cannot create into (the demo's certificates, factory objects of its seed).
 */
export function staticKeys(table: TableDef, flavor: Flavor, seed: 'demo' | 'empty'): ReadonlySet<string> {
  if (table.singleton) return new Set();
  const keys = new Set(factoryKeysOf(table, flavor));
  if (seed === 'demo' && !allows(table, 'C'))
    for (const object of demoObjects(table, flavor) as Obj[]) keys.add(keyId(object[table.key!]));
  return keys;
}

/** A UUID derived from a name, so that a seed is the same on every start. */
function seededUuid(table: TableDef, flavor: Flavor, object: Obj): Obj {
  if (table.fields.uuid?.format !== 'uuid' || isUuid(object.uuid)) return object;
  return {
    ...object,
    uuid: uuidOf(`${flavor.global ? 'global' : flavor.vdom}/${table.path}/${String(object[table.key!])}`),
  };
}

/**
 * A table's starting state: its factory objects, then for `demo` the demo's objects (one with a
 * factory object's key takes its place); every object completed with the table's defaults.
 */
export function seedTable(table: TableDef, flavor: Flavor, seed: 'demo' | 'empty'): TableState {
  if (table.singleton) {
    const settings = {
      ...factorySettings(table.path),
      ...(seed === 'demo' ? (demoObjects(table, flavor) as Obj) : {}),
    };
    return new SingletonTable(materialize(table.fields, settings, true));
  }
  const key = table.key!;
  const rows = new Map<string, Obj>();
  for (const name of factoryKeysOf(table, flavor)) rows.set(name, factoryRow(table, flavor, name));
  if (seed === 'demo') for (const object of demoObjects(table, flavor) as Obj[]) rows.set(keyId(object[key]), object);
  return new KeyedTable(
    key,
    [...rows.values()].map((object) => materialize(table.fields, seededUuid(table, flavor, object), true)),
  );
}
