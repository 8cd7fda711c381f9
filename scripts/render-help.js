#!/usr/bin/env node
// Build step (after tsc): renders with commander the help of the program and of every command, as
// `cmdb [command] --help` prints it, into dist/src/cli/help.json, so that --help is answered without
// loading commander (src/cli/quick.ts). Each text twice: at width 80 (a pipe, or an 80-column
// terminal) and unwrapped, with the width from which a terminal shows it unwrapped. Beside them the
// grammar generated from the registry, without descriptions, which quick.ts reads the line against.
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/src/cli/main.js';
import { completionModel } from '../dist/src/completion/model.js';

const UNWRAPPED = 10_000;

function render(path, width) {
  let out = '';
  const io = { stdout: { write: (s) => ((out += s), true) }, stderr: { write: () => true } };
  const program = buildProgram(io, async () => undefined);
  const all = (c) => [c, ...c.commands.flatMap(all)];
  for (const c of all(program)) c.configureOutput({ getOutHelpWidth: () => width });
  try {
    program.parse([...path, '--help'], { from: 'user' });
  } catch {
    // commander ends --help with an exception (exitOverride)
  }
  return out;
}

const help = {};
const program = buildProgram({ stdout: { write: () => true }, stderr: { write: () => true } }, async () => undefined);
const paths = (c, prefix) => [prefix, ...c.commands.flatMap((sub) => paths(sub, [...prefix, sub.name()]))];
for (const path of paths(program, [])) {
  const wide = render(path, UNWRAPPED);
  help[path.join(' ')] = {
    narrow: render(path, 80),
    wide,
    wideWidth: Math.max(...wide.split('\n').map((l) => l.length)),
  };
}
const grammar = JSON.parse(
  JSON.stringify(completionModel(), (key, value) =>
    ['description', 'kind', 'tables'].includes(key) ? undefined : value,
  ),
);
writeFileSync(new URL('../dist/src/cli/help.json', import.meta.url), JSON.stringify({ grammar, help }));
