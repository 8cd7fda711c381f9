// Every example a user is shown runs: the examples of each command's --help (src/commands/registry.ts),
// those of `cmdb --help` (src/cli/help.ts; the man page prints the same lists), and the command lines
// of the ```sh blocks of README.md and docs/**/*.md. Each runs through bash, `cmdb` being the built
// bin/cmdb.js with --demo, and must exit as it says.
//
// The rules, as docs/dev/testing.md states them:
// - Groups. The examples of one command's --help are one group, those of `cmdb --help` another, and
//   every ```sh block of a document is one group. The demo is reset (`cmdb demo reset`) before each
//   group; the examples of a group run in order, so an example may use what an earlier one of its
//   group made. The help groups share one scratch folder, in registry order; each document has its
//   own, shared by its blocks in order, so a file an example writes (`export > fw1.yaml`) is there
//   for the blocks after it.
// - Lines. In a ```sh block, a line starting `cmdb ` or `$ cmdb ` is an example (a line ending in `\`
//   or `|` goes on on the next one); other lines (output, comments, other programs) are not run.
// - Exit codes. 0, unless the example's comment says `exit N` (`cmdb diff -f desired.yaml   # exit 10`).
// - Not on the demo: a ```sh block whose info string says `no-demo` (```sh no-demo), and any example
//   naming a real device's address (`--host`, `CMDB_HOST=`): logging in to a real device, CI against
//   one. The commands the demo device refuses by design (`login`, `logout`, `device use`,
//   `device remove`: they act on saved devices) run, and must be refused with exit 2 and "does not
//   apply to the demo device", which checks at least that they parse.
// - Fixture (the files and folders the examples read that no example makes), written into every
//   scratch folder and HOME before its first group: FIXTURE below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../src/commands/registry.js';
import { commandName, EXAMPLES } from '../../src/cli/help.js';
import { BIN, isolatedEnv, ROOT } from '../helpers/cli.js';

interface Example {
  line: string;
  /** The exit code the example implies. */
  exit: number;
}

interface Group {
  /** Where the examples are shown: `cmdb list --help`, `docs/objects.md:42`. */
  where: string;
  /** The scratch folder's name: examples of one source share it. */
  folder: string;
  examples: Example[];
}

/** An example about a real device: not run against the demo. */
const REAL_DEVICE = /--host\b|CMDB_HOST=/;
/** Examples that serve until stopped. */
const SERVING = /^cmdb emulator\b/;
/** Commands the demo device refuses (exit 2): they act on saved devices. */
const REFUSED_BY_DEMO = /^cmdb\b.*?\b(login|logout|device use|device remove)\b/;

/** Saved profiles some examples name (`-d fw1`, `device set branch-1 ...`); --demo never contacts them. */
const PROFILES = ['fw1', 'fw2', 'lab', 'branch-1', 'branch-2'];

/** Files and folders the examples read that no earlier example of theirs makes (paths under the scratch folder; `~/` under HOME). */
const FIXTURE: Record<string, string | null> = {
  // `cmdb create dlp/filepattern -f patterns.yaml`: two new file patterns (ids the demo does not use).
  'patterns.yaml': '- {id: 21, name: pdfs, comment: PDF documents}\n- {id: 22, name: archives}\n',
  // `cmdb create firewall/address -f addresses.yaml`: a list of new addresses.
  'addresses.yaml': '- {name: branch-1-net, subnet: 10.1.0.0/24}\n- {name: branch-2-net, subnet: 10.2.0.0/24}\n',
  // `cmdb apply -f snippet.conf`, `create firewall/address -f snippet.conf`: as the vendor's documentation writes one.
  'snippet.conf': [
    'config firewall address',
    '    edit "doc-net"',
    '        set subnet 10.0.0.0 255.255.255.0',
    '    next',
    'end',
    'config firewall policy',
    '    edit 0',
    '        set name "doc-policy"',
    '        set srcintf "port1"',
    '        set dstintf "port2"',
    '        set srcaddr "doc-net"',
    '        set dstaddr "all"',
    '        set action accept',
    '        set schedule "always"',
    '        set service "HTTPS"',
    '    next',
    'end',
    '',
  ].join('\n'),
  // `cmdb device set lab ca-file=./lab-ca.pem`: the file must exist (cmdb checks no more of it there).
  'lab-ca.pem': '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n',
  // `cmdb completion ... > <folder>`: the folders the shells read completions from.
  '~/.zsh/completions/': null,
  '~/.config/fish/completions/': null,
  '~/.local/share/bash-completion/completions/': null,
};

function exampleOf(text: string): Example {
  const line = text.replace(/^\$ /, '').trim();
  const said = /\s#\s.*\bexit (\d+)\b/.exec(line);
  return { line, exit: said ? Number(said[1]) : 0 };
}

/** The groups of the help: one per command (registry order), then the program's own. */
function helpGroups(): Group[] {
  return [
    ...COMMANDS.map((def) => ({
      where: `cmdb ${commandName(def)} --help`,
      folder: 'help',
      examples: (def.examples ?? []).map(exampleOf),
    })),
    { where: 'cmdb --help', folder: 'help', examples: EXAMPLES.map(exampleOf) },
  ];
}

/** README.md and every docs/**\/*.md, repository-relative. */
export function documents(): string[] {
  const walk = (dir: string): string[] =>
    !existsSync(join(ROOT, dir))
      ? []
      : readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
        );
  return ['README.md', ...walk('docs').sort()];
}

/** The ```sh blocks of a document, each a group of its command lines (blocks marked no-demo left out). */
function documentGroups(file: string): Group[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const groups: Group[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(open[1]!.length));
    if (open[2] !== 'sh' || /\bno-demo\b/.test(open[3]!)) continue;
    const examples: Example[] = [];
    for (let j = 0; j < body.length; j++) {
      let text = body[j]!;
      if (!/^(\$ )?cmdb /.test(text)) continue;
      while (/(\\|\|)\s*$/.test(text) && j + 1 < body.length) text = `${text.replace(/\\\s*$/, '')}\n${body[++j]}`;
      examples.push(exampleOf(text));
    }
    if (examples.length) groups.push({ where: `${file}:${start + 1}`, folder: file, examples });
  }
  return groups;
}

interface Result {
  code: number | null;
  stderr: string;
}

/** Runs a line through bash in its own process group (killed whole at the end: nothing is left running). */
function bash(line: string, cwd: string, env: NodeJS.ProcessEnv, serving = false): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail\n${line}`], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      // A serving example (`cmdb emulator`) has done its part once it printed where it listens.
      if (serving && /https?:\/\/127\.0\.0\.1:\d+/.test(stdout)) {
        stop();
        resolve({ code: 0, stderr });
      }
    });
    const timer = setTimeout(stop, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      stop();
      resolve({ code, stderr });
    });
  });
}

/** A HOME with `cmdb` on its PATH (the built CLI with --demo), the saved profiles, and the editor `true` (saves unchanged). */
function scratchHome(): NodeJS.ProcessEnv {
  const env = isolatedEnv({ EDITOR: 'true', VISUAL: 'true' });
  const bin = join(env.HOME!, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'cmdb'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" --demo "$@"\n`);
  chmodSync(join(bin, 'cmdb'), 0o755);
  env.PATH = `${bin}:${process.env.PATH}`;
  // A serving example is killed at the end, before it removes its temporary files (`cmdb emulator
  // --tls` writes its CA file there): they go in the HOME, which the test removes.
  env.TMPDIR = join(env.HOME!, 'tmp');
  mkdirSync(env.TMPDIR);
  const config = join(env.XDG_CONFIG_HOME!, 'cmdb');
  mkdirSync(config, { recursive: true });
  const devices = PROFILES.flatMap((name) => [
    `  ${name}:`,
    `    host: https://${name}.example:8443`,
    '    auth: token',
    '    secrets: file',
  ]);
  writeFileSync(join(config, 'config.yaml'), ['default: fw1', 'devices:', ...devices].join('\n') + '\n', {
    mode: 0o600,
  });
  return env;
}

function writeFixture(dir: string, home: string): void {
  for (const [path, content] of Object.entries(FIXTURE)) {
    const target = path.startsWith('~/') ? join(home, path.slice(2)) : join(dir, path);
    if (content === null) mkdirSync(target, { recursive: true });
    else writeFileSync(target, content);
  }
}

test('every example of --help, the man page, README.md and docs/ runs against --demo with the exit code it implies', async (t) => {
  // EXAMPLES_ONLY=<text> runs only the groups whose place contains it (`EXAMPLES_ONLY=docs/objects.md`).
  const only = process.env.EXAMPLES_ONLY;
  const groups = [...helpGroups(), ...documents().flatMap(documentGroups)].filter(
    (g) => !only || g.where.includes(only),
  );
  const root = mkdtempSync(join(tmpdir(), 'cmdb-examples-'));
  const env = scratchHome();
  const failures: string[] = [];
  const folders = new Map<string, string>();
  let ran = 0;
  let notOnDemo = 0;
  try {
    for (const group of groups) {
      let dir = folders.get(group.folder);
      if (!dir) {
        dir = join(root, String(folders.size));
        mkdirSync(dir);
        writeFixture(dir, env.HOME!);
        folders.set(group.folder, dir);
      }
      const reset = await bash('cmdb demo reset', dir, env);
      assert.equal(reset.code, 0, reset.stderr);
      for (const example of group.examples) {
        if (REAL_DEVICE.test(example.line)) {
          notOnDemo++;
          continue;
        }
        ran++;
        // `cmdb emulator` serves until stopped: it passes once it printed its address (a trailing `&` is dropped).
        const serving = SERVING.test(example.line);
        const r = await bash(serving ? example.line.replace(/\s*&\s*$/, '') : example.line, dir, env, serving);
        const refused = REFUSED_BY_DEMO.test(example.line);
        if (refused ? r.code !== 2 || !/does not apply to the demo device/.test(r.stderr) : r.code !== example.exit) {
          failures.push(
            `${group.where}: ${example.line}\n  exit ${r.code}, expected ${refused ? '2 (refused by the demo)' : example.exit}\n  ${r.stderr.trim().split('\n').join('\n  ')}`,
          );
          process.stderr.write(`# ${failures.at(-1)}\n`);
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(env.HOME!, { recursive: true, force: true });
  }
  t.diagnostic(`${ran} examples run in ${groups.length} groups; ${notOnDemo} about a real device not run`);
  assert.ok(only || ran > 100, `only ${ran} examples found`);
  assert.equal(failures.length, 0, `${failures.length} of ${ran} examples failed:\n\n${failures.join('\n\n')}`);
});

test('the examples of the help are not repeated within a command', () => {
  for (const def of COMMANDS) {
    const examples = def.examples ?? [];
    assert.equal(new Set(examples).size, examples.length, commandName(def));
  }
});
