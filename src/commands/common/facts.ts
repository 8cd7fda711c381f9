// What the device commands print of a device: its status facts in words, and one outcome line.
import type { Context } from '../../run/context.js';
import type { ApiResult } from '../../api/client.js';
import type { Row } from '../../output/index.js';
import { demoStateFile } from '../../device/select.js';
import { UsageError } from '../../errors.js';

/** What a login, logout or device command did: one line for people (table), the object for scripts. */
export async function printOutcome(ctx: Context, message: string, object: Row): Promise<void> {
  await ctx.out.print({ kind: 'done', message, object });
}

export interface DeviceFacts {
  hostname: string | null;
  serial: string | null;
  version: string | null;
}

/** Hostname, serial and version from `GET /api/v2/monitor/system/status`. */
export function deviceFacts(status: ApiResult): DeviceFacts {
  const envelope = status.envelopes[0] ?? {};
  const results = (envelope.results && typeof envelope.results === 'object' ? envelope.results : {}) as Record<
    string,
    unknown
  >;
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

/** The --demo device as `device list/show` describe it: built in, never a saved profile. */
export function demoDevice(ctx: Context): Row {
  return {
    name: 'demo',
    default: true,
    host: 'built in (a local emulator on a free port, for each command)',
    auth: 'token',
    username: null,
    vdom: 'root',
    secrets: 'built in',
    state: demoStateFile(ctx.env),
  };
}

/** Commands that manage saved devices do not apply to the demo device, and must not touch a profile. */
export function notForDemo(command: string, why: string): UsageError {
  return new UsageError(
    `'cmdb ${command}' does not apply to the demo device (--demo or CMDB_DEMO): ${why}`,
    "drop --demo (and unset CMDB_DEMO) to act on a saved device; 'cmdb demo reset' forgets the demo's changes",
  );
}
