// IPv4-shaped field values (format `ipv4`): the shipped catalogue uses that format for addresses,
// subnets, netmasks and ranges alike, so both the check and the comparison stay loose (data/README.md).

/**
 * The address as a 32-bit number, or undefined when it is not a dotted quad of 0..255. A loop over the
 * characters, no regular expression: a 10,000-object document checks and compares one per object.
 */
function quad(text: string): number | undefined {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      octet = octet * 10 + (c - 48);
      if (++digits > 3 || octet > 255) return undefined;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else return undefined;
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : undefined;
}

function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function prefixMask(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/**
 * Whether a value can be an IPv4 field's: an address, optionally followed by ` <netmask>`, `/<netmask>`
 * or `/<prefix>` (0..32), or a range `a-b` of two addresses: whatever has a meaning (ipv4Meaning). Never
 * stricter than a device: the mask is not required to be contiguous, and an empty value (unset) passes.
 */
export function isLooseIpv4(value: string): boolean {
  const text = value.trim();
  return text === '' || quad(text) !== undefined || ipv4Meaning(text) !== undefined;
}

/** A multi-value IPv4 field (`notify-hosts`): every space-separated value an address, prefix or range. */
export function isLooseIpv4List(value: string): boolean {
  return value
    .trim()
    .split(/\s+/)
    .every((word) => isLooseIpv4(word));
}

/**
 * The meaning of an IPv4-shaped value, for comparing: `10.0.0.0/24`, `10.0.0.0 255.255.255.0` and
 * `10.0.0.0/255.255.255.0` give `10.0.0.0 255.255.255.0`; a bare address is a /32 (what a device answers
 * for a host subnet); a range loses its spaces. Undefined for anything else, compared as text.
 */
export function ipv4Meaning(value: string): string | undefined {
  const text = value.trim();
  const range = /^([^\s-]+)\s*-\s*([^\s-]+)$/.exec(text);
  if (range) {
    const [a, b] = [quad(range[1]), quad(range[2])];
    return a === undefined || b === undefined ? undefined : `${dotted(a)}-${dotted(b)}`;
  }
  const m = /^([^\s/]+)(?:\s+|\/)?([^\s/]*)$/.exec(text);
  if (!m) return undefined;
  const address = quad(m[1]);
  if (address === undefined) return undefined;
  let mask: number | undefined;
  if (m[2] === '') mask = text === m[1] ? 0xffffffff : undefined;
  else if (/^\d{1,2}$/.test(m[2]) && text.includes('/'))
    mask = Number(m[2]) <= 32 ? prefixMask(Number(m[2])) : undefined;
  else mask = quad(m[2]);
  return mask === undefined ? undefined : `${dotted(address)} ${dotted(mask)}`;
}
