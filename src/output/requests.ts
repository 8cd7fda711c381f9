// A dry run's requests as printed: one line each, as they would go on the wire.
import { escapeJsonControls, sanitizeInline } from './text.js';

/**
 * A request of a dry run as printed: the path from the API prefix on, the encoded query, the body (secrets already
 * hidden).
 */
export interface PlannedRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

/** `table` format of a dry run: one request a line, `METHOD path?query body`, as it would go on the wire. */
export function formatRequestLines(requests: PlannedRequest[]): string {
  return requests
    .map((r) => {
      const target = sanitizeInline(`${r.path}${r.query ? `?${r.query}` : ''}`);
      const body = r.body === null || r.body === undefined ? '' : ` ${escapeJsonControls(JSON.stringify(r.body))}`;
      return `${r.method} ${target}${body}\n`;
    })
    .join('');
}
