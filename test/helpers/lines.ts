// Command lines made from the registry, for the tests that compare two readings of the same line.
import type { CommandDef } from '../../src/commands/define.js';

/** A command's words: `['device', 'list']`, `['get']`. */
export const words = (def: CommandDef): string[] => [...(def.parent ? [def.parent] : []), def.signature.split(' ')[0]!];

/** The shortest line a command takes: its words and every required argument. */
export function base(def: CommandDef): string[] {
  const required = def.signature
    .split(' ')
    .slice(1)
    .filter((w) => w.startsWith('<'));
  return [...words(def), ...required.flatMap((w, i) => (w.includes('...') ? [`k${i}a`, `k${i}b`] : [`a${i}`]))];
}
