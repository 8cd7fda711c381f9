// A home of its own for the programs a bench row starts (profiles, state, caches), so that no row
// reads the developer's own or another row's.
import { join } from 'node:path';

export function benchEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: join(home, 'c'),
    XDG_STATE_HOME: join(home, 's'),
    XDG_CACHE_HOME: join(home, 'k'),
    ...extra,
  };
}
