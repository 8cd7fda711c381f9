// `cmdb __complete`: what the completion scripts run on every Tab. It loads the catalogue and the
// generated program model, never commander; the device (and undici) only when keys are not cached.
import type { IO } from '../output/index.js';
import { complete } from './engine.js';
import { Printer } from '../output/printer.js';
import { formatCompletion } from './format.js';
import { SHELLS, type Shell } from '../grammar/types.js';
import { PROGRAM } from './program.js';
import { deviceSources } from './sources.js';
import { readRequest } from './words.js';

/**
 * `cmdb __complete <shell> -- <words>`: prints candidates (format.ts) and exits 0. Whatever goes
 * wrong, it prints nothing: an error message would land in the user's command line.
 */
export async function completeCommand(args: string[], io: IO, env: NodeJS.ProcessEnv): Promise<number> {
  const out = new Printer(io, env, { format: () => 'table', raw: false, noColor: true });
  const shell = args[0] as Shell;
  const separator = args.indexOf('--');
  if (!SHELLS.includes(shell) || separator < 0) return 0;
  try {
    const request = readRequest(shell, args.slice(separator + 1), env);
    if (!request) return 0;
    const completion = await complete(PROGRAM, request.words, request.current.value, deviceSources(env));
    out.text(formatCompletion(shell, completion, request.current));
  } catch {
    /* no candidates */
  }
  // The shell waits for this process to end: once the answer is out, nothing holds it (a request left
  // behind at the deadline, a connection closing): bin/cmdb.js exits as soon as the output is written.
  return 0;
}
