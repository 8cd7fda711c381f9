#!/usr/bin/env node
// Writes completions/cmdb.{bash,zsh,fish} from the compiled completion module: the scripts the package
// ships and what `cmdb completion <shell>` prints share one source (src/commands/completion.ts). Run by
// `npm run build`, like scripts/man.js.
import { mkdirSync, writeFileSync } from 'node:fs';

const { completionScript } = await import('../dist/src/commands/completion.js');
const { SHELLS } = await import('../dist/src/grammar/types.js');
mkdirSync(new URL('../completions/', import.meta.url), { recursive: true });
for (const shell of SHELLS)
  writeFileSync(new URL(`../completions/cmdb.${shell}`, import.meta.url), completionScript(shell));
