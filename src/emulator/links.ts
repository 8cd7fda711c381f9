// `datasource=1`: the table the entries of a reference list name, as the device shows it. The
// catalogue's references list every table an entry may name; the device shows the one that holds it,
// so the few reference lists the demo shows are named here.

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
