// `cmdb edit` with a scripted EDITOR, `update --set 'f+=a' / 'f-=a'`, and `get` with several keys,
// through the built CLI against the emulator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, isolatedEnv, json } from '../helpers/cli.js';
import { startMeddler, type Meddler } from '../helpers/meddler.js';
import { cmdbOnTerminal } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const ACL = 'router/access-list';
const ICAP = 'icap/profile';
const writesSince = (since: number) => emu.requests.slice(since).filter((r) => r.method !== 'GET');
const find = (table: string, name: string, vdom = 'root') =>
  (emu.objects(table, vdom) as Obj[]).find((o) => o.name === name)!;

/** Another administrator: a write straight to the device, not through the CLI under test. */
async function otherAdmin(method: string, path: string, body: Obj): Promise<void> {
  const res = await fetch(`${emu.url}/api/v2/cmdb/${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

/**
 * A scripted editor: each time it is opened it keeps a copy of what it was shown (seen-1.yaml,
 * seen-2.yaml...) and replaces the document with the next of `saves` (a function of what it saw).
 */
function scriptedEditor(saves: string[]): { editor: string; seen: (n: number) => string; opened: () => number } {
  const dir = tempDir('cmdb-editor-');
  saves.forEach((text, i) => {
    writeFileSync(join(dir, `save-${i + 1}.txt`), text);
  });
  const script = join(dir, 'editor.mjs');
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync, existsSync } from 'node:fs';
const dir = ${JSON.stringify(dir)};
let n = 1;
while (existsSync(dir + '/seen-' + n + '.yaml')) n++;
const shown = readFileSync(process.argv[2], 'utf8');
writeFileSync(dir + '/seen-' + n + '.yaml', shown);
if (process.env.EDITOR_HOOK) await import(process.env.EDITOR_HOOK);
const save = dir + '/save-' + n + '.txt';
if (existsSync(save)) {
  const text = readFileSync(save, 'utf8');
  writeFileSync(process.argv[2], text.startsWith('s/') ? shown.replace(new RegExp(text.split('/')[1], 'm'), text.split('/')[2]) : text);
}
`,
  );
  return {
    editor: `${process.execPath} ${script}`,
    seen: (n) => readFileSync(join(dir, `seen-${n}.yaml`), 'utf8'),
    opened: () => [1, 2, 3, 4, 5].filter((n) => existsSync(join(dir, `seen-${n}.yaml`))).length,
  };
}

const edit = (editor: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  cmdb(['edit', ...args], { env: { ...env, EDITOR: editor, ...extra } });

describe('cmdb edit', () => {
  test('the object as YAML with a header; on save one PUT of only the changed fields', async () => {
    const ed = scriptedEditor(['s/^comments: .*$/comments: edited in vi']);
    const since = emu.requests.length;
    const r = await edit(ed.editor, [ACL, '10.0.0.0/8', '--vdom', 'root', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const shown = ed.seen(1);
    assert.match(shown, /^# cmdb edit: router\/access-list name "10\.0\.0\.0\/8" in vdom root$/m);
    assert.match(shown, /^# {3}rule\[\]\.action: permit, deny$/m, 'enum values of nested fields');
    assert.match(shown, /^name: 10\.0\.0\.0\/8$/m);
    assert.match(shown, /^comments: RFC 1918 class A$/m);
    assert.doesNotMatch(shown, /q_origin_key/);
    const writes = writesSince(since);
    assert.equal(writes.length, 1);
    assert.equal(writes[0].method, 'PUT');
    assert.equal(writes[0].path, '/api/v2/cmdb/router/access-list/10.0.0.0%2F8');
    assert.deepEqual(JSON.parse(writes[0].body), { comments: 'edited in vi' });
    assert.equal(find(ACL, '10.0.0.0/8').comments, 'edited in vi');
    assert.equal(json<Obj>(r).status, 'success');
  });

  test('saved unchanged: nothing sent, exit 0', async () => {
    const ed = scriptedEditor([]);
    const since = emu.requests.length;
    const r = await edit(ed.editor, [ACL, 'deny-all']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /no changes to router\/access-list deny-all: nothing was sent/);
    assert.deepEqual(writesSince(since), []);
  });

  test('a document that does not parse or fit the table is reopened with the error on top', async () => {
    const ed = scriptedEditor([
      'comments: [unclosed\n',
      's/^comments: .*$/comments: ok',
      'name: deny-all\nrule:\n  - id: 1\n    action: maybe\n',
      's/^# error:.*$/comments: second fix',
    ]);
    // The second save fixes the syntax; a second edit then has a value outside the enum.
    const since = emu.requests.length;
    const first = await edit(ed.editor, [ACL, 'deny-all']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(ed.opened(), 2);
    assert.match(ed.seen(2), /^# error: .*\n/);
    assert.match(ed.seen(2), /comments: \[unclosed/, "the user's text is kept under the error");
    assert.deepEqual(JSON.parse(writesSince(since)[0].body), { comments: 'ok' });

    const ed2 = scriptedEditor(['rule:\n  - id: 1\n    action: maybe\n', 's/action: maybe/action: deny']);
    const second = await edit(ed2.editor, [ACL, 'deny-all']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(ed2.seen(2), /^# error: .*'rule\.0\.action' must be one of permit, deny, not "maybe"/);
  });

  test('an empty file aborts; an error saved again without a fix stops; nothing sent (exit 2)', async () => {
    const since = emu.requests.length;
    const empty = await edit(scriptedEditor(['# only a comment\n\n']).editor, [ACL, 'deny-all']);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /edit cancelled: the file was empty; nothing was sent/);
    const stuck = scriptedEditor(['no: [way\n']);
    const r = await edit(stuck.editor, [ACL, 'deny-all']);
    assert.equal(r.code, 2);
    assert.equal(stuck.opened(), 2);
    assert.match(r.stderr, /the document still has an error/);
    assert.deepEqual(writesSince(since), []);
  });

  test('the object changed on the device meanwhile: exit 7 and nothing sent, unless --force', async () => {
    const hook = join(tempDir('cmdb-hook-'), 'hook.mjs');
    writeFileSync(
      hook,
      `await fetch(${JSON.stringify(`${emu.url}/api/v2/cmdb/router/access-list/deny-all?vdom=root`)}, { method: 'PUT', headers: { authorization: 'Bearer ${emu.token}', 'content-type': 'application/json' }, body: JSON.stringify({ comments: 'by someone else' }) });\n`,
    );
    const since = emu.requests.length;
    const r = await edit(
      scriptedEditor(['s/^comments: .*$/comments: mine']).editor,
      [ACL, 'deny-all', '--vdom', 'root'],
      { EDITOR_HOOK: hook },
    );
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /router\/access-list deny-all changed on the device since it was read: nothing was sent/);
    assert.match(r.stderr, /--force/);
    assert.deepEqual(
      writesSince(since).map((w) => JSON.parse(w.body)),
      [{ comments: 'by someone else' }],
      'only the other administrator wrote',
    );

    const forced = await edit(
      scriptedEditor(['s/^comments: .*$/comments: mine']).editor,
      [ACL, 'deny-all', '--vdom', 'root', '--force'],
      { EDITOR_HOOK: hook },
    );
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(find(ACL, 'deny-all').comments, 'mine');
  });

  test('another object of the table changing meanwhile does not stop the edit', async () => {
    const hook = join(tempDir('cmdb-hook-'), 'hook.mjs');
    writeFileSync(
      hook,
      `await fetch(${JSON.stringify(`${emu.url}/api/v2/cmdb/router/access-list/mgmt%20nets?vdom=root`)}, { method: 'PUT', headers: { authorization: 'Bearer ${emu.token}', 'content-type': 'application/json' }, body: JSON.stringify({ comments: 'elsewhere' }) });\n`,
    );
    const r = await edit(
      scriptedEditor(['s/^comments: .*$/comments: unaffected']).editor,
      [ACL, 'deny-all', '--vdom', 'root'],
      { EDITOR_HOOK: hook },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(find(ACL, 'deny-all').comments, 'unaffected');
  });

  test('a singleton, --dry-run, and vi without a terminal', async () => {
    const ed = scriptedEditor(['s/^status: enable$/status: disable']);
    const since = emu.requests.length;
    const dry = await edit(ed.editor, ['log.disk/setting', '--vdom', 'dmz', '--dry-run', '-o', 'json']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(ed.seen(1), /^# cmdb edit: log\.disk\/setting in vdom dmz$/m);
    assert.match(ed.seen(1), /^# {3}roll-day: sunday, monday, .* \(several, space-separated\)$/m);
    assert.deepEqual(json(dry), [
      { method: 'PUT', path: '/api/v2/cmdb/log.disk/setting', query: 'vdom=dmz', body: { status: 'disable' } },
    ]);
    assert.deepEqual(writesSince(since), []);
    const real = await edit(scriptedEditor(['s/^status: enable$/status: disable']).editor, [
      'log.disk/setting',
      '--vdom',
      'dmz',
    ]);
    assert.equal(real.code, 0, real.stderr);
    assert.equal((emu.objects('log.disk/setting', 'dmz') as Obj).status, 'disable');

    const noEditor = await cmdb(['edit', ACL, 'deny-all'], { env });
    assert.equal(noEditor.code, 2);
    assert.match(noEditor.stderr, /stdin is not a terminal, so cmdb cannot open vi/);
  });
});

describe("update --set 'field+=...' and 'field-=...'", () => {
  test('named list members: appended in the order given, present ones kept once; removed by name', async () => {
    const names = () => (find(ICAP, 'icap-av')['respmod-forward-rules'] as Obj[]).map((e) => e.name);
    assert.deepEqual(names(), ['skip-images']);
    const since = emu.requests.length;
    const add = await cmdb(
      ['update', ICAP, 'icap-av', '--set', 'respmod-forward-rules+=skip-video,skip-images,skip-audio', '-o', 'json'],
      { env },
    );
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual(names(), ['skip-images', 'skip-video', 'skip-audio']);
    const put = writesSince(since);
    assert.equal(put.length, 1);
    const sent = JSON.parse(put[0].body) as Obj;
    assert.deepEqual(Object.keys(sent), ['respmod-forward-rules'], 'only the changed field');
    assert.equal(
      (sent['respmod-forward-rules'] as Obj[])[0].host,
      'cdn.example.com',
      'existing entries are sent whole',
    );
    assert.doesNotMatch(put[0].body, /q_origin_key/);

    const remove = await cmdb(['update', ICAP, 'icap-av', '--set', 'respmod-forward-rules-=skip-video', '-o', 'json'], {
      env,
    });
    assert.equal(remove.code, 0, remove.stderr);
    assert.deepEqual(names(), ['skip-images', 'skip-audio']);
    assert.equal((find(ICAP, 'icap-av')['respmod-forward-rules'] as Obj[])[0].host, 'cdn.example.com');
  });

  test('multiple option fields; nothing to change: nothing sent, exit 0', async () => {
    const methods = () => String(find(ICAP, 'icap-av').methods).split(' ').sort();
    const add = await cmdb(['update', ICAP, 'icap-av', '--set', 'methods+=get,put', '-o', 'json'], { env });
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual(methods(), ['get', 'post', 'put']);
    const since = emu.requests.length;
    for (const set of ['methods+=post', 'methods-=trace']) {
      const r = await cmdb(['update', ICAP, 'icap-av', '--set', set], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /nothing to change/);
    }
    assert.deepEqual(writesSince(since), []);
    const remove = await cmdb(
      ['update', ICAP, 'icap-av', '--set', 'methods-=get,post', '--set', 'preview=disable', '-o', 'json'],
      { env },
    );
    assert.equal(remove.code, 0, remove.stderr);
    assert.deepEqual(methods(), ['put']);
    assert.deepEqual(JSON.parse(writesSince(since)[0].body), { preview: 'disable', methods: 'put' });
  });

  test('refused before sending: a field that is no list, a value outside the enum', async () => {
    const since = emu.requests.length;
    const scalar = await cmdb(['update', ICAP, 'icap-av', '--set', 'preview+=x'], { env });
    assert.equal(scalar.code, 2);
    assert.match(scalar.stderr, /'preview' is not a list of named members or a multi-value option/);
    const bad = await cmdb(['update', ICAP, 'icap-av', '--set', 'methods+=bogus'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"bogus"/);
    assert.deepEqual(writesSince(since), []);
  });

  test('the object changed between the read and the write: exit 7, nothing sent', async () => {
    let meddled = false;
    const meddler: Meddler = await startMeddler(emu.url, async (req) => {
      if (!meddled && req.url?.includes('action=revision')) {
        meddled = true;
        await otherAdmin('PUT', 'icap/profile/icap-av?vdom=root', { methods: 'options' });
      }
    });
    try {
      const since = emu.requests.length;
      const r = await cmdb(['update', ICAP, 'icap-av', '--set', 'methods+=head', '--vdom', 'root'], {
        env: { ...env, CMDB_HOST: meddler.url },
      });
      assert.ok(meddled, 'the revision was asked before the write');
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr, /icap\/profile icap-av changed on the device since it was read: nothing was sent/);
      assert.deepEqual(
        writesSince(since).map((w) => JSON.parse(w.body)),
        [{ methods: 'options' }],
      );
    } finally {
      await meddler.close();
    }
  });

  test('--dry-run reads the object and prints the whole new list', async () => {
    const since = emu.requests.length;
    const r = await cmdb(
      ['update', ICAP, 'icap-av', '--set', 'methods+=trace', '--vdom', 'root', '--dry-run', '-o', 'table'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^PUT \/api\/v2\/cmdb\/icap\/profile\/icap-av\?vdom=root \{"methods":"options trace"\}\n$/);
    assert.deepEqual(writesSince(since), []);
  });
});

describe('get with several keys', () => {
  test('a list of the objects found, an error per missing key, exit 6', async () => {
    const r = await cmdb(['get', ACL, 'deny-all', 'no-such', '10.0.0.0/8', '--vdom', 'root', '-o', 'json'], { env });
    assert.equal(r.code, 6);
    assert.deepEqual(
      json<Obj[]>(r).map((o) => o.name),
      ['deny-all', '10.0.0.0/8'],
    );
    const errors = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error: Obj });
    assert.equal(errors.length, 1);
    assert.equal(errors[0].error.exit, 6);
    assert.match(String(errors[0].error.message), /no-such/);
    const all = await cmdb(['get', ACL, 'deny-all', '10.0.0.0/8', '--vdom', 'root', '-o', 'table'], { env });
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^name\s/);
    assert.equal(all.stdout.trim().split('\n').length, 3);
  });
});

describe('tables on a terminal', () => {
  test('the key column is never cut; --with-meta shows q_ref after it', async () => {
    const long = 'branch-office-north-east-primary-uplink';
    emu.populate(ACL, 'dmz', [
      { name: long, comments: 'a comment long enough that it has to be cut on a narrow terminal' },
    ]);
    const r = await cmdbOnTerminal(['list', ACL, '--vdom', 'dmz', '--with-meta'], '', env, { columns: 60 });
    assert.equal(r.code, 0, r.stdout);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^name\s+q_ref\s+comments/);
    const row = lines.find((l) => l.startsWith(long));
    assert.ok(row, r.stdout);
    assert.match(row, new RegExp(`^${long}\\s+0\\s+a comment.*…`));
    const q = new URLSearchParams(emu.requests.at(-1)!.query);
    assert.equal(q.get('with_meta'), '1');
  });
});
