import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTable, type TableDef } from '../../src/catalogue/index.js';
import { readBodies, streamNdjsonBodies, typeSetValue, type BodyOptions } from '../../src/request/body.js';
import { UsageError } from '../../src/errors.js';
import { captureIO, offlineContext } from '../helpers/io.js';
import { tempDir } from '../helpers/temp.js';

const table = (path: string) => findTable(path) as TableDef;
const dir = tempDir('cmdb-body-');

test('--set values are typed by the field schema', () => {
  assert.equal(typeSetValue(table('firewall.ipmacbinding/table'), 'seq-num', '3'), 3);
  assert.equal(typeSetValue(table('firewall.ipmacbinding/table'), 'ip', '10.0.0.1'), '10.0.0.1');
  assert.equal(typeSetValue(table('dlp/filepattern'), 'name', '0123'), '0123');
});

test('a list field takes JSON, or a comma list for the naming field', () => {
  const acl = table('router/access-list');
  assert.deepEqual(typeSetValue(acl, 'rule', '[{"id":1,"action":"permit"}]'), [{ id: 1, action: 'permit' }]);
  const withName = Object.entries(acl.fields).find(([, f]) => f.type === 'array' && f.items && 'name' in f.items);
  if (withName) assert.deepEqual(typeSetValue(acl, withName[0], 'a,b'), [{ name: 'a' }, { name: 'b' }]);
});

test('bad --set values are usage errors naming the field', () => {
  assert.throws(() => typeSetValue(table('firewall.ipmacbinding/table'), 'seq-num', 'three'), /integer/);
  assert.throws(
    () => typeSetValue(table('dlp/filepattern'), 'nmae', 'x'),
    (e: unknown) => e instanceof UsageError && /did you mean 'name'/.test(e.message),
  );
});

test('-f, then --data, then each --set merge field by field', async () => {
  const file = join(dir, 'body.yaml');
  writeFileSync(file, 'id: 7\nname: from-file\ncomment: keep\n');
  const ctx = offlineContext();
  const { bodies, many } = await readBodies(
    ctx.io.stdin,
    table('dlp/filepattern'),
    { file, data: '{"name":"from-data"}', set: ['name=from-set'] },
    true,
  );
  assert.equal(many, false);
  assert.deepEqual(bodies, [{ id: 7, name: 'from-set', comment: 'keep' }]);
});

test('a JSON array or NDJSON file is several bodies; meta fields are dropped', async () => {
  const file = join(dir, 'many.ndjson');
  writeFileSync(file, '{"id":1,"name":"a","q_origin_key":1}\n{"id":2,"name":"b"}\n');
  const { bodies, many } = await readBodies(offlineContext().io.stdin, table('dlp/filepattern'), { file }, true);
  assert.equal(many, true);
  assert.deepEqual(bodies, [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
});

test('stdin with -f -', async () => {
  const io = captureIO({ stdin: '{"id": 9, "name": "stdin"}\n' });
  const { bodies } = await readBodies(
    offlineContext({}, {}, io).io.stdin,
    table('dlp/filepattern'),
    { file: '-' },
    true,
  );
  assert.deepEqual(bodies, [{ id: 9, name: 'stdin' }]);
});

test('every invalid body is a usage error before anything is sent', async () => {
  const ctx = offlineContext();
  const t = table('dlp/filepattern');
  const bad: [object, RegExp][] = [
    [{ data: '{"id":' }, /not valid JSON/],
    [{ data: '[1]' }, /must be a JSON object/],
    [{ set: ['bogus=1'] }, /not a field of dlp\/filepattern/],
    [{ set: ['noequals'] }, /invalid --set/],
    [{ data: '{"id":"seven"}' }, /'id' must be an integer/],
    [{ data: '{"id":99999999999}' }, /between/],
    [{ data: `{"name":"${'x'.repeat(100)}"}` }, /maximum is/],
    [{}, /nothing to send/],
  ];
  for (const [opts, message] of bad) {
    await assert.rejects(
      readBodies(ctx.io.stdin, t, opts, true),
      (e: unknown) => e instanceof UsageError && e.exitCode === 2 && message.test(e.message),
      JSON.stringify(opts),
    );
  }
  const withEnum = Object.entries(table('log.disk/setting').fields).find(([, f]) => f.enum);
  assert.ok(withEnum);
  await assert.rejects(
    readBodies(ctx.io.stdin, table('log.disk/setting'), { set: [`${withEnum[0]}=maybe`] }, false),
    /must be one of/,
  );
});

test('a broken YAML file names the line', async () => {
  const file = join(dir, 'broken.yaml');
  writeFileSync(file, 'id: 1\nname: [unclosed\n');
  await assert.rejects(readBodies(offlineContext().io.stdin, table('dlp/filepattern'), { file }, true), /line \d+/);
});

test('an NDJSON file streams with the bodies and the errors readBodies gives; anything else is left to readBodies', async () => {
  const t = table('dlp/filepattern');
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const good = write('good.ndjson', '{"id":1,"name":"a","q_origin_key":1}\r\n\n  {"id":2,"name":"b"}  \n{"id":3}\n');
  const cases: [string, BodyOptions][] = [
    ['plain', { file: good }],
    ['--data and --set', { file: good, data: '{"comment":"d","name":"x"}', set: ['name=s'] }],
    ['bad --data', { file: good, data: '{' }],
    ['--data not an object', { file: good, data: '[1]' }],
    ['bad --set', { file: good, set: ['bogus=1'] }],
    [
      'the second element does not fit',
      {
        file: write(
          'typo.ndjson',
          '{"id":1,"name":"a"}\n{"id":2,"nmae":"b"}\n{"id":3,"name":"' + 'x'.repeat(200) + '"}\n',
        ),
      },
    ],
    [
      'an empty element after one that does not fit',
      { file: write('empty.ndjson', '{"id":"one"}\n{"q_origin_key":2}\n') },
    ],
  ];
  for (const [name, opts] of cases) {
    const whole = await readBodies(offlineContext().io.stdin, t, opts, true).catch((e: Error) => e);
    const streamed = await streamNdjsonBodies(t, opts).catch((e: Error) => e);
    if (whole instanceof Error) {
      assert.ok(streamed instanceof Error, name);
      assert.equal(streamed.message, whole.message, name);
      continue;
    }
    assert.ok(streamed && !(streamed instanceof Error), name);
    const bodies: unknown[] = [];
    for await (const body of streamed.bodies()) bodies.push(body);
    assert.equal(streamed.count, whole.bodies.length, name);
    assert.deepEqual(bodies, whole.bodies, name);
  }
  const notStreamed: [string, BodyOptions][] = [
    ['one line', { file: write('one.ndjson', '{"id":1,"name":"a"}\n') }],
    ['a JSON array', { file: write('array.json', '[{"id":1,"name":"a"},\n{"id":2,"name":"b"}]\n') }],
    ['YAML', { file: write('list.yaml', '- {id: 1, name: a}\n- {id: 2, name: b}\n') }],
    ['a line that does not parse', { file: write('broken.ndjson', '{"id":1,"name":"a"}\n{"id":2,\n') }],
    ['a missing file', { file: join(dir, 'missing.ndjson') }],
    ['stdin', { file: '-' }],
  ];
  for (const [name, opts] of notStreamed) assert.equal(await streamNdjsonBodies(t, opts), null, name);
});

test('a multi-value option takes a comma or space list of its options, sent space-separated', () => {
  const disk = table('log.disk/setting');
  assert.equal(typeSetValue(disk, 'roll-day', 'monday,tuesday'), 'monday tuesday');
  assert.equal(typeSetValue(disk, 'roll-day', 'monday tuesday'), 'monday tuesday');
  assert.equal(typeSetValue(disk, 'roll-day', ' sunday, saturday '), 'sunday saturday');
  assert.throws(
    () => typeSetValue(disk, 'roll-day', 'monday,someday'),
    (e: unknown) => e instanceof UsageError && /'someday' is not one of sunday, monday/.test(e.message),
  );
  assert.equal(typeSetValue(table('ips/custom'), 'location', 'client,server'), 'client server');
});

test('a multi-value option in a body is checked value by value; a list of them is joined', async () => {
  const disk = table('log.disk/setting');
  const io = captureIO();
  const { bodies } = await readBodies(
    offlineContext({}, {}, io).io.stdin,
    disk,
    { data: '{"roll-day": ["monday", "friday"]}', set: ['uploadtype=traffic,event'] },
    false,
  );
  assert.deepEqual(bodies, [{ 'roll-day': 'monday friday', uploadtype: 'traffic event' }]);
  await assert.rejects(
    readBodies(offlineContext({}, {}, io).io.stdin, disk, { data: '{"roll-day": "monday funday"}' }, false),
    (e: unknown) =>
      e instanceof UsageError &&
      /'roll-day' must be one of .* \(several, separated by spaces\), not "funday"/.test(e.message),
  );
});
