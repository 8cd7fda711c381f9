import { normalizeBaseUrl } from '../api/url.js';
import { UsageError } from '../errors.js';
import { defaultProfile, getProfile, readProfiles, type DeviceProfile } from '../config/profiles.js';
import type { Context } from './context.js';

/** `fw.example` → `https://fw.example`, for comparing with a profile's host; unparsable input is kept as is. */
function sameHost(a: string, b: string): boolean {
  const norm = (h: string) => {
    try {
      return normalizeBaseUrl(h);
    } catch {
      return h;
    }
  };
  return norm(a) === norm(b);
}

export function hostOption(ctx: Context): string | undefined {
  return ctx.options.host ?? (ctx.env.CMDB_HOST || undefined);
}

/** The profile named by -d or CMDB_DEVICE, if any. */
export function deviceOption(ctx: Context): string | undefined {
  return ctx.options.device ?? (ctx.env.CMDB_DEVICE || undefined);
}

const selections = new WeakMap<Context, DeviceProfile | null>();

/**
 * The device profile this run uses: the one named by -d/CMDB_DEVICE, else the one saved for
 * --host/CMDB_HOST, else (without a host) the default. Read once per run, synchronously, because the
 * profile's VDOM is needed before the first request is built.
 */
export function selectedProfile(ctx: Context): DeviceProfile | null {
  if (!selections.has(ctx)) {
    const set = readProfiles(ctx.env);
    const name = deviceOption(ctx);
    const host = hostOption(ctx);
    let profile: DeviceProfile | null;
    if (name) {
      profile = getProfile(set, name);
      if (host && !sameHost(host, profile.host)) {
        throw new UsageError(`device '${name}' is ${profile.host}, but --host/CMDB_HOST names ${host}`, "a saved credential is only sent to its own device: drop --host (or CMDB_HOST), or -d (or CMDB_DEVICE)");
      }
    } else {
      profile = host ? (set.devices.find((d) => sameHost(host, d.host)) ?? null) : defaultProfile(set);
    }
    selections.set(ctx, profile);
  }
  return selections.get(ctx) ?? null;
}
