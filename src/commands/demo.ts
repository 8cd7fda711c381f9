// `cmdb demo reset`: the --demo device back to its demo data.
import { rm } from 'node:fs/promises';
import type { Context } from '../run/context.js';
import { demoStateFile } from '../device/select.js';

/** `cmdb demo reset`: forgets the --demo device's changes; the next --demo run starts from the demo data. */
export async function run(ctx: Context): Promise<number> {
  const file = demoStateFile(ctx.env);
  await rm(file, { force: true });
  ctx.out.notice(`the demo device is reset (removed ${file}); the next --demo command starts from the demo data`);
  return 0;
}
