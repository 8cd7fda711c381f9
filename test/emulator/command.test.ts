import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { EmulatorCommandOptions } from '../../src/commands/emulator.js';

const commandModule = fileURLToPath(new URL('../../src/commands/emulator.js', import.meta.url));

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs `emulatorCommand` in a child process, as `cmdb emulator` does, exiting with its return code. */
function runCommand(options: EmulatorCommandOptions): ChildProcess {
  const script = `import(${JSON.stringify(commandModule)}).then(async (m) => { process.exitCode = await m.emulatorCommand(${JSON.stringify(options)}, process); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

/** Stdout lines up to and including the first one that `last` accepts (or all of them, at exit). */
async function linesUntil(child: ChildProcess, last: (line: string) => boolean): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    lines.push(line);
    if (last(line)) break;
  }
  return lines;
}

const TIMEOUT = { timeout: 20_000 };

describe('cmdb emulator command', () => {
  it('prints one JSON start line, serves, and exits 0 on SIGTERM', TIMEOUT, async () => {
    const child = runCommand({ json: true, port: 0, vdoms: ['root', 'lab'] });
    const [line] = await linesUntil(child, () => true);
    const start = JSON.parse(line);
    assert.deepEqual(Object.keys(start), ['url', 'token', 'username', 'password', 'vdoms', 'fingerprint']);
    assert.deepEqual(start.vdoms, ['root', 'lab']);
    assert.equal(start.fingerprint, null);
    const reply = await fetch(`${start.url}/api/v2/cmdb/router/access-list?vdom=lab`, { headers: { Authorization: `Bearer ${start.token}` } });
    assert.equal(reply.status, 200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('prints a readable block with a ready-to-paste export line', TIMEOUT, async () => {
    const child = runCommand({ json: false, port: 0, tls: true });
    const lines = await linesUntil(child, (line) => line.trim().startsWith('export '));
    const text = lines.join('\n');
    assert.match(text, /fingerprint\s+([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    const exportLine = lines.find((l) => l.trim().startsWith('export '));
    assert.match(exportLine ?? '', /^ {2}export CMDB_HOST=https:\/\/127\.0\.0\.1:\d+ CMDB_TOKEN=[a-z0-9]{30} CMDB_CA_FILE=\S+\.pem$/);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('exits 2 with a JSON error when the port is taken', TIMEOUT, async () => {
    const first = runCommand({ json: true, port: 0 });
    const [line] = await linesUntil(first, () => true);
    const port = Number(new URL(JSON.parse(line).url).port);
    const second = runCommand({ json: true, port });
    let stderr = '';
    second.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(second, 'exit');
    first.kill('SIGTERM');
    await once(first, 'exit');
    assert.equal(code, 2);
    assert.equal(JSON.parse(stderr).error.exit, 2);
  });
});
