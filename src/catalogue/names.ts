// A table's names: SPEC.md's and the device's where SPEC.md renamed one, how a path is written and
// normalised, its area, and the file its definition is compiled into.
/**
 * The device's names of the tables SPEC.md renamed: an area prefix (`log.fortianalyzer2/` for every
 * `log.vendoranalyzer2/` table) or a whole path. The catalogue keeps SPEC.md's name; both are accepted.
 */
const DEVICE_TO_SPEC: Record<string, string> = {
  'log.fortianalyzer2/': 'log.vendoranalyzer2/',
  'log.fortianalyzer-cloud/': 'log.vendoranalyzer-cloud/',
  'vpn.ipsec/forticlient': 'vpn.ipsec/vendorclient',
};

function rename(path: string, from: string, to: string): string | undefined {
  if (from.endsWith('/') ? path.startsWith(from) : path === from) return to + path.slice(from.length);
  return undefined;
}

/** SPEC.md's name of a table the device names `path`, or undefined when SPEC.md did not rename it. */
export function specNameOf(path: string): string | undefined {
  for (const [device, spec] of Object.entries(DEVICE_TO_SPEC)) {
    const renamed = rename(path, device, spec);
    if (renamed !== undefined) return renamed;
  }
  return undefined;
}

/** The device's name of a table SPEC.md renamed, or undefined. */
export function deviceNameOf(path: string): string | undefined {
  for (const [device, spec] of Object.entries(DEVICE_TO_SPEC)) {
    const renamed = rename(path, spec, device);
    if (renamed !== undefined) return renamed;
  }
  return undefined;
}

/** A table path as devices spell them: uppercase and `+` included (`firewall/DoS-policy`, `user/tacacs+`). */
const TABLE_PATH = /^[A-Za-z0-9][A-Za-z0-9_+-]*(\.[A-Za-z0-9][A-Za-z0-9_+-]*)*\/[A-Za-z0-9][A-Za-z0-9_+-]*$/;

export function isWellFormedTablePath(path: string): boolean {
  return TABLE_PATH.test(path);
}

export function normalizeTablePath(input: string): string {
  return input.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** `area` of a table path: what stands before the first `.` or `/`. */
export function areaOf(path: string): string {
  return path.split(/[./]/, 1)[0];
}

/** The file one table is kept in: its path, safe as a file name on every system (case folded apart). */
export function tableFileName(path: string): string {
  return `${path.replace(/[^a-z0-9.-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}.json`;
}
