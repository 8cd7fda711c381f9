// Device data that holds escape and control characters (C0, DEL, C1 such as U+009B, a one-byte CSI)
// never reaches a terminal raw: every format shows them, and json/yaml/ndjson stay the same data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.js';
import { isolatedEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { expectCode } from '../helpers/expect.js';
import { answers, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { terminalIO } from '../helpers/tty.js';
import { parse as parseYaml } from 'yaml';

const TABLE = 'firewall.ipmacbinding/table';
const NASTY = {
  'seq-num': 1,
  name: 'red\u001b[31mALERT\u001b]0;owned\u0007',
  comment: 'csi\u009b2Jdel\u007fnul\u0000bell\u0007',
  ip: '10.0.0.1',
};
/** Anything a terminal acts on, apart from the newline and tab that formats use themselves. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: HostileServer;
let env: NodeJS.ProcessEnv;
before(async () => {
  server = await startHostileServer();
  server.answer(answers.results([NASTY]));
  env = isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'controls-test-token' });
});
after(() => server.close());

describe('control characters in device data', () => {
  for (const format of ['table', 'csv']) {
    test(`${format} on a terminal shows them escaped`, async () => {
      const io = terminalIO();
      const code = await main(['list', TABLE, '-o', format, '--no-color'], io, env);
      assert.equal(code, 0, io.err());
      assert.doesNotMatch(io.out(), RAW_CONTROL, JSON.stringify(io.out()));
      assert.match(io.out(), /\\x1b\[31mALERT/);
      assert.match(io.out(), /csi\\x9b2J/);
    });
  }

  test('json and ndjson escape them and keep the data exact', async () => {
    for (const format of ['json', 'ndjson']) {
      const r = await runInProcess(['list', TABLE, '-o', format], { env });
      expectCode(r, 0);
      assert.doesNotMatch(r.stdout, RAW_CONTROL, JSON.stringify(r.stdout));
      const first = format === 'json' ? JSON.parse(r.stdout)[0] : JSON.parse(r.stdout.split('\n')[0]);
      assert.deepEqual(first, NASTY);
    }
  });

  test('yaml escapes them and keeps the data exact', async () => {
    const r = await runInProcess(['list', TABLE, '-o', 'yaml'], { env });
    expectCode(r, 0);
    assert.doesNotMatch(r.stdout, RAW_CONTROL, JSON.stringify(r.stdout));
    assert.deepEqual(parseYaml(r.stdout), [NASTY]);
  });

  test('csv into a file keeps the data as the device sent it', async () => {
    const r = await runInProcess(['list', TABLE, '-o', 'csv'], { env });
    expectCode(r, 0);
    assert.ok(r.stdout.includes(NASTY.comment));
  });

  test('the --verbose dump of bodies shows them escaped', async () => {
    const r = await runInProcess(['list', TABLE, '-o', 'json', '--verbose'], { env });
    expectCode(r, 0);
    assert.match(r.stderr, /ALERT/);
    assert.doesNotMatch(r.stderr, RAW_CONTROL, JSON.stringify(r.stderr));
  });
});

describe('control characters in device errors', () => {
  test("the device's cli_error is shown escaped, in words and in the JSON error line", async () => {
    const body = JSON.stringify({
      status: 'error',
      http_status: 500,
      error: -651,
      cli_error: 'bad\u001b[2J value\u009b1m',
    });
    server.answer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(body);
    });
    try {
      for (const format of [[], ['-o', 'json']]) {
        const r = await runInProcess(['list', TABLE, ...format], { env });
        // 6.4 answers a refused value (-651) with HTTP 500: the request was rejected (exit 7).
        expectCode(r, 7);
        assert.match(r.stderr, /bad/);
        assert.doesNotMatch(r.stderr, RAW_CONTROL, JSON.stringify(r.stderr));
      }
    } finally {
      server.answer(answers.results([NASTY]));
    }
  });
});
