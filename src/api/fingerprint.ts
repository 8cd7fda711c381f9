// A certificate's SHA-256 fingerprint: compared as hex, shown as `AB:CD:...`. Kept apart from the
// network module so that the profile file's reader uses it without loading undici.
/** `AB:CD:...` or `abcd...` → `abcd...` (lowercase hex, no colons). */
export function normalizeFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[:\s]/g, '').toLowerCase();
}

/** `abcd...` → `AB:CD:...`, the way fingerprints are shown to people. */
export function displayFingerprint(fingerprint: string): string {
  return (
    normalizeFingerprint(fingerprint)
      .toUpperCase()
      .match(/.{1,2}/g)
      ?.join(':') ?? ''
  );
}

export function isFingerprint(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(normalizeFingerprint(text));
}
