import type { Context } from '../cli/context.js';
import type { ApiResult } from '../api/client.js';
import type { Row } from '../output/index.js';

/** What a login, logout or device command did: one line for people (table), the object for scripts. */
export async function printOutcome(ctx: Context, message: string, object: Row): Promise<void> {
  if (ctx.format === 'table') await ctx.print({ kind: 'write', result: { status: 'success' }, message });
  else await ctx.print({ kind: 'object', object });
}

export interface DeviceFacts {
  hostname: string | null;
  serial: string | null;
  version: string | null;
}

/** Hostname, serial and version from `GET /api/v2/monitor/system/status`. */
export function deviceFacts(status: ApiResult): DeviceFacts {
  const envelope = status.envelopes[0] ?? {};
  const results = (envelope.results && typeof envelope.results === 'object' ? envelope.results : {}) as Record<string, unknown>;
  const text = (...values: unknown[]) => (values.find((v) => typeof v === 'string' && v) as string | undefined) ?? null;
  return {
    hostname: text(results.hostname),
    serial: text(envelope.serial, results.serial),
    version: text(envelope.version, results.version),
  };
}

/** `FGVM01 (serial FGVM..., v6.4.14)`, leaving out what the device did not say. */
export function describeDevice(facts: DeviceFacts): string {
  const details = [facts.serial && `serial ${facts.serial}`, facts.version].filter(Boolean).join(', ');
  return `${facts.hostname ?? 'the device'}${details ? ` (${details})` : ''}`;
}
