// What the factory objects of the catalogue's list (src/catalogue/factory.ts) hold on the emulated
// device: every seed starts with them, the empty one included. Objects not described here are made
// of their key and the table's defaults.
import { createHash } from 'node:crypto';
import { ALSO_FACTORY } from '../catalogue/factory.js';
import type { Obj } from './schema.js';

/** A PEM block with deterministic filler, standing in for real certificate material. */
export function pem(label: string, seed: string, lines = 4): string {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < lines * 48; i++)
    chunks.push(createHash('sha256').update(`${seed}#${i}`).digest());
  const body = Buffer.concat(chunks)
    .subarray(0, lines * 48)
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .trimEnd();
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const address = (type: string, extra: Obj): Obj => ({ type, ...extra });

const ADDRESSES: Record<string, Obj> = {
  all: address('ipmask', { subnet: '0.0.0.0 0.0.0.0' }),
  none: address('ipmask', { subnet: '0.0.0.0 255.255.255.255' }),
  FABRIC_DEVICE: address('ipmask', { subnet: '0.0.0.0 0.0.0.0', comment: 'IPv4 addresses of Fabric Devices.' }),
  FIREWALL_AUTH_PORTAL_ADDRESS: address('ipmask', { subnet: '0.0.0.0 0.0.0.0' }),
  SSLVPN_TUNNEL_ADDR1: address('iprange', { 'start-ip': '10.212.134.200', 'end-ip': '10.212.134.210' }),
};

const tcp = (category: string, tcpRange: string, udpRange = ''): Obj => ({
  category,
  protocol: 'TCP/UDP/SCTP',
  'tcp-portrange': tcpRange,
  'udp-portrange': udpRange,
});
const udp = (category: string, range: string): Obj => ({ category, protocol: 'TCP/UDP/SCTP', 'udp-portrange': range });

const SERVICES: Record<string, Obj> = {
  ALL: { category: 'General', protocol: 'IP', 'protocol-number': 0 },
  ALL_TCP: tcp('General', '1-65535'),
  ALL_UDP: udp('General', '1-65535'),
  ALL_ICMP: { category: 'General', protocol: 'ICMP' },
  ALL_ICMP6: { category: 'General', protocol: 'ICMP6' },
  DNS: tcp('Network Services', '53', '53'),
  DHCP: udp('Network Services', '67-68'),
  FTP: tcp('File Access', '21'),
  HTTP: tcp('Web Access', '80'),
  HTTPS: tcp('Web Access', '443'),
  IMAP: tcp('Email', '143'),
  IMAPS: tcp('Email', '993'),
  KERBEROS: tcp('Authentication', '88', '88'),
  LDAP: tcp('Authentication', '389'),
  NTP: tcp('Network Services', '123', '123'),
  PING: { category: 'Network Services', protocol: 'ICMP', icmptype: 8 },
  POP3: tcp('Email', '110'),
  POP3S: tcp('Email', '995'),
  RDP: tcp('Remote Access', '3389'),
  SAMBA: tcp('File Access', '139'),
  SMB: tcp('File Access', '445'),
  SMTP: tcp('Email', '25'),
  SMTPS: tcp('Email', '465'),
  SNMP: tcp('Network Services', '161-162', '161-162'),
  SSH: tcp('Remote Access', '22'),
  SYSLOG: udp('Network Services', '514'),
  TELNET: tcp('Remote Access', '23'),
  TRACEROUTE: udp('Network Services', '33434-33535'),
};

const members = (...names: string[]) => names.map((name) => ({ name }));

const SERVICE_GROUPS: Record<string, Obj> = {
  'Email Access': { member: members('DNS', 'IMAP', 'IMAPS', 'POP3', 'POP3S', 'SMTP', 'SMTPS') },
  'Web Access': { member: members('DNS', 'HTTP', 'HTTPS') },
  'Windows AD': { member: members('DNS', 'KERBEROS', 'LDAP', 'SAMBA', 'SMB') },
  'Exchange Server': { member: members('DNS', 'HTTPS', 'IMAPS', 'SMTP') },
};

const SCHEDULES: Record<string, Obj> = {
  always: { day: 'sunday monday tuesday wednesday thursday friday saturday', start: '00:00', end: '00:00' },
  none: { day: 'none', start: '00:00', end: '00:00' },
};

const INSPECTION: Record<string, Obj> = {
  'certificate-inspection': { comment: 'Read-only SSL handshake inspection profile.' },
  'deep-inspection': { comment: 'Read-only deep inspection profile.' },
  'no-inspection': { comment: 'Read-only profile that does no inspection.' },
  'custom-deep-inspection': { comment: 'Customizable deep inspection profile.' },
};

const localCertificate = (name: string): Obj => ({
  certificate: pem('CERTIFICATE', name),
  'private-key': pem('ENCRYPTED PRIVATE KEY', `${name}-key`),
  password: 'factory-key-secret',
  state: 'OK',
  range: 'global',
  source: 'factory',
});
const caCertificate = (name: string): Obj => ({ ca: pem('CERTIFICATE', name), range: 'global', source: 'factory' });

const FULL_ACCESS = Object.fromEntries(
  [
    'secfabgrp',
    'ftviewgrp',
    'authgrp',
    'sysgrp',
    'netgrp',
    'loggrp',
    'fwgrp',
    'vpngrp',
    'utmgrp',
    'wanoptgrp',
    'wifi',
  ].map((group) => [group, 'read-write']),
);

/** Per table, what its factory objects hold beyond their key; every object the same where a table has one entry. */
const CONTENT: Record<string, Record<string, Obj> | ((key: string) => Obj)> = {
  'firewall/address': ADDRESSES,
  'firewall.service/custom': SERVICES,
  'firewall.service/group': SERVICE_GROUPS,
  'firewall.schedule/recurring': SCHEDULES,
  'firewall/ssl-ssh-profile': INSPECTION,
  'certificate/local': localCertificate,
  'vpn.certificate/local': localCertificate,
  'certificate/ca': caCertificate,
  'vpn.certificate/ca': caCertificate,
  'system/accprofile': {
    super_admin: { scope: 'global', ...FULL_ACCESS },
    prof_admin: { scope: 'vdom', ...FULL_ACCESS },
  },
  'system/admin': { admin: { accprofile: 'super_admin', vdom: members('root') } },
  'switch-controller.initial-config/template': {
    _default: { vlanid: 1 },
    quarantine: { vlanid: 4093 },
    rspan: { vlanid: 4092 },
    voice: { vlanid: 4091 },
    video: { vlanid: 4090 },
    onboarding: { vlanid: 4094 },
  },
};

/** A factory object of a table: its key and what the device gives it (the table's defaults are added later). */
export function factoryObject(tablePath: string, keyField: string, key: string): Obj {
  const content = CONTENT[tablePath];
  const extra = typeof content === 'function' ? content(key) : (content?.[key] ?? {});
  return { [keyField]: key, ...extra };
}

/**
 * What a singleton's factory settings hold that others name: the catalogue's factory entries of its
 * sub-tables (`system/sdwan` `zone.name`: the zone `virtual-wan-link` every device has).
 */
export function factorySettings(tablePath: string): Obj {
  const out: Record<string, Obj[]> = {};
  for (const { table, field, key } of ALSO_FACTORY) {
    const [list, name] = field.split('.');
    if (table === tablePath && name) (out[list] ??= []).push({ [name]: key });
  }
  return out;
}
