import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { BIN, cmdb, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs `cmdb emulator` as a user would, in the foreground of its own process. */
function emulator(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'emulator', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: isolatedEnv(),
  });
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
    const child = emulator(['-o', 'json', '--vdoms', 'root,lab']);
    const [line] = await linesUntil(child, () => true);
    const start = JSON.parse(line);
    assert.deepEqual(Object.keys(start), ['url', 'token', 'username', 'password', 'vdoms', 'fingerprint']);
    assert.deepEqual(start.vdoms, ['root', 'lab']);
    assert.equal(start.fingerprint, null);
    const reply = await fetch(`${start.url}/api/v2/cmdb/router/access-list?vdom=lab`, {
      headers: { Authorization: `Bearer ${start.token}` },
    });
    assert.equal(reply.status, 200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('prints a readable block with a ready-to-paste export line', TIMEOUT, async () => {
    const child = emulator(['--tls']);
    const lines = await linesUntil(child, (line) => line.trim().startsWith('export '));
    const text = lines.join('\n');
    assert.match(text, /fingerprint\s+([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    const exportLine = lines.find((l) => l.trim().startsWith('export '));
    assert.match(
      exportLine ?? '',
      /^ {2}export CMDB_HOST=https:\/\/127\.0\.0\.1:\d+ CMDB_TOKEN=[a-z0-9]{30} CMDB_CA_FILE=\S+\.pem$/,
    );
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  it('exits 2 with a JSON error when the port is taken', TIMEOUT, async () => {
    const first = emulator(['-o', 'json']);
    const [line] = await linesUntil(first, () => true);
    const port = new URL(JSON.parse(line).url).port;
    const second = await cmdb(['emulator', '-o', 'json', '--port', port]);
    first.kill('SIGTERM');
    await once(first, 'exit');
    assert.equal(second.code, 2);
    assert.equal(JSON.parse(second.stderr).error.exit, 2);
    assert.match(JSON.parse(second.stderr).error.message, /cannot start the emulator/);
  });

  it('--config sets administrators, API tokens with access profiles, and the lockout', TIMEOUT, async () => {
    const dir = tempDir('cmdb-emu-config-');
    const config = join(dir, 'device.yaml');
    writeFileSync(
      config,
      [
        'admins:',
        '  - {username: auditor, password: "s3cret pass", groups: [fwgrp]}',
        'tokens:',
        '  - {token: fwonlytoken0123456789, groups: [fwgrp], vdoms: [root]}',
        'max-failed-logins: 2',
        'block-seconds: 30',
      ].join('\n'),
    );
    const child = emulator(['-o', 'json', '--config', config]);
    const start = JSON.parse((await linesUntil(child, () => true))[0]);
    assert.equal(start.token, 'fwonlytoken0123456789');
    assert.equal(start.username, 'auditor');
    const env = isolatedEnv({ CMDB_HOST: start.url, CMDB_TOKEN: start.token });
    assert.equal((await cmdb(['list', 'firewall.ipmacbinding/table'], { env })).code, 0);
    const forbidden = await cmdb(['get', 'log.disk/setting'], { env });
    assert.equal(forbidden.code, 5, forbidden.stderr);
    assert.match(forbidden.stderr, /loggrp/);
    const otherVdom = await cmdb(['list', 'firewall.ipmacbinding/table', '--vdom', 'dmz'], { env });
    assert.equal(otherVdom.code, 5, otherVdom.stderr);
    const bad = { ...env, CMDB_TOKEN: 'wrong-token' };
    await cmdb(['list', 'firewall.ipmacbinding/table'], { env: bad });
    await cmdb(['list', 'firewall.ipmacbinding/table'], { env: bad });
    const blocked = await cmdb(['list', 'firewall.ipmacbinding/table'], { env: bad });
    assert.equal(blocked.code, 8, blocked.stderr);
    assert.match(blocked.stderr, /try again in \d+ seconds/);
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('a bad --config is a usage error naming the setting', TIMEOUT, async () => {
    const dir = tempDir('cmdb-emu-config-');
    const config = join(dir, 'bad.yaml');
    writeFileSync(config, 'tokens:\n  - {token: abc, group: [fwgrp]}\n');
    const r = await cmdb(['emulator', '--config', config]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown field 'group'/);
    writeFileSync(config, 'lockout: 3\n');
    const r2 = await cmdb(['emulator', '--config', config]);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /unknown setting 'lockout'/);
  });

  it(
    '--state keeps its address: a restart listens on the same port, unless --port says otherwise',
    TIMEOUT,
    async () => {
      const dir = tempDir('cmdb-emu-state-');
      const state = join(dir, 'device.json');
      const urls: string[] = [];
      for (const extra of [[], [], ['--port', '0']]) {
        const child = emulator(['-o', 'json', '--state', state, ...extra]);
        const [line] = await linesUntil(child, () => true);
        urls.push(JSON.parse(line).url);
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      assert.equal(urls[1], urls[0]);
      assert.notEqual(urls[2], urls[0]);
    },
  );

  it('--state keeps its VDOMs: a restart without --vdoms serves the ones the file holds', TIMEOUT, async () => {
    const dir = tempDir('cmdb-emu-state-');
    const state = join(dir, 'device.json');
    const vdoms: string[][] = [];
    for (const extra of [['--vdoms', 'root,lab,branch'], [], ['--vdoms', 'root']]) {
      const child = emulator(['-o', 'json', '--state', state, ...extra]);
      const [line] = await linesUntil(child, () => true);
      vdoms.push(JSON.parse(line).vdoms);
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    assert.deepEqual(vdoms[0], ['root', 'lab', 'branch']);
    assert.deepEqual(vdoms[1], ['root', 'lab', 'branch']);
    assert.deepEqual(vdoms[2], ['root']);
  });

  it('a broken --state file is exit 2 naming the file, and is left as it was', TIMEOUT, async () => {
    const dir = tempDir('cmdb-emu-state-');
    const state = join(dir, 'broken.json');
    writeFileSync(state, '{"format": "cmdb-emulator-state", "version": 1, "vdoms": ');
    const r = await cmdb(['emulator', '--state', state]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr.split('\n')[0],
      new RegExp(
        `^cmdb: cannot start the emulator: ${state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid JSON`,
      ),
    );
    assert.equal(readFileSync(state, 'utf8'), '{"format": "cmdb-emulator-state", "version": 1, "vdoms": ');
  });

  it(
    'each emulator is a device of its own: --serial and --hostname, else both from the port, told apart by auth status -d',
    TIMEOUT,
    async () => {
      const named = emulator(['-o', 'json', '--serial', 'FGVM01TM00000042', '--hostname', 'fw-lab']);
      const plain = emulator(['-o', 'json']);
      const [a, b] = await Promise.all(
        [named, plain].map(
          async (child) => JSON.parse((await linesUntil(child, () => true))[0]) as { url: string; token: string },
        ),
      );
      const env = isolatedEnv();
      try {
        const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(
          join(dir, 'config.yaml'),
          `default: fw-a\ndevices:\n  fw-a:\n    host: ${a.url}\n    auth: token\n    secrets: file\n  fw-b:\n    host: ${b.url}\n    auth: token\n    secrets: file\n`,
          { mode: 0o600 },
        );
        writeFileSync(join(dir, 'credentials.yaml'), `fw-a: ${a.token}\nfw-b: ${b.token}\n`, { mode: 0o600 });
        const r = await cmdb(['auth', 'status', '-d', 'fw*', '-o', 'json'], { env });
        assert.equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout) as Record<string, { hostname: string; serial: string }>;
        const port = new URL(b.url).port;
        assert.deepEqual([out['fw-a'].hostname, out['fw-a'].serial], ['fw-lab', 'FGVM01TM00000042']);
        assert.deepEqual(
          [out['fw-b'].hostname, out['fw-b'].serial],
          [`cmdb-emulator-${port}`, `FGVMEMU${port.padStart(9, '0')}`],
        );
      } finally {
        for (const child of [named, plain]) child.kill('SIGTERM');
        rmSync(env.HOME!, { recursive: true, force: true });
      }
    },
  );

  it('refuses a VDOM name the client would refuse (exit 2), and a bad --serial', TIMEOUT, async () => {
    const spaced = await cmdb(['emulator', '--vdoms', 'root,my lab']);
    assert.equal(spaced.code, 2);
    assert.match(spaced.stderr, /invalid VDOM name 'my lab'/);
    const serial = await cmdb(['emulator', '--serial', 'no serial']);
    assert.equal(serial.code, 2);
    assert.match(serial.stderr, /invalid --serial 'no serial'/);
  });
});
