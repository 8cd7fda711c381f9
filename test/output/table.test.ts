import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPalette, render, type OutputFormat, type Row, type Shaped } from '../../src/output/index.js';
import { ESC, accessLists, bindings, diskSetting, linesOf, opts, pipe, tty, visibleWidth } from './fixtures.js';

function table(data: Shaped, terminal = tty(200), extra = {}): Promise<string> {
  return render(data, opts('table', terminal, extra));
}

/** Column start offsets of a header line (columns are two spaces apart). */
function cells(line: string): string[] {
  return line.trim().split(/ {2,}/);
}

describe('table: list', () => {
  it('puts the key column first and hides q_* fields', async () => {
    const lines = linesOf(await table({ kind: 'list', rows: bindings() }, tty(200), { keyField: 'seq-num' }));
    assert.deepEqual(cells(lines[0]!), ['seq-num', 'ip', 'mac', 'name', 'status']);
    assert.deepEqual(cells(lines[1]!), ['1', '10.0.0.1', '00:11:22:33:44:55', 'srv1', 'enable']);
    assert.equal(lines.length, 3);
  });

  it('leaves out the header line with headers: false (--no-headers), columns still aligned', async () => {
    const lines = linesOf(
      await table({ kind: 'list', rows: bindings() }, tty(200), { keyField: 'seq-num', headers: false }),
    );
    assert.equal(lines.length, 2);
    assert.deepEqual(cells(lines[0]!), ['1', '10.0.0.1', '00:11:22:33:44:55', 'srv1', 'enable']);
    assert.equal(lines[0]!.indexOf('10.0.0.1'), 'seq-num'.length + 2);
  });

  it('never cuts a whole column (a device address), even past the width; the others give way', async () => {
    const host = 'https://branch-office-0042.region-emea.example.net:10443';
    const rows = [{ name: 'branch-0042', host, auth: 'token', username: 'a-rather-long-administrator-name' }];
    const cut = linesOf(await table({ kind: 'list', rows }, tty(40), { keyField: 'name' }));
    assert.ok(!cut.some((l) => l.includes(host)), 'without whole the address is cut');
    for (const width of [40, 70, 90]) {
      const lines = linesOf(await table({ kind: 'list', rows }, tty(width), { keyField: 'name', whole: ['host'] }));
      assert.equal(cells(lines[1]!)[1], host, `width ${width}`);
    }
  });

  it('shows exactly the --fields columns, q_* included when asked', async () => {
    const lines = linesOf(
      await table({ kind: 'list', rows: bindings() }, tty(200), {
        keyField: 'seq-num',
        fields: ['name', 'q_origin_key'],
      }),
    );
    assert.deepEqual(cells(lines[0]!), ['name', 'q_origin_key']);
    assert.deepEqual(cells(lines[2]!), ['srv2', '2']);
  });

  it('aligns columns two spaces apart with no borders and no trailing spaces', async () => {
    const text = await table({ kind: 'list', rows: bindings() }, tty(200), { keyField: 'seq-num' });
    assert.doesNotMatch(text, /[│─┌┐└┘├┤┬┴┼|+]/);
    const lines = linesOf(text);
    for (const line of lines) assert.equal(line, line.trimEnd());
    assert.equal(lines[0]!.indexOf('ip'), 'seq-num'.length + 2);
    assert.equal(lines[1]!.indexOf('10.0.0.1'), lines[0]!.indexOf('ip'));
    const sparse = linesOf(
      await table({
        kind: 'list',
        rows: [
          { name: 'a', comments: 'x' },
          { name: 'bb', comments: null },
        ],
      }),
    );
    assert.deepEqual(sparse, ['name  comments', 'a     x', 'bb']);
  });

  it('lays out awkward cells exactly: blanks and missing cells at the end trimmed, wide, escaped, nested', async () => {
    const rows: Row[] = [
      { id: 1, q_origin_key: 1, name: 'plain', comments: 'ends in a space ', status: 'enable ' },
      { id: 2, name: 'wide 漢字', comments: 'nbsp at the end\u00a0', status: 'disable\u00a0' },
      { id: 3, name: 'ctrl\u001b[31m', comments: 'tab\tin', status: true },
      { id: 4, name: 'no last', comments: 'x' },
      { id: 5, name: '', comments: null, status: '' },
      { id: 6, name: 'nested', comments: [{ name: 'a' }, { name: 'b' }], status: { k: 'v' } },
      { id: -1.5e21, name: 'ideographic space\u3000', status: 'done\u3000' },
      { id: 8, name: 'é', status: 'déjà' },
      { id: 9, name: 'last', status: 'x' },
      { id: 10, name: 'tab', status: 'x\t' },
    ];
    assert.deepEqual(linesOf(await table({ kind: 'list', rows }, pipe(), { keyField: 'id' })), [
      'id        name                 comments          status',
      '1         plain                ends in a space   enable',
      '2         wide 漢字            nbsp at the end   disable',
      '3         ctrl\\x1b[31m         tab\\tin           true',
      '4         no last              x',
      '5',
      '6         nested               a b               k=v',
      '-1.5e+21  ideographic space　                    done',
      '8         é                                      déjà',
      '9         last                                   x',
      '10        tab                                    x\\t',
    ]);
    assert.deepEqual(linesOf(await table({ kind: 'list', rows }, tty(40), { keyField: 'id' })), [
      'id        name            comments',
      '1         plain           ends in a spa…',
      '2         wide 漢字       nbsp at the e…',
      '3         ctrl\\x1b[31m    tab\\tin',
      '4         no last         x',
      '5',
      '6         nested          a b',
      '-1.5e+21  ideographic s…',
      '8         é',
      '9         last',
      '10        tab',
    ]);
    const notes: string[] = [];
    await table({ kind: 'list', rows }, tty(40), { keyField: 'id', note: (m: string) => notes.push(m) });
    // How to see it is never cut; the names give way first.
    assert.deepEqual(notes, ['1 more column (use --fields or -o yaml)']);
  });

  it('shows nested tables compactly', async () => {
    const rows: Row[] = [
      {
        name: 'grp1',
        member: [
          { name: 'port1', q_origin_key: 'port1' },
          { name: 'port2', q_origin_key: 'port2' },
        ],
        rule: [
          { id: 1, action: 'permit' },
          { id: 2, action: 'deny' },
          { id: 3, action: 'deny' },
        ],
        one: [{ id: 1, action: 'permit' }],
        allowaccess: ['ping', 'https'],
        ref: { id: 4, action: 'deny', q_ref: 1 },
        empty: [],
        none: null,
      },
    ];
    const lines = linesOf(await table({ kind: 'list', rows }, tty(200), { keyField: 'name' }));
    assert.deepEqual(cells(lines[0]!), ['name', 'member', 'rule', 'one', 'allowaccess', 'ref', 'empty', 'none']);
    assert.deepEqual(cells(lines[1]!), ['grp1', 'port1 port2', '3 items', '1 item', 'ping https', 'id=4,action=deny']);
  });

  it('shows access-list rules as a count', async () => {
    const lines = linesOf(await table({ kind: 'list', rows: accessLists() }, tty(200), { keyField: 'name' }));
    assert.deepEqual(cells(lines[0]!), ['name', 'comments', 'rule']);
    assert.deepEqual(cells(lines[1]!), ['acl-web', 'Allow the web servers', '2 items']);
    assert.deepEqual(cells(lines[2]!), ['acl-mgmt', '1 item']);
  });

  it('prints nothing for an empty list', async () => {
    assert.equal(await table({ kind: 'list', rows: [] }), '');
  });

  it('escapes control characters from the device', async () => {
    const text = await table(
      { kind: 'list', rows: [{ name: `evil${ESC}[2J`, comments: 'line1\nline2' }] },
      tty(200, false),
    );
    assert.ok(!text.includes(ESC));
    assert.equal(linesOf(text).length, 2);
    assert.ok(text.includes('evil\\x1b[2J'));
    assert.ok(text.includes('line1\\nline2'));
  });
});

describe('table: fitting the terminal', () => {
  const comment = 'This policy allows the branch offices to reach the data centre web servers over HTTPS only';
  const rows: Row[] = [
    {
      policyid: 1,
      name: 'branch-to-dc',
      srcintf: [{ name: 'port1' }],
      dstintf: [{ name: 'port2' }],
      action: 'accept',
      schedule: 'always',
      comments: comment,
    },
    {
      policyid: 2,
      name: 'dc-to-internet',
      srcintf: [{ name: 'port2' }],
      dstintf: [{ name: 'wan1' }],
      action: 'accept',
      schedule: 'always',
      comments: 'short',
    },
  ];

  it('fits every line into 80 columns, cutting the widest column with …', async () => {
    const text = await table({ kind: 'list', rows }, tty(80), { keyField: 'policyid' });
    const lines = linesOf(text);
    assert.equal(lines.length, 3);
    for (const line of lines) assert.ok(visibleWidth(line) <= 80, `${visibleWidth(line)}: ${line}`);
    assert.ok(lines[1]!.includes('…'));
    assert.ok(!text.includes(comment));
    assert.deepEqual(cells(lines[0]!), ['policyid', 'name', 'srcintf', 'dstintf', 'action', 'schedule', 'comments']);
    assert.ok(lines[1]!.includes('branch-to-dc'), 'short columns are not cut');
    assert.ok(lines[1]!.startsWith('1 '));
  });

  it('shows everything at 200 columns', async () => {
    const text = await table({ kind: 'list', rows }, tty(200), { keyField: 'policyid' });
    for (const line of linesOf(text)) assert.ok(visibleWidth(line) <= 200);
    assert.ok(text.includes(comment));
    assert.ok(!text.includes('…'));
  });

  it('never cuts when piped', async () => {
    const text = await table(
      { kind: 'list', rows },
      { isTTY: false, columns: 40, color: false },
      { keyField: 'policyid' },
    );
    assert.ok(text.includes(comment));
    assert.ok(!text.includes('…'));
  });

  it('drops trailing columns with a note when even narrow columns do not fit', async () => {
    const wide: Row = { 'seq-num': 1 };
    for (let i = 1; i <= 30; i++) wide[`field-number-${i}`] = `value-${i}`;
    const notes: string[] = [];
    const note = (m: string) => notes.push(m);
    const lines = linesOf(await table({ kind: 'list', rows: [wide] }, tty(80), { keyField: 'seq-num', note }));
    assert.equal(lines.length, 2);
    for (const line of lines) assert.ok(visibleWidth(line) <= 80, line);
    const header = cells(lines[0]!);
    assert.equal(header[0], 'seq-num');
    assert.ok(header.length > 3 && header.length < 31);
    for (const name of header) assert.ok(name.length >= 6, `column ${name} cut below 6`);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, new RegExp(`^${31 - header.length} more columns \\(use --fields or -o yaml\\): `));
    // What the note says, with `cmdb: ` before it, fits the terminal too.
    assert.ok(notes[0]!.length + 'cmdb: '.length <= 80, notes[0]);
  });

  it('counts East Asian wide characters as two columns', async () => {
    const comments = '東京データセンターのウェブサーバーへの通信を許可する'.repeat(3);
    const lines = linesOf(await table({ kind: 'list', rows: [{ name: 'tokyo', comments }] }, tty(40)));
    const wide = (line: string) => Array.from(line).reduce((w, ch) => w + (ch.codePointAt(0)! >= 0x3000 ? 2 : 1), 0);
    for (const line of lines) assert.ok(wide(line) <= 40, `${wide(line)}: ${line}`);
    assert.ok(wide(lines[1]!) >= 38, 'the cut cell still fills the line');
  });

  it('keeps a single over-wide column within the terminal', async () => {
    const lines = linesOf(await table({ kind: 'list', rows: [{ comments: 'x'.repeat(300) }] }, tty(80)));
    for (const line of lines) assert.ok(visibleWidth(line) <= 80);
    assert.ok(lines[1]!.endsWith('…'));
  });
});

describe('table: one object', () => {
  it('prints field  value rows, key first, q_* hidden', async () => {
    const object = { ...diskSetting(), q_origin_key: 'x', 'seq-num': 9 };
    const lines = linesOf(await table({ kind: 'object', object }, tty(80), { keyField: 'seq-num' }));
    assert.deepEqual(lines, [
      'seq-num             9',
      'status              enable',
      'max-log-file-size   20',
      'roll-schedule       daily',
      'upload-destination  ftp-server',
      'uploadip            0.0.0.0',
    ]);
  });

  it('shows each entry of a nested table on its own line', async () => {
    const lines = linesOf(await table({ kind: 'object', object: accessLists()[0]! }, tty(80), { keyField: 'name' }));
    assert.deepEqual(lines, [
      'name      acl-web',
      'comments  Allow the web servers',
      'rule      id=1,action=permit,prefix=10.0.0.0 255.0.0.0,exact-match=disable',
      '          id=2,action=deny,prefix=any,exact-match=disable',
    ]);
  });

  it('wraps long values to the terminal instead of cutting them', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const lines = linesOf(await table({ kind: 'object', object: { name: 'a', comments: words } }, tty(60)));
    assert.ok(lines.length > 2);
    for (const line of lines) assert.ok(visibleWidth(line) <= 60, line);
    const value = lines
      .slice(1)
      .map((l) => l.slice('comments  '.length))
      .join(' ');
    assert.equal(value, words);
  });

  it('prints only the --fields rows', async () => {
    const lines = linesOf(
      await table({ kind: 'object', object: diskSetting() }, tty(80), { fields: ['uploadip', 'status'] }),
    );
    assert.deepEqual(lines, ['uploadip  0.0.0.0', 'status    enable']);
  });
});

describe('table: several VDOMs', () => {
  it('prints one section per VDOM', async () => {
    const text = await table(
      { kind: 'byVdom', vdoms: { root: bindings(), dmz: [], global: diskSetting() } },
      tty(200),
      { keyField: 'seq-num' },
    );
    const lines = linesOf(text);
    assert.equal(lines[0], '== vdom: root ==');
    assert.deepEqual(cells(lines[1]!), ['seq-num', 'ip', 'mac', 'name', 'status']);
    assert.equal(lines.indexOf('== vdom: dmz =='), 5);
    assert.equal(lines[6], '(no objects)');
    assert.equal(lines[8], '== vdom: global ==');
    assert.equal(lines[9], 'status              enable');
  });

  it('prints nothing when every VDOM is empty', async () => {
    assert.equal(await table({ kind: 'byVdom', vdoms: { root: [], dmz: [] } }), '');
  });
});

describe('table: writes', () => {
  it('prints the confirming line', async () => {
    const text = await table({
      kind: 'write',
      result: { status: 'success', mkey: 7, vdom: 'root' },
      message: 'Created dlp/filepattern 7 in vdom root',
    });
    assert.equal(text, 'Created dlp/filepattern 7 in vdom root\n');
  });
});

describe('colour', () => {
  const shapes: Shaped[] = [
    { kind: 'list', rows: accessLists() },
    { kind: 'object', object: accessLists()[0]! },
    { kind: 'byVdom', vdoms: { root: accessLists(), dmz: [] } },
    { kind: 'write', result: { status: 'success', mkey: 1 }, message: 'Updated router/access-list acl-web' },
    { kind: 'raw', body: { results: [] } },
  ];
  const formats: OutputFormat[] = ['table', 'json', 'yaml', 'ndjson', 'csv'];

  it('writes no ANSI escape at all when colour is off', async () => {
    for (const format of formats) {
      for (const data of shapes) {
        for (const terminal of [tty(80, false), pipe()]) {
          const text = await render(data, { format, terminal, keyField: 'name' });
          assert.ok(!text.includes(ESC), `${format} ${data.kind}`);
        }
      }
    }
  });

  it('makes table headers bold when colour is on', async () => {
    await loadPalette();
    const list = await render(
      { kind: 'list', rows: bindings() },
      opts('table', tty(80, true), { keyField: 'seq-num' }),
    );
    assert.ok(linesOf(list)[0]!.startsWith(`${ESC}[1mseq-num${ESC}[22m`));
    assert.ok(!linesOf(list)[1]!.includes(ESC), 'rows stay plain');
    const byVdom = await render({ kind: 'byVdom', vdoms: { root: bindings() } }, opts('table', tty(80, true)));
    assert.ok(byVdom.startsWith(`${ESC}[1m== vdom: root ==`));
  });

  it('keeps coloured tables within the terminal', async () => {
    const wide: Row = { name: 'x'.repeat(50), comments: 'y'.repeat(100) };
    const text = await render({ kind: 'list', rows: [wide] }, opts('table', tty(80, true)));
    for (const line of linesOf(text)) assert.ok(visibleWidth(line) <= 80);
  });
});

describe('table: the key column and --with-meta', () => {
  const rows: Row[] = [
    {
      name: 'branch-office-north-east-primary-uplink',
      q_ref: 3,
      comments: 'a long comment that has to be cut somewhere',
      rule: [],
    },
    { name: 'hq', q_ref: 0, comments: 'short', rule: [] },
  ];

  it('never cuts the key column: the other columns are cut, then dropped', async () => {
    const narrow = linesOf(await table({ kind: 'list', rows }, tty(60), { keyField: 'name' }));
    assert.equal(cells(narrow[1]!)[0], 'branch-office-north-east-primary-uplink');
    assert.match(narrow[1]!, /…/, 'comments is cut instead');
    for (const line of narrow) assert.ok(visibleWidth(line) <= 60, line);
    const notes: string[] = [];
    const tiny = linesOf(
      await table({ kind: 'list', rows }, tty(30), { keyField: 'name', note: (m: string) => notes.push(m) }),
    );
    assert.deepEqual(tiny, ['name', 'branch-office-north-east-primary-uplink', 'hq']);
    assert.match(notes.join('\n'), /^2 more columns/);
  });

  it('shows q_ref after the key when asked (--with-meta), in lists and single objects', async () => {
    const lines = linesOf(await table({ kind: 'list', rows }, tty(200), { keyField: 'name', showMeta: ['q_ref'] }));
    assert.deepEqual(cells(lines[0]!), ['name', 'q_ref', 'comments', 'rule']);
    assert.deepEqual(cells(lines[1]!).slice(0, 2), ['branch-office-north-east-primary-uplink', '3']);
    const hidden = linesOf(await table({ kind: 'list', rows }, tty(200), { keyField: 'name' }));
    assert.ok(!cells(hidden[0]!).includes('q_ref'));
    const object = linesOf(
      await table({ kind: 'object', object: rows[1]! }, tty(200), { keyField: 'name', showMeta: ['q_ref'] }),
    );
    assert.ok(
      object.some((l) => /^q_ref\s+0$/.test(l)),
      object.join('\n'),
    );
  });
});
