// Real bash, zsh and fish, driven non-interactively, completing against the emulator.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import {
  bashComplete,
  bashReadline,
  fishComplete,
  needShells,
  shellEnv,
  zshComplete,
  type Completed,
} from './harness.js';
import { tempDir } from '../helpers/temp.js';

const TABLE = 'router/access-list';

let emulator: RunningEmulator;
let device: NodeJS.ProcessEnv;
let refused: string;
let silent: { url: string; server: Server; sockets: Set<Socket> };

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A device that accepts the connection and never answers. */
async function silentDevice(): Promise<typeof silent> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server, sockets };
}

before(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
  emulator.populate(TABLE, 'root', [{ name: 'lab gateway' }, { name: 'lab/core' }, { name: 'edge:a=b' }]);
  device = { CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token };
  refused = await closedPort();
  silent = await silentDevice();
});

after(async () => {
  await emulator.close();
  for (const socket of silent.sockets) socket.destroy();
  await new Promise((resolve) => silent.server.close(resolve));
});

const unreachable = () => [
  { name: 'refused', env: { CMDB_HOST: refused, CMDB_TOKEN: 'x' } },
  { name: 'silent', env: { CMDB_HOST: silent.url, CMDB_TOKEN: 'x' } },
];

/** A folder holding `body one.json`, for the options that take a file. */
function bodyFolder(): string {
  const dir = tempDir('cmdb-files-');
  writeFileSync(join(dir, 'body one.json'), '{}');
  return dir;
}

/**
 * A Tab still running after this is a frozen shell: the driver kills it and fails. Well above the
 * completion's own deadline (1.5 s) plus a start on a loaded machine; a watchdog, not a measurement.
 */
const FROZEN_MS = 5000;

/** No candidate, nothing on stderr, and no frozen shell, for a refused connection and for a device that never answers. */
async function assertQuietWhenUnreachable(
  complete: (line: string, env: NodeJS.ProcessEnv, watchdogMs?: number) => Promise<Completed>,
): Promise<void> {
  for (const { name, env } of unreachable()) {
    const r = await complete(`cmdb get ${TABLE} `, shellEnv(env), FROZEN_MS);
    assert.deepEqual(r.candidates, [], name);
    assert.equal(r.stderr, '', name);
  }
}

describe('bash', () => {
  it('completes a command prefix', async (t) => {
    if (!needShells(t, 'bash')) return;
    assert.deepEqual((await bashComplete('cmdb tr', shellEnv())).candidates, ['transactions']);
  });

  it('completes a table prefix, one area step at a time without a space after a step', async (t) => {
    if (!needShells(t, 'bash')) return;
    assert.deepEqual((await bashComplete('cmdb get firewall.ipm', shellEnv())).candidates, [
      'firewall.ipmacbinding/setting',
      'firewall.ipmacbinding/table',
    ]);
    const steps = await bashComplete('cmdb delete w', shellEnv());
    assert.deepEqual(steps.candidates, [
      'waf/',
      'wanopt/',
      'web-proxy/',
      'webfilter/',
      'wireless-controller.',
      'wireless-controller/',
    ]);
    assert.match(steps.stderr, /compopt -o nospace/);
  });

  it('completes keys from the device, escaped for the line', async (t) => {
    if (!needShells(t, 'bash')) return;
    const env = shellEnv(device);
    assert.deepEqual((await bashComplete(`cmdb get ${TABLE} lab`, env)).candidates, ['lab\\ gateway', 'lab/core']);
    assert.deepEqual((await bashComplete(`cmdb get ${TABLE} 'lab`, env)).candidates, ['lab gateway', 'lab/core']);
    // `:` and `=` are in COMP_WORDBREAKS: readline replaces only what follows the last of them.
    assert.deepEqual((await bashComplete(`cmdb delete ${TABLE} edge:`, env)).candidates, ['a=b']);
  });

  it('completes a field name and an enum value', async (t) => {
    if (!needShells(t, 'bash')) return;
    const field = await bashComplete('cmdb update log.disk/setting --set roll-d', shellEnv());
    assert.deepEqual(field.candidates, ['roll-day=']);
    assert.match(field.stderr, /compopt -o nospace/);
    assert.deepEqual((await bashComplete('cmdb update log.disk/setting --set roll-day=mo', shellEnv())).candidates, [
      'monday',
    ]);
  });

  it("completes a reference's value with the keys of the tables it names, from the device", async (t) => {
    if (!needShells(t, 'bash')) return;
    const env = shellEnv(device);
    assert.deepEqual((await bashComplete('cmdb create firewall/policy --set srcaddr=lan', env)).candidates, [
      'lan-net',
    ]);
    assert.deepEqual(
      (await bashComplete('cmdb update firewall/addrgrp internal-nets --set member+=dmz', env)).candidates,
      ['dmz-net'],
    );
    assert.deepEqual((await bashComplete('cmdb create router/static --set device=port1', env)).candidates, ['port1']);
  });

  it('leaves file names to bash', async (t) => {
    if (!needShells(t, 'bash')) return;
    const dir = bodyFolder();
    const r = await bashComplete(`cmdb create ${TABLE} -f ${dir}/bo`, shellEnv());
    assert.deepEqual(r.candidates, [`${dir}/body one.json`]);
    assert.match(r.stderr, /compopt -o filenames/);
  });

  it('offers nothing, quickly and silently, when the device is unreachable', async (t) => {
    if (!needShells(t, 'bash')) return;
    await assertQuietWhenUnreachable(bashComplete);
  });

  it('inserts what readline should, on a real interactive bash', async (t) => {
    if (!needShells(t, 'bash', 'zsh')) return;
    const env = shellEnv(device);
    assert.equal(await bashReadline(`cmdb get ${TABLE} lab\\ g`, env), `cmdb get ${TABLE} lab\\ gateway `);
    assert.equal(await bashReadline(`cmdb get ${TABLE} 'lab g`, env), `cmdb get ${TABLE} 'lab gateway' `);
    assert.equal(await bashReadline(`cmdb get ${TABLE} lab/`, env), `cmdb get ${TABLE} lab/core `);
    assert.equal(await bashReadline(`cmdb get ${TABLE} edge`, env), `cmdb get ${TABLE} edge:a=b `);
    assert.equal(
      await bashReadline('cmdb update log.disk/setting --set roll-day=mo', env),
      'cmdb update log.disk/setting --set roll-day=monday ',
    );
    assert.equal(await bashReadline('cmdb get wireless-controller.h', env), 'cmdb get wireless-controller.hotspot20/');
    assert.equal(
      await bashReadline('cmdb get wireless-controller.hotspot20/anqp-3', env),
      'cmdb get wireless-controller.hotspot20/anqp-3gpp-cellular ',
    );
  });
});

describe('zsh', () => {
  it('completes a command prefix', async (t) => {
    if (!needShells(t, 'zsh')) return;
    const r = await zshComplete('cmdb tr', shellEnv());
    assert.deepEqual(r.candidates, ['transactions']);
    assert.equal(r.line, 'cmdb transactions ');
  });

  it('completes a table prefix', async (t) => {
    if (!needShells(t, 'zsh')) return;
    const r = await zshComplete('cmdb get firewall.ipm', shellEnv());
    assert.deepEqual(r.candidates, ['firewall.ipmacbinding/setting', 'firewall.ipmacbinding/table']);
    assert.equal(r.line, 'cmdb get firewall.ipmacbinding/');
  });

  it('completes keys from the device and quotes what it inserts', async (t) => {
    if (!needShells(t, 'zsh')) return;
    const env = shellEnv(device);
    assert.deepEqual((await zshComplete(`cmdb get ${TABLE} lab`, env)).candidates, ['lab gateway', 'lab/core']);
    assert.equal((await zshComplete(`cmdb get ${TABLE} lab\\ g`, env)).line, `cmdb get ${TABLE} lab\\ gateway `);
    assert.equal((await zshComplete(`cmdb get ${TABLE} 'lab g`, env)).line, `cmdb get ${TABLE} 'lab gateway' `);
    assert.equal((await zshComplete(`cmdb get ${TABLE} lab/`, env)).line, `cmdb get ${TABLE} lab/core `);
  });

  it('completes a field name (no space after `=`) and an enum value', async (t) => {
    if (!needShells(t, 'zsh')) return;
    const field = await zshComplete('cmdb update log.disk/setting --set roll-d', shellEnv());
    assert.deepEqual(field.candidates, ['roll-day=']);
    assert.equal(field.line, 'cmdb update log.disk/setting --set roll-day=');
    const value = await zshComplete('cmdb update log.disk/setting --set roll-day=mo', shellEnv());
    assert.deepEqual(value.candidates, ['roll-day=monday']);
    assert.equal(value.line, 'cmdb update log.disk/setting --set roll-day=monday ');
  });

  it("completes a reference's value with the keys of the tables it names, from the device", async (t) => {
    if (!needShells(t, 'zsh')) return;
    const env = shellEnv(device);
    const value = await zshComplete('cmdb update firewall/addrgrp internal-nets --set member-=lan', env);
    assert.deepEqual(value.candidates, ['member-=lan-net']);
    assert.equal(value.line, 'cmdb update firewall/addrgrp internal-nets --set member-=lan-net ');
  });

  it('leaves file names to zsh', async (t) => {
    if (!needShells(t, 'zsh')) return;
    const dir = bodyFolder();
    assert.equal(
      (await zshComplete(`cmdb create ${TABLE} --file ${dir}/bo`, shellEnv())).line,
      `cmdb create ${TABLE} --file ${dir}/body\\ one.json `,
    );
  });

  it('offers nothing, quickly and silently, when the device is unreachable', async (t) => {
    if (!needShells(t, 'zsh')) return;
    await assertQuietWhenUnreachable(async (line, env) => {
      const r = await zshComplete(line, env);
      assert.equal(r.line, line, 'the line is left as it was');
      return r;
    });
  });
});

describe('fish', () => {
  it('completes a command prefix', async (t) => {
    if (!needShells(t, 'fish')) return;
    assert.deepEqual((await fishComplete('cmdb tr', shellEnv())).candidates, ['transactions']);
  });

  it('completes a table prefix', async (t) => {
    if (!needShells(t, 'fish')) return;
    assert.deepEqual((await fishComplete('cmdb get firewall.ipm', shellEnv())).candidates, [
      'firewall.ipmacbinding/setting',
      'firewall.ipmacbinding/table',
    ]);
  });

  it('completes keys from the device, typed plain, escaped or quoted', async (t) => {
    if (!needShells(t, 'fish')) return;
    const env = shellEnv(device);
    assert.deepEqual((await fishComplete(`cmdb get ${TABLE} lab`, env)).candidates, ['lab gateway', 'lab/core']);
    assert.deepEqual((await fishComplete(`cmdb get ${TABLE} lab\\ g`, env)).candidates, ['lab gateway']);
    assert.deepEqual((await fishComplete(`cmdb get ${TABLE} 'lab g`, env)).candidates, ['lab gateway']);
  });

  it('completes a field name and an enum value', async (t) => {
    if (!needShells(t, 'fish')) return;
    assert.deepEqual((await fishComplete('cmdb update log.disk/setting --set roll-d', shellEnv())).candidates, [
      'roll-day=',
    ]);
    assert.deepEqual((await fishComplete('cmdb update log.disk/setting --set roll-day=mo', shellEnv())).candidates, [
      'roll-day=monday',
    ]);
  });

  it("completes a reference's value with the keys of the tables it names, from the device", async (t) => {
    if (!needShells(t, 'fish')) return;
    const env = shellEnv(device);
    assert.deepEqual((await fishComplete('cmdb create firewall/policy --set dstaddr=web', env)).candidates, [
      'dstaddr=web-server',
    ]);
  });

  it('leaves file names to fish', async (t) => {
    if (!needShells(t, 'fish')) return;
    const dir = bodyFolder();
    assert.deepEqual((await fishComplete(`cmdb create ${TABLE} -f ${dir}/bo`, shellEnv())).candidates, [
      `${dir}/body one.json`,
    ]);
  });

  it('offers nothing, quickly and silently, when the device is unreachable', async (t) => {
    if (!needShells(t, 'fish')) return;
    await assertQuietWhenUnreachable(fishComplete);
  });
});
