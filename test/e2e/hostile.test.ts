// Whatever a device (or something in front of it) answers, the program ends with the documented exit
// code and a one-line message: never exit 0 with wrong data, never an internal error, never a hang.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { expectCode } from '../helpers/expect.js';
import {
  answers,
  envelope,
  reply,
  startHostileServer,
  type Answer,
  type HostileServer,
} from '../helpers/hostile-server.js';

const TABLE = 'firewall.ipmacbinding/table';
let server: HostileServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startHostileServer();
  env = isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'hostile-test-token' });
});
after(() => server.close());

function run(...args: string[]): Promise<Run> {
  return runInProcess(args, { env, timeoutMs: 20_000 });
}

/** The error is one `cmdb:` line, at most followed by its hint (or one JSON error line), and no stack trace. */
function oneLine(r: Run, streamed = false): void {
  const lines = r.stderr.trimEnd().split('\n');
  if (lines[0]?.startsWith('{')) {
    assert.equal(lines.length, 1, r.stderr);
    const { error } = JSON.parse(lines[0]) as { error: { exit: number; message: string } };
    assert.equal(error.exit, r.code);
    assert.doesNotMatch(error.message, /\n|internal error/);
    if (!streamed) assert.equal(r.stdout, '', 'no data on stdout');
    return;
  }
  assert.match(lines[0] ?? '', /^cmdb: \S/, r.stderr);
  assert.ok(
    lines.length <= 2 && (lines.length === 1 || /^ {2}hint: /.test(lines[1])),
    `one message and a hint:\n${r.stderr}`,
  );
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  if (!streamed) assert.equal(r.stdout, '', 'no data on stdout');
}

/** A sequence of answers, one per request, the last one repeated. */
function sequence(...list: Answer[]): Answer {
  let i = 0;
  return (req, res, socket) => list[Math.min(i++, list.length - 1)](req, res, socket);
}

describe('answers that are not the device JSON: exit 9', () => {
  const cases: [string, Answer][] = [
    ['an HTML page on a 200', answers.html()],
    ['an empty 200', answers.empty()],
    ['a truncated JSON body', answers.truncated()],
    ['a body cut off before its Content-Length', answers.cutOff()],
    ['204 No Content', answers.noContent()],
    ['a 302 redirect to a login page', answers.redirect(302, '<html>moved</html>')],
    ['a 301 redirect carrying an envelope', answers.redirect(301, envelope([{ 'seq-num': 1 }]))],
    ['a 307 redirect with no body', answers.redirect(307)],
    ['the JSON string "hello"', answers.json('hello')],
    ['the JSON array [1,2,3]', answers.json([1, 2, 3])],
    ['the JSON null', answers.json(null)],
    ['a bare number', answers.json(42)],
    ['results: null', answers.results(null)],
    ['results holding null', answers.results([null])],
    ['results holding bare numbers', answers.results([1, 2, 3])],
    ['results nested 30,000 levels deep', answers.deep(30_000)],
    [
      'an object nested 30,000 levels deep in a field',
      reply(
        200,
        envelope([{ 'seq-num': 1, x: '@' }]).replace('"@"', `${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}`),
      ),
    ],
    ['a 500 HTML page', answers.html(500)],
  ];
  for (const [name, answer] of cases) {
    test(name, async () => {
      server.answer(answer);
      for (const format of ['json', 'table']) {
        const r = await run('list', TABLE, '-o', format);
        expectCode(r, 9);
        oneLine(r);
      }
    });
  }

  test('a write answered with something that is not an envelope', async () => {
    for (const answer of [answers.json('hello'), answers.html(), answers.noContent(), answers.redirect(302)]) {
      server.answer(answer);
      const r = await run(
        'create',
        TABLE,
        '--set',
        'seq-num=7',
        '--set',
        'ip=10.0.0.7',
        '--set',
        'mac=00:09:0f:00:00:07',
        '-o',
        'json',
      );
      expectCode(r, 9);
      oneLine(r);
    }
  });
});

describe('HTML bodies on error statuses keep their meaning', () => {
  // The device answers a path it lacks with its JSON: an HTML 404 is something else answering (exit 9).
  for (const [status, code] of [
    [401, 4],
    [403, 5],
    [404, 9],
    [500, 9],
    [502, 9],
  ] as const) {
    test(`HTTP ${status} with an HTML page: exit ${code}`, async () => {
      server.answer(answers.html(status));
      const r = await run('list', TABLE);
      expectCode(r, code);
      oneLine(r);
    });
  }
});

describe('paging that never ends', () => {
  test('list --all stops when the device ignores start and repeats the same page', async () => {
    server.answer(answers.ignoresStart(5));
    const sent = server.received.length;
    const r = await run('list', TABLE, '--all', '--page-size', '5', '-o', 'json');
    expectCode(r, 9, /same|progress|repeat/i);
    // The first page may already be out (list --all streams): the exit code says the rest is missing.
    oneLine(r, true);
    assert.ok(server.received.length - sent <= 3, `stopped after ${server.received.length - sent} pages`);
  });
});

describe('a device that does not answer', () => {
  test('--timeout ends the run: exit 3', async () => {
    server.answer(answers.silent());
    const r = await run('list', TABLE, '--timeout', '1');
    expectCode(r, 3, /within 1s/);
    oneLine(r);
  });
});

describe('time limits are limits', () => {
  /** Headers and the start of an envelope, then more of the body every `everyMs`, never its end. */
  const endless =
    (everyMs: number, chunk: string): Answer =>
    (_req, res, socket) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","results":[');
      const timer = setInterval(() => res.write(chunk), everyMs);
      socket.on('close', () => clearInterval(timer));
    };

  for (const [name, answer] of [
    ['fast', endless(5, '{"seq-num":1},'.repeat(50))],
    ['at 1 byte a second', endless(1000, ' ')],
  ] as const) {
    test(`an answer whose body never ends (${name}) is a timeout: exit 3, not "broke off"`, async () => {
      server.answer(answer);
      const r = await run('list', TABLE, '--timeout', '2');
      expectCode(r, 3, /timed out/);
      assert.doesNotMatch(r.stderr, /broke off/);
      oneLine(r);
    });
  }

  test('the read-back after a write that got no answer is bounded as a whole (2 x --timeout), its tries included', async () => {
    server.answer(answers.silent());
    const sent = server.received.length;
    const r = await run('create', TABLE, '--set', 'seq-num=9', '--set', 'ip=10.0.0.9', '--timeout', '1');
    expectCode(r, 3, /unknown/);
    const reads = server.received.slice(sent).filter((q) => q.method === 'GET');
    // Five tries of 1 s each before; now the read-back ends 2 s after it starts: at most 2 full tries,
    // and a third one cut short.
    assert.ok(reads.length >= 1 && reads.length <= 3, `${reads.length} reads back`);
  });
});

describe('429 on an ordinary request is the rate limit: wait and send again', () => {
  test('two 429s then the answer: exit 0 after three tries', async () => {
    server.answer(
      sequence(
        answers.rateLimited('1'),
        answers.rateLimited(undefined, true),
        answers.results([{ 'seq-num': 1, ip: '10.0.0.1' }]),
      ),
    );
    const sent = server.received.length;
    const r = await run('list', TABLE, '-o', 'json');
    expectCode(r, 0);
    assert.deepEqual(JSON.parse(r.stdout), [{ 'seq-num': 1, ip: '10.0.0.1' }]);
    assert.equal(server.received.length - sent, 3);
    const sentAgain = server.received.slice(sent);
    assert.ok(
      sentAgain.every((q) => q.url === sentAgain[0].url && q.method === 'GET'),
      'the same request each time',
    );
  });

  test('still 429 after five tries: exit 8', async () => {
    server.answer(answers.rateLimited('1', true));
    const sent = server.received.length;
    const r = await run(
      'create',
      TABLE,
      '--set',
      'seq-num=7',
      '--set',
      'ip=10.0.0.7',
      '--set',
      'mac=00:09:0f:00:00:07',
    );
    expectCode(r, 8, /rate|too many requests/i);
    oneLine(r);
    assert.equal(server.received.length - sent, 5);
  });
});
