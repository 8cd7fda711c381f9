// IPv4-shaped values as the device takes and stores them (a subnet in the mask form).
import { ipv4Meaning } from '../catalogue/ipv4.js';

/**
 * IPv4-shaped values as the device takes them. The catalogue's `ipv4` format stands for every
 * IPv4-shaped field type of the device (an address, a subnet, a netmask, a range), so the values are
 * checked loosely, and the fields that hold a subnet (the device's `ipv4-classnet`) are told apart by
 * name: approximate, but what the schema answer and the stored form follow.
 */

/** Field names that hold a subnet wherever they appear (among the fields of format ipv4). */
const SUBNET_NAMES = new Set([
  'subnet',
  'ip4-subnet',
  'dst-subnet',
  'src-subnet',
  'dst',
  'src',
  'prefix',
  'neighbour-prefix',
  'wildcard',
  'substitute',
  'ip-allocation-block',
  'switch-controller-reserved-network',
  'ipv4-trusthost',
  'srcaddr',
  'dstaddr',
  'trust-ip-1',
  'trust-ip-2',
  'trust-ip-3',
]);

/** `ip` is a plain address in most tables, an address with its mask on interfaces. */
const INTERFACE_ADDRESSES = new Set([
  'system/interface ip',
  'system/interface secondaryip.ip',
  'system/settings ip',
  'switch-controller.initial-config/template ip',
  'wireless-controller/vap ip',
]);

/**
 * Whether an ipv4 field (`fieldPath` dotted below its table: `secondaryip.ip`) holds a subnet rather than an address.
 */
export function holdsSubnet(tablePath: string, fieldPath: string): boolean {
  const name = fieldPath.slice(fieldPath.lastIndexOf('.') + 1);
  return SUBNET_NAMES.has(name) || /^trusthost\d+$/.test(name) || INTERFACE_ADDRESSES.has(`${tablePath} ${fieldPath}`);
}

/** The netmask of a prefix length: 24 → `255.255.255.0`. */
export function prefixToMask(prefix: number): string {
  const bits = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((shift) => (bits >>> shift) & 0xff).join('.');
}

/**
 * A value of an ipv4 field, loosely (the client's check, catalogue/ipv4.ts): an address, optionally
 * followed by a mask (` 255.255.255.0` or `/255.255.255.0`) or a prefix length (`/24`), or a range
 * (`10.0.0.1-10.0.0.20`). Returns the value as the device stores it (a subnet field's prefix or mask
 * as ` <mask>`; anything else as given, trimmed), or undefined when it is not IPv4-shaped or empty.
 */
export function parseIpv4(text: string, subnet: boolean): string | undefined {
  const value = text.trim();
  const meaning = value === '' ? undefined : ipv4Meaning(value);
  if (meaning === undefined) return undefined;
  return subnet && /[\s/]/.test(value) && !meaning.includes('-') ? meaning : value;
}
