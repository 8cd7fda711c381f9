// `cmdb login`: checks a credential against the device, then saves it (keychain) and the device's
// profile; a certificate that does not verify may be pinned on a terminal.
import { resolve } from 'node:path';
import type { ApiResult, Authenticator, TlsOptions } from '../api/client.js';
import { displayFingerprint, isFingerprint, normalizeFingerprint } from '../api/fingerprint.js';
import type { SessionAuth } from '../api/session.js';
import type { Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import { parsePrefix, parseVdoms } from '../settings.js';
import { isUsableToken } from '../api/auth.js';
import { releaseOf } from '../catalogue/device-schema.js';
import {
  checkProfileName,
  defaultProfile,
  profileNameFor,
  putProfile,
  readProfiles,
  updateProfiles,
  type AuthKind,
  type DeviceProfile,
} from '../config/profiles.js';
import { credentialAccount, type SecretStore } from '../config/secrets.js';
import { endSession, newClient, tlsOptions } from '../device/connect.js';
import { forgetSecrets, saveSession, secretStore, sessionAuth, tokenAuth } from '../device/credentials.js';
import { endpointOf } from '../device/select.js';
import { mergeSettings } from '../device/settings.js';
import { UsageError } from '../errors.js';
import { readStdin } from '../request/input.js';
import { deviceFacts, describeDevice, notForDemo, printOutcome } from './common/facts.js';

export interface LoginOptions {
  tokenStdin?: boolean;
  username?: string;
  passwordStdin?: boolean;
  tokenCode?: string;
  acceptDisclaimer?: boolean;
  fingerprint?: string;
  insecureStorage?: boolean;
  prefix?: string;
}

interface Credential {
  kind: AuthKind;
  username?: string;
  secret: string;
}

/** Which profile a login creates or renews: -d, else the one for --host, else (no host) the default. */
function existingProfile(
  ctx: Context,
  devices: DeviceProfile[],
  fallback: DeviceProfile | null,
): DeviceProfile | undefined {
  const name = ctx.settings.device;
  if (name) return devices.find((d) => d.name === name);
  const host = ctx.settings.host;
  if (!host) return fallback ?? undefined;
  return devices.find((d) => d.host === host);
}

/** The credential from stdin or a prompt: never from argv. Nothing is sent before it is read. */
async function readCredential(
  ctx: Context,
  opts: LoginOptions,
  existing: DeviceProfile | undefined,
  host: string,
): Promise<Credential> {
  if (opts.tokenStdin && (opts.username || opts.passwordStdin)) {
    throw new UsageError(
      '--token-stdin logs in with an API token; --username and --password-stdin with a password: give one of them',
    );
  }
  if (opts.tokenStdin) {
    const token = await readStdin(ctx.io, 'API token', '--token-stdin');
    // Only one trailing newline is dropped; whitespace left inside could not travel in a header.
    if (!isUsableToken(token))
      throw new UsageError(
        'the API token read from stdin contains spaces, line breaks, control or non-ASCII characters',
        'give the token alone on stdin, at most followed by one newline',
      );
    return { kind: 'token', secret: token };
  }
  const username = opts.username ?? (existing?.auth === 'session' ? existing.username : undefined);
  if (!username) {
    if (opts.passwordStdin) throw new UsageError('--password-stdin needs --username <name>');
    throw new UsageError(
      'say how to log in',
      existing?.auth === 'token'
        ? 'give the API token on stdin with --token-stdin'
        : 'with an API token on stdin (--token-stdin), or as an administrator (--username <name>, ' +
            'password prompted or read with --password-stdin)',
    );
  }
  const secret = opts.passwordStdin
    ? await readStdin(ctx.io, 'password', '--password-stdin')
    : await ctx.prompt.askOrFail(`Password for ${username} at ${host}: `, '--password-stdin', { hidden: true });
  if (!secret) throw new UsageError('the password is empty');
  return { kind: 'session', username, secret };
}

const KIND_WORDS: Record<AuthKind, string> = { token: 'an API token', session: 'a password' };

/** A login that would turn a saved device into another kind of login: asked on a terminal, else refused. */
async function confirmReplace(ctx: Context, existing: DeviceProfile, credential: Credential): Promise<void> {
  const was = `${KIND_WORDS[existing.auth]}${existing.username ? ` (as ${existing.username})` : ''}`;
  const now = `${KIND_WORDS[credential.kind]}${credential.username ? ` (as ${credential.username})` : ''}`;
  const what =
    `device '${existing.name}' (${existing.host}) is saved with ${was}; ` + `this login with ${now} would replace it`;
  if (ctx.prompt.interactive) {
    if (await ctx.prompt.confirm(`The ${what}. Replace it?`)) return;
    throw new UsageError(`not replaced: ${what}`, `keep both by saving this login under another name with -d <name>`);
  }
  throw new UsageError(
    what,
    `on a terminal cmdb asks; here: remove it first with 'cmdb device remove ${existing.name}', ` +
      `or save this login under another name with -d <name>`,
  );
}

/** Fails now, before the device sees the credential, when the store cannot keep it. */
async function openStore(ctx: Context, opts: LoginOptions, name: string): Promise<SecretStore> {
  const store = await secretStore(ctx.device(), opts.insecureStorage ? 'file' : 'keychain');
  await store.get(credentialAccount(name));
  return store;
}

interface Checked {
  status: ApiResult;
  fingerprint: string | undefined;
}

/**
 * Checks the credential with `GET /api/v2/monitor/system/status`. A certificate that does not verify
 * stops here (exit 3, with its fingerprint); on a terminal the user may pin it and the check runs again.
 */
async function check(
  ctx: Context,
  target: { host: string; prefix?: string; timeoutMs: number },
  tls: TlsOptions,
  auth: Authenticator,
  name: string,
): Promise<Checked> {
  const { TlsVerificationError } = await import('../api/network.js');
  let fingerprint = tls.fingerprint ?? undefined;
  for (;;) {
    const client = await newClient(ctx.device(), target, { ...tls, fingerprint }, auth);
    try {
      return { status: await client.monitor('system/status'), fingerprint };
    } catch (err) {
      const certificate = err instanceof TlsVerificationError ? err.certificate : null;
      if (!certificate || fingerprint || !ctx.prompt.interactive) throw err;
      ctx.out.warn(
        `the certificate of ${target.host} does not verify: ${describeError(err).message}\n` +
          `  SHA-256  ${displayFingerprint(certificate.fingerprint)}\n` +
          `  subject  ${certificate.subject}\n` +
          `  issuer   ${certificate.issuer}\n` +
          `  expires  ${certificate.validTo}\n` +
          'Compare the fingerprint with the one the device shows (get system certificate, or the web interface) ' +
          'before you trust it.',
      );
      if (!(await ctx.prompt.confirm(`Pin this certificate for device '${name}'?`))) throw err;
      fingerprint = certificate.fingerprint;
    } finally {
      await client.close();
    }
  }
}

async function authenticator(
  ctx: Context,
  opts: LoginOptions,
  credential: Credential,
  banner: { accepted: boolean },
): Promise<Authenticator> {
  if (credential.kind === 'token') return tokenAuth(credential.secret);
  return sessionAuth(ctx.device(), {
    username: credential.username!,
    password: async () => credential.secret,
    tokenCode: opts.tokenCode,
    acceptDisclaimer: async () => {
      banner.accepted =
        !!opts.acceptDisclaimer ||
        (ctx.prompt.interactive &&
          (await ctx.prompt.confirm('The device shows a login banner (disclaimer). Do you accept it?')));
      return banner.accepted;
    },
  });
}

/** `cmdb login`: checks a credential against the device, then saves it (keychain) and the device profile. */
export async function run(ctx: Context, _args: object, opts: LoginOptions): Promise<number> {
  if (ctx.settings.demo) throw notForDemo('login', 'it needs no login, and nothing is saved');
  const set = readProfiles(ctx.env);
  const existing = existingProfile(ctx, set.devices, defaultProfile(set));
  // Normalised already: --host/CMDB_HOST by the options, a profile's host when its file was read.
  const host = ctx.settings.host ?? existing?.host;
  if (!host)
    throw new UsageError(
      'login needs the address of the device',
      'give it with --host https://fw.example[:port] (or CMDB_HOST)',
    );
  const name = checkProfileName(ctx.settings.device ?? existing?.name ?? profileNameFor(host));
  if (opts.fingerprint !== undefined && !isFingerprint(opts.fingerprint)) {
    throw new UsageError(
      `invalid fingerprint '${opts.fingerprint}'`,
      'give the SHA-256 of the certificate: 64 hex digits, with or without colons, in any case',
    );
  }
  const vdom = ctx.settings.flags.vdom ?? existing?.vdom;
  if (vdom !== undefined) parseVdoms(vdom);
  const prefix = opts.prefix ?? existing?.prefix;
  if (prefix !== undefined) parsePrefix(prefix, opts.prefix !== undefined ? '--prefix' : 'the saved profile');
  const sameDevice = existing?.host === host;
  const caFile = ctx.settings.flags.caFile
    ? resolve(ctx.settings.flags.caFile)
    : sameDevice
      ? existing?.caFile
      : undefined;
  const pinned = opts.fingerprint
    ? normalizeFingerprint(opts.fingerprint)
    : sameDevice
      ? existing?.fingerprint
      : undefined;

  const credential = await readCredential(ctx, opts, existing, host);
  if (existing && existing.name === name && existing.auth !== credential.kind)
    await confirmReplace(ctx, existing, credential);
  const store = await openStore(ctx, opts, name);
  // The settings of the profile about to be saved: the flags, the environment, then what the old profile kept.
  const merged = mergeSettings(
    ctx.settings,
    { host, prefix: existing?.prefix, timeout: existing?.timeout, caFile: sameDevice ? existing?.caFile : undefined },
    opts.prefix,
  );
  const target = endpointOf(merged, host);
  const tls = await tlsOptions(ctx.device(), { host, caFile: target.caFile, fingerprint: pinned });
  const banner = { accepted: false };
  const auth = await authenticator(ctx, opts, credential, banner);
  const checked = await check(ctx, target, tls, auth, name);

  await store.set(credentialAccount(name), credential.secret);
  // The session saved by an earlier login of this profile is replaced: end it on the device first.
  if (existing?.name === name && sameDevice && existing.auth === 'session')
    await endSession(ctx.device(), existing, await secretStore(ctx.device(), existing.secrets)).catch(() => false);
  const session = credential.kind === 'session' ? (auth as SessionAuth).exportState() : null;
  await saveSession(ctx.device(), store, name, session);
  if (existing && existing.name === name && existing.secrets !== store.kind)
    await forgetSecrets(ctx.device(), existing, { credential: true, session: true });

  const profile: DeviceProfile = {
    name,
    host,
    prefix,
    auth: credential.kind,
    username: credential.username,
    vdom,
    caFile,
    fingerprint: checked.fingerprint ? displayFingerprint(checked.fingerprint) : undefined,
    timeout:
      ctx.settings.flags.timeout !== undefined ? merged.timeoutMs / 1000 : sameDevice ? existing?.timeout : undefined,
    secrets: store.kind,
    acceptDisclaimer: banner.accepted || (sameDevice && existing?.acceptDisclaimer) || undefined,
    // Which catalogue the device's commands use (README "Every release"): learned from the status answer.
    ...releaseOf(checked.status.body),
  };
  // Read again under the lock: other logins may have saved their profiles since this one started.
  const saved = await updateProfiles(ctx.env, ctx.settings.lockTimeoutMs, (current) => putProfile(current, profile));

  const facts = deviceFacts(checked.status);
  const isDefault = saved.defaultName === name;
  const who = credential.kind === 'token' ? 'with an API token' : `as ${credential.username}`;
  await printOutcome(
    ctx,
    `Logged in to ${describeDevice(facts)} at ${host} ${who}; ` +
      `saved as device '${name}'${isDefault ? ' (the default)' : ''}, secret in ${store.location}`,
    {
      device: name,
      host,
      auth: credential.kind,
      username: credential.username ?? null,
      ...facts,
      fingerprint: profile.fingerprint ?? null,
      default: isDefault,
      secrets: store.kind,
    },
  );
  return 0;
}
