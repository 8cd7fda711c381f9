// cmdb api, backup and status through the program (in-process; shell lines and SIGINT through the built CLI):
// over --demo, over emulators started here (a 7.6 one, several devices, a session login whose secrets
// --verbose must not show), and a device that stalls in the middle of a backup while the run is interrupted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, isolatedEnv, json, ROOT, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { COMMANDS } from '../../src/commands/registry.js';

type Obj = Record<string, unknown>;
const ok = (r: Run) => assert.equal(r.code, 0, r.stderr);

/** An isolated environment, and its removal. */
function home(extra: NodeJS.ProcessEnv = {}): { env: NodeJS.ProcessEnv; dir: string; done: () => void } {
  const env = isolatedEnv(extra);
  return { env, dir: env.HOME!, done: () => rmSync(env.HOME!, { recursive: true, force: true }) };
}

/** Runs a command line as the shell does (quotes, a redirection) in `cwd`, `cmdb` being the built CLI on the demo device. */
async function runsOnDemo(cwd: string, env: NodeJS.ProcessEnv, line: string): Promise<void> {
  const child = spawn('bash', ['-c', `cmdb() { "${process.execPath}" "${BIN}" --demo "$@"; }; ${line}`], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `${line}: ${stderr}`);
}

describe('over --demo', () => {
  test('the help and README examples of api, backup and status run against --demo', async () => {
    const h = home();
    try {
      const help = COMMANDS.filter(
        (c) => !c.parent && ['api', 'backup', 'status'].includes(c.signature.split(' ')[0]),
      ).flatMap((c) => c.examples ?? []);
      assert.equal(help.length, 8);
      // And the command lines of their guide (docs/tools.md; test/e2e/examples.test.ts runs every example too).
      const sections = readFileSync(join(ROOT, 'docs/tools.md'), 'utf8');
      const lines = [...sections.matchAll(/```sh\n([\s\S]*?)```/g)]
        .flatMap((m) => m[1].split('\n'))
        .filter((l) => /^(\$ )?cmdb /.test(l))
        .map((l) => l.replace(/^\$ /, '').replace(/\s+#.*$/, ''));
      assert.equal(lines.length, 8);
      // Each set in a demo device of its own (both create the same object).
      for (const example of help) await runsOnDemo(h.dir, h.env, example);
      assert.match(readFileSync(join(h.dir, 'fw1.conf'), 'utf8'), /^#config-version=/);
      assert.match(readFileSync(join(h.dir, 'backups', 'demo.conf'), 'utf8'), /^#config-version=/);
      const other = home();
      try {
        for (const line of lines) await runsOnDemo(other.dir, other.env, line);
      } finally {
        other.done();
      }
    } finally {
      h.done();
    }
  });

  test('cmdb --demo api monitor/system/status -o json prints the status', async () => {
    const h = home();
    try {
      const r = await runInProcess(['--demo', 'api', 'monitor/system/status', '-o', 'json'], { env: h.env });
      ok(r);
      assert.equal(json<Obj>(r).hostname, 'cmdb-emulator');
      const raw = await runInProcess(['--demo', 'api', '/api/v2/monitor/system/status', '--raw'], { env: h.env });
      ok(raw);
      assert.deepEqual([json<Obj>(raw).version, json<Obj>(raw).status], ['v6.4.14', 'success']);
    } finally {
      h.done();
    }
  });

  test('cmdb --demo api cmdb/<table> -X POST --data creates an object that list then shows', async () => {
    const h = home();
    try {
      const body = JSON.stringify({ 'seq-num': 91, ip: '10.9.9.91', mac: '00:11:22:33:44:91', name: 'made-by-api' });
      const r = await runInProcess(
        ['--demo', 'api', 'cmdb/firewall.ipmacbinding/table', '-X', 'POST', '--data', body, '-o', 'json'],
        { env: h.env },
      );
      ok(r);
      assert.deepEqual([json<Obj>(r).status, json<Obj>(r).mkey], ['success', 91]);
      const list = await runInProcess(['--demo', 'list', 'firewall.ipmacbinding/table', '-o', 'json'], { env: h.env });
      ok(list);
      assert.ok(json<Obj[]>(list).some((o) => o['seq-num'] === 91 && o.name === 'made-by-api'));
    } finally {
      h.done();
    }
  });

  test('cmdb --demo backup --file f: mode 0600, starts #config-version=, changes after a create', async () => {
    const h = home();
    try {
      const file = join(h.dir, 'backups', 'fw.conf');
      const first = await runInProcess(['--demo', 'backup', '--file', file], { env: h.env });
      ok(first);
      assert.equal(first.stdout, '');
      const before = readFileSync(file, 'utf8');
      assert.match(before, /^#config-version=FGVM64-6\.4\.14-/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(h.dir, 'backups')).mode & 0o777, 0o700);
      assert.match(before, /^config firewall ipmacbinding table$/m);
      ok(
        await runInProcess(['--demo', 'create', 'dlp/filepattern', '--set', 'id=61', '--set', 'name=backup-marker'], {
          env: h.env,
        }),
      );
      ok(await runInProcess(['--demo', 'backup', '--file', file], { env: h.env }));
      const after = readFileSync(file, 'utf8');
      assert.notEqual(after, before);
      assert.match(after, /edit 61\n\s+set name "backup-marker"\n\s+next/);
      assert.deepEqual(readdirSync(join(h.dir, 'backups')), ['fw.conf']);
      // Without --file: the same text on stdout, byte for byte; and through cmdb api.
      const out = await runInProcess(['--demo', 'backup'], { env: h.env });
      ok(out);
      assert.equal(out.stdout, after);
      const api = await runInProcess(
        ['--demo', 'api', 'monitor/system/config/backup', '--query', 'scope=global', '-o', 'json'],
        { env: h.env },
      );
      ok(api);
      assert.equal(api.stdout, after);
    } finally {
      h.done();
    }
  });

  test('cmdb --demo status: one row in a table, the object in json', async () => {
    const h = home();
    try {
      const table = await runInProcess(['--demo', 'status', '-o', 'table'], { env: h.env });
      ok(table);
      assert.equal(table.stdout.trimEnd().split('\n').length, 2);
      const r = await runInProcess(['--demo', 'status', '-o', 'yaml'], { env: h.env });
      ok(r);
      assert.match(r.stdout, /^hostname: cmdb-emulator\nserial: \S+\nversion: v6\.4\.14\nbuild: 2093\nmodel: /);
    } finally {
      h.done();
    }
  });
});

describe('over an emulator', () => {
  let emu: RunningEmulator;
  let newer: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ port: 0 });
    newer = await startEmulator({ port: 0, release: '7.6.0' });
  });
  after(async () => {
    await emu.close();
    await newer.close();
  });

  test('bad paths are usage errors (exit 2) and nothing is sent', async () => {
    const h = home({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    try {
      const sent = emu.requests.length;
      for (const path of [
        `${emu.url}/api/v2/monitor/system/status`,
        'https://evil.example/api/v2/monitor/system/status',
        '/logincheck',
        '/api/v2/../logincheck',
        'monitor/%2e%2e/%2e%2e/x',
      ]) {
        const r = await runInProcess(['api', path], { env: h.env });
        assert.equal(r.code, 2, `${path}: ${r.stderr}`);
        assert.match(r.stderr, /not a path under \/api\/v2\//);
      }
      assert.equal(emu.requests.length, sent);
    } finally {
      h.done();
    }
  });

  test('an unknown monitor path: the device JSON 404, exit 6', async () => {
    const h = home({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    try {
      const r = await runInProcess(['api', 'monitor/no/such/thing', '-o', 'json'], { env: h.env });
      assert.equal(r.code, 6, r.stderr);
      assert.equal(r.stdout, '');
      const error = JSON.parse(r.stderr) as { error: { status: number; code: number } };
      assert.deepEqual([error.error.status, error.error.code], [404, -3]);
    } finally {
      h.done();
    }
  });

  test('a 7.6 device: status says so, and the backup is a POST with its JSON body', async () => {
    const h = home({ CMDB_HOST: newer.url, CMDB_TOKEN: newer.token });
    try {
      const status = await runInProcess(['status', '-o', 'json'], { env: h.env });
      ok(status);
      assert.equal(json<Obj>(status).version, 'v7.6.0');
      const from = newer.requests.length;
      const r = await runInProcess(['backup', '--scope', 'vdom', '--vdom', 'dmz'], { env: h.env });
      ok(r);
      assert.match(r.stdout, /^#config-version=FGVM64-7\.6\.0-FW-build\d+-.*\n(.*\n)*edit dmz\n/);
      const backups = newer.requests.slice(from).filter((q) => q.path === '/api/v2/monitor/system/config/backup');
      assert.deepEqual(
        backups.map((q) => q.method),
        ['POST'],
      );
      assert.deepEqual(JSON.parse(backups[0].body), { destination: 'file', scope: 'vdom', vdom: 'dmz' });
      // The GET form is refused by the release (405): through cmdb api, exit 7.
      const get = await runInProcess(['api', 'monitor/system/config/backup', '--query', 'scope=global'], {
        env: h.env,
      });
      assert.equal(get.code, 7, get.stderr);
    } finally {
      h.done();
    }
  });

  test('--verbose never shows the token, the password, the session cookies or the CSRF token', async () => {
    const token = home({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    const session = home({ CMDB_HOST: emu.url, CMDB_USERNAME: emu.username, CMDB_PASSWORD: emu.password });
    try {
      const byToken = await runInProcess(['-v', 'api', 'monitor/system/status'], { env: token.env });
      ok(byToken);
      assert.match(byToken.stderr, /authorization: Bearer <redacted>/);
      assert.ok(!byToken.stderr.includes(emu.token));
      const from = emu.requests.length;
      const runs = [
        await runInProcess(
          ['-v', 'api', 'cmdb/dlp/filepattern', '-X', 'POST', '--data', '{"id":62,"name":"verbose-check"}'],
          {
            env: session.env,
          },
        ),
        await runInProcess(['-v', 'backup'], { env: session.env }),
      ];
      for (const r of runs) ok(r);
      const secrets = new Set<string>([emu.password]);
      for (const q of emu.requests.slice(from)) {
        for (const cookie of (q.headers.cookie ?? '').split(';')) {
          const value = cookie.split('=').slice(1).join('=').trim().replace(/^"|"$/g, '');
          if (value.length > 4) secrets.add(value);
        }
        if (q.headers['x-csrftoken']) secrets.add(q.headers['x-csrftoken'].replace(/^"|"$/g, ''));
      }
      assert.ok(secrets.size >= 3, 'the session sent cookies and a CSRF token');
      for (const r of runs) {
        assert.match(r.stderr, /> (POST|GET) /);
        for (const secret of secrets)
          assert.ok(!r.stderr.includes(secret), `a secret shows in --verbose: ${secret.slice(0, 6)}…`);
      }
    } finally {
      token.done();
      session.done();
    }
  });

  test('several devices: api and status keyed by device, status one table row each, backup --dir one file each', async () => {
    const h = home();
    try {
      const dir = join(h.env.XDG_CONFIG_HOME!, 'cmdb');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(
        join(dir, 'config.yaml'),
        [
          'default: old',
          'devices:',
          ...[
            ['old', emu.url],
            ['new', newer.url],
          ].flatMap(([n, url]) => [`  ${n}:`, `    host: ${url}`, '    auth: token', '    secrets: file']),
        ].join('\n') + '\n',
        { mode: 0o600 },
      );
      writeFileSync(join(dir, 'credentials.yaml'), `old: ${emu.token}\nnew: ${newer.token}\n`, { mode: 0o600 });
      const api = await runInProcess(['-d', 'old,new', 'api', 'monitor/system/firmware', '-o', 'json'], { env: h.env });
      ok(api);
      const firmware = json<Record<string, { current: { major: number; minor: number } }>>(api);
      assert.deepEqual([firmware.old.current.minor, firmware.new.current.major], [4, 7]);
      // An answer that is not JSON is each device's value as text (the 7.6 device refuses the GET: exit 7).
      const text = await runInProcess(
        ['-d', 'old,new', 'api', 'monitor/system/config/backup', '--query', 'scope=global', '-o', 'json'],
        { env: h.env },
      );
      assert.equal(text.code, 7, text.stderr);
      assert.deepEqual(Object.keys(json<Obj>(text)), ['old']);
      assert.match(json<Record<string, string>>(text).old, /^#config-version=FGVM64-6\.4\.14-/);
      const table = await runInProcess(['-d', 'old,new', 'status', '-o', 'table'], { env: h.env });
      ok(table);
      const lines = table.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 3, table.stdout);
      assert.match(lines[0], /^device\s+hostname\s+serial\s+version/);
      assert.match(lines[1], /^old\s.*v6\.4\.14/);
      assert.match(lines[2], /^new\s.*v7\.6\.0/);
      const noDir = await runInProcess(['-d', 'old,new', 'backup'], { env: h.env });
      assert.equal(noDir.code, 2, noDir.stderr);
      assert.match(noDir.stderr, /needs --dir/);
      const out = join(h.dir, 'configs');
      ok(await runInProcess(['-d', 'old,new', 'backup', '--dir', out], { env: h.env }));
      assert.deepEqual(readdirSync(out).sort(), ['new.conf', 'old.conf']);
      assert.match(readFileSync(join(out, 'new.conf'), 'utf8'), /^#config-version=FGVM64-7\.6\.0-/);
      assert.match(readFileSync(join(out, 'old.conf'), 'utf8'), /^#config-version=FGVM64-6\.4\.14-/);
      for (const name of ['new.conf', 'old.conf']) assert.equal(statSync(join(out, name)).mode & 0o777, 0o600);
    } finally {
      h.done();
    }
  });
});

describe('an interrupted backup', () => {
  let server: Server;
  let url: string;
  /** Called when the backup's request has arrived and its answer has begun. */
  let onBackup: () => void = () => undefined;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/api/v2/monitor/system/status')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            http_method: 'GET',
            results: { hostname: 'slow' },
            status: 'success',
            http_status: 200,
            version: 'v6.4.14',
          }),
        );
        return;
      }
      // Half a configuration, then nothing more until the client goes away.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin\nconfig system global\n');
      onBackup();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('SIGINT during the download leaves no file (and no temp file), says so, and exits 130', async () => {
    const h = home({ CMDB_HOST: url, CMDB_TOKEN: 'abcdefghij0123456789abcdefghij' });
    try {
      const folder = join(h.dir, 'out');
      mkdirSync(folder);
      const child = spawn(process.execPath, [BIN, 'backup', '--file', join(folder, 'fw.conf')], {
        env: h.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      onBackup = () => child.kill('SIGINT');
      // A watchdog, not a timing assertion: a run still going long after the interrupt fails by its exit.
      const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearTimeout(watchdog);
      assert.equal(code, 130, stderr);
      assert.equal(stderr, 'cmdb: interrupted: no file was written\n');
      assert.deepEqual(readdirSync(folder), []);
      assert.ok(!existsSync(join(folder, 'fw.conf')));
    } finally {
      onBackup = () => undefined;
      h.done();
    }
  });
});
