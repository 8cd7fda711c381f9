// `cmdb device list|show|use|set|remove`: the saved device profiles.
import { DEFAULT_PREFIX } from '../api/url.js';
import type { Context } from '../run/context.js';
import { DEFAULT_TIMEOUT_SECONDS, parseVdoms } from '../settings.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  dropProfile,
  getProfile,
  putProfile,
  readProfiles,
  SETTABLE,
  updateProfiles,
  withSetting,
  type DeviceProfile,
  type ProfileSet,
  type Settable,
} from '../config/profiles.js';
import { UsageError } from '../errors.js';
import { credentialAccount } from '../config/secrets.js';
import type { Row } from '../output/index.js';
import { endSession } from '../device/connect.js';
import { secretStore } from '../device/credentials.js';
import { requireProfile } from '../device/select.js';
import { demoDevice, notForDemo, printOutcome } from './common/facts.js';

/** A profile as `device list/show` print it: settings only (there is no secret in a profile). */
function profileRow(profile: DeviceProfile, set: ProfileSet): Row {
  return {
    name: profile.name,
    default: set.defaultName === profile.name,
    host: profile.host,
    auth: profile.auth,
    username: profile.username ?? null,
    vdom: profile.vdom ?? null,
    prefix: profile.prefix ?? null,
    'ca-file': profile.caFile ?? null,
    fingerprint: profile.fingerprint ?? null,
    timeout: profile.timeout ?? null,
    secrets: profile.secrets,
  };
}

/**
 * A profile with what applies where it sets nothing: the API prefix and timeout the tool uses, and in
 * words (table) the management VDOM, the system's CAs, no pin.
 */
function effective(row: Row, words: boolean): Row {
  const or = (value: unknown, fallback: unknown, text: string) => (value !== null ? value : words ? text : fallback);
  return {
    ...row,
    vdom: or(row.vdom, null, "(the device's management VDOM)"),
    prefix: or(row.prefix, DEFAULT_PREFIX, `${DEFAULT_PREFIX} (default)`),
    'ca-file': or(row['ca-file'], null, "(the system's trusted CAs)"),
    fingerprint: or(row.fingerprint, null, '(none pinned)'),
    timeout: or(row.timeout, DEFAULT_TIMEOUT_SECONDS, `${DEFAULT_TIMEOUT_SECONDS} (default)`),
  };
}

/** `cmdb device list`: the default marked `*` in a table, names and hosts never cut. */
export async function list(ctx: Context): Promise<number> {
  if (ctx.settings.demo) {
    await ctx.out.print(
      { kind: 'list', rows: [demoDevice(ctx)] },
      { keyField: 'name', tableFields: ['name', 'default', 'host', 'auth', 'vdom', 'secrets'] },
    );
    return 0;
  }
  const set = readProfiles(ctx.env);
  const rows = set.devices.map((d) => profileRow(d, set));
  // For people: the default marked `*`, the address never cut on a narrow terminal.
  const shown = rows.map((row) => ({ ...row, default: row.default ? '*' : '' }));
  await ctx.out.print(
    {
      kind: 'forPeople',
      data: { kind: 'list', rows },
      table: { kind: 'list', rows: shown },
      tableView: { fields: ['name', 'host', 'auth', 'default', 'username', 'vdom', 'secrets'], whole: ['host'] },
      none: `no saved devices in ${set.path}; add one with 'cmdb login --host <url>'`,
    },
    { keyField: 'name' },
  );
  return 0;
}

/** `cmdb device show [name]`: the named device, else the one in use. */
export async function show(ctx: Context, { name = ctx.settings.device }: { name?: string }): Promise<number> {
  if (ctx.settings.demo) {
    await ctx.out.print({ kind: 'object', object: demoDevice(ctx) });
    return 0;
  }
  const set = readProfiles(ctx.env);
  const profile = name ? getProfile(set, name) : requireProfile(ctx.device(), 'show');
  const row = profileRow(profile, set);
  await ctx.out.print({
    kind: 'forPeople',
    data: { kind: 'object', object: effective(row, false) },
    table: { kind: 'object', object: effective(row, true) },
  });
  return 0;
}

/** `cmdb device use <name>`. */
export async function use(ctx: Context, { name }: { name: string }): Promise<number> {
  if (ctx.settings.demo) throw notForDemo('device use', 'it is built in, not a saved device');
  await updateProfiles(ctx.env, ctx.settings.lockTimeoutMs, (set) => {
    getProfile(set, name);
    return { ...set, defaultName: name };
  });
  await printOutcome(ctx, `Device '${name}' is now the default`, { device: name, default: true });
  return 0;
}

/** Deletes a profile with its secrets; a saved session is ended on the device first, where it can be. */
export async function remove(ctx: Context, { name }: { name: string }, opts: { yes?: boolean }): Promise<number> {
  if (ctx.settings.demo) throw notForDemo('device remove', 'it is built in, not a saved device');
  const set = readProfiles(ctx.env);
  const profile = getProfile(set, name);
  if (!opts.yes)
    await ctx.prompt.confirmChange(`remove device '${name}' (${profile.host}) with its saved credential and session?`);
  try {
    const store = await secretStore(ctx.device(), profile.secrets);
    if (profile.auth === 'session') await endSession(ctx.device(), profile, store);
    await store.delete(credentialAccount(name));
  } catch (err) {
    ctx.out.warn(
      `the secrets of device '${name}' could not be deleted from ` +
        `${profile.secrets === 'file' ? 'credentials.yaml' : 'the keychain'}: ${(err as Error).message}`,
    );
  }
  let wasDefault = false;
  const after = await updateProfiles(ctx.env, ctx.settings.lockTimeoutMs, (current) => {
    wasDefault = current.defaultName === name;
    return dropProfile(current, name);
  });
  const note = wasDefault
    ? after.devices.length
      ? "; there is no default device now ('cmdb device use <name>' picks one)"
      : ''
    : '';
  await printOutcome(ctx, `Removed device '${name}' (${profile.host})${note}`, { device: name, removed: true });
  return 0;
}

/** `key=value` words of `device set`, checked before the profile file is touched. */
function parseSettings(words: string[]): [Settable, string][] {
  const hint = `settings: ${SETTABLE.map((k) => `${k}=...`).join(', ')} (an empty value removes one)`;
  return words.map((word) => {
    const eq = word.indexOf('=');
    const key = (eq < 0 ? word : word.slice(0, eq)) as Settable;
    if (eq < 0) throw new UsageError(`'${word}' is not key=value`, hint);
    if (!SETTABLE.includes(key))
      throw new UsageError(
        `'${key}' is not a setting 'device set' changes`,
        `${hint}; the host and the credential come from 'cmdb login'`,
      );
    let value = word.slice(eq + 1).trim();
    if (key === 'vdom' && value) value = parseVdoms(value).join(',');
    // A CA file is kept as an absolute path: later runs may start elsewhere.
    if (key === 'ca-file' && value) {
      value = resolve(value);
      if (!existsSync(value))
        throw new UsageError(`the CA file ${value} does not exist`, 'give the path of a PEM file');
    }
    return [key, value];
  });
}

/** `cmdb device set <name> key=value...`: vdom, timeout, ca-file, prefix, without logging in again. */
export async function set(ctx: Context, { name, settings }: { name: string; settings: string[] }): Promise<number> {
  const changes = parseSettings(settings);
  let changed: DeviceProfile | undefined;
  const after = await updateProfiles(ctx.env, ctx.settings.lockTimeoutMs, (current) => {
    changed = changes.reduce((profile, [key, value]) => withSetting(profile, key, value), getProfile(current, name));
    return putProfile(current, changed);
  });
  const said = changes.map(([key, value]) => (value === '' ? `${key} removed` : `${key}=${value}`)).join(', ');
  await printOutcome(ctx, `Device '${name}': ${said}`, profileRow(changed!, after));
  return 0;
}
