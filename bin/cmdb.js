#!/usr/bin/env node
import { answerQuickly } from '../dist/src/cli/quick.js';

const argv = process.argv.slice(2);
if (!answerQuickly(argv)) {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(argv);
}
