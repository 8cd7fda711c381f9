import type { Context } from '../cli/context.js';
import { SHELLS, type Shell } from '../grammar/types.js';
import { completionScript } from '../completion/scripts.js';
import { UsageError } from '../errors.js';

/** `cmdb completion bash|zsh|fish`: prints the script that makes Tab ask `cmdb __complete`. */
export async function run(ctx: Context, { shell }: { shell: string }): Promise<number> {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`no completion for shell '${shell}'`, `use one of ${SHELLS.join(', ')}`);
  }
  // A script, not data: it is printed as is whatever the output format.
  ctx.out.text(completionScript(shell as Shell));
  return 0;
}
