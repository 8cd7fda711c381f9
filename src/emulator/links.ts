/**
 * Which table the entries of a reference list point to, shown as
 * `datasource` with `datasource=1`. The catalogue does not carry these
 * links, so the few of its reference lists are named here.
 */
const DATASOURCES: Record<string, Record<string, string>> = {
  'vpn.ipsec/concentrator': { member: 'vpn.ipsec.phase1' },
  'web-proxy/explicit': {
    'pac-policy.srcaddr': 'firewall.address',
    'pac-policy.srcaddr6': 'firewall.address6',
    'pac-policy.dstaddr': 'firewall.address',
  },
};

/** The datasource of a sub-table (`fieldPath` like `pac-policy.srcaddr`), if it is a reference list. */
export function datasourceOf(tablePath: string, fieldPath: string): string | undefined {
  return DATASOURCES[tablePath]?.[fieldPath];
}
