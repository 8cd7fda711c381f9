// Which name each of SPEC.md's renamed tables answered to on a device (CLI.md "Every table the device
// has", Names): a full export asks under SPEC.md's name and, on a 404, under the device's; the name that
// answered is asked first the next time, so a device costs the extra request once. Kept per device
// address in the XDG cache folder (no secrets); a file that cannot be read is an empty memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../files.js';
import { cacheDir } from '../config/paths.js';

type Memory = Record<string, Record<string, string>>;

export class TableNames {
  private dirty = false;

  private constructor(
    private readonly file: string,
    private readonly device: string,
    private readonly memory: Memory,
  ) {}

  /** The memory of one device (its address, or `demo`). */
  static load(env: NodeJS.ProcessEnv, device: string): TableNames {
    const file = join(cacheDir(env), 'table-names.json');
    let memory: Memory = {};
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) memory = parsed as Memory;
    } catch {
      /* none yet, or unreadable: ask as if new */
    }
    return new TableNames(file, device, memory);
  }

  /** A table's names (namesOf), the one this device answered to last first. */
  prefer(names: string[]): string[] {
    const answered = this.memory[this.device]?.[names[0]];
    return answered && names.includes(answered) ? [answered, ...names.filter((n) => n !== answered)] : names;
  }

  /** Remembers the name a table (known by `names[0]`) answered to; only tables with several names are kept. */
  answered(names: string[], name: string): void {
    if (names.length < 2) return;
    const entries = (this.memory[this.device] ??= {});
    if (entries[names[0]] === name) return;
    entries[names[0]] = name;
    this.dirty = true;
  }

  /** Writes the memory back when it changed (a cache: a failure to write is ignored). */
  save(): void {
    if (!this.dirty) return;
    try {
      writePrivateFile(this.file, JSON.stringify(this.memory), { durable: false });
      this.dirty = false;
    } catch {
      /* a read-only cache folder: the next run asks again */
    }
  }
}
