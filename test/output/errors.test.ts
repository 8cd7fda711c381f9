import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatError, formatNotice, formatWarning, loadPalette } from '../../src/output/index.js';
import { ESC } from './fixtures.js';

const notFound = {
  exit: 6,
  status: 404,
  code: -3,
  message: 'firewall/address "web" not found in vdom root',
  hint: 'list the table with: cmdb list firewall/address',
};

describe('formatError', () => {
  it('prints one JSON line when json was asked for', () => {
    const text = formatError(notFound, { json: true, color: true });
    assert.equal(
      text,
      '{"error":{"exit":6,"status":404,"code":-3,"message":"firewall/address \\"web\\" not found in vdom root","hint":"list the table with: cmdb list firewall/address"}}\n',
    );
  });

  it('has null status and code, and a null hint, when the device was not reached', () => {
    const text = formatError(
      { exit: 3, status: null, code: null, message: 'connection refused' },
      { json: true, color: false },
    );
    assert.deepEqual(JSON.parse(text), {
      error: { exit: 3, status: null, code: null, message: 'connection refused', hint: null },
    });
    assert.equal(text.split('\n').length, 2);
  });

  it('adds cli_error when the device sent one', () => {
    const text = formatError(
      { ...notFound, exit: 7, status: 500, code: -5, cliError: 'entry already exists\nline 2' },
      { json: true, color: false },
    );
    const parsed = JSON.parse(text) as { error: Record<string, unknown> };
    assert.equal(parsed.error.cli_error, 'entry already exists\nline 2');
    assert.equal(text.split('\n').length, 2);
  });

  it('prints message, device text and hint for a person', () => {
    const text = formatError({ ...notFound, cliError: 'entry not found' }, { json: false, color: false });
    assert.equal(
      text,
      'cmdb: firewall/address "web" not found in vdom root\n' +
        '  device said: entry not found\n' +
        '  hint: list the table with: cmdb list firewall/address\n',
    );
  });

  it('prints only the message line when there is no hint', () => {
    assert.equal(
      formatError({ exit: 1, status: null, code: null, message: 'boom', hint: null }, { json: false, color: false }),
      'cmdb: boom\n',
    );
  });

  it('colours the prefix red and the hint dim only with colour', async () => {
    await loadPalette();
    const coloured = formatError(notFound, { json: false, color: true });
    assert.ok(coloured.startsWith(`${ESC}[31mcmdb:${ESC}[39m `));
    assert.ok(coloured.includes(`${ESC}[2m  hint:`));
    assert.ok(!formatError(notFound, { json: false, color: false }).includes(ESC));
  });

  it('never passes terminal escapes from the device through', () => {
    const text = formatError(
      { exit: 7, status: 400, code: -651, message: 'invalid value', cliError: `bad${ESC}[2Jvalue` },
      { json: false, color: false },
    );
    assert.ok(!text.includes(ESC));
    assert.ok(text.includes('bad\\x1b[2Jvalue'));
  });
});

describe('formatWarning and formatNotice', () => {
  it('prefix warnings and notices', () => {
    assert.equal(
      formatWarning('TLS verification is off (--insecure)', false),
      'cmdb: warning: TLS verification is off (--insecure)\n',
    );
    assert.equal(formatNotice('No objects in firewall/address', false), 'cmdb: No objects in firewall/address\n');
  });

  it('colour only when asked', () => {
    assert.ok(formatWarning('w', true).includes(`${ESC}[33m`));
    assert.ok(formatNotice('n', true).includes(`${ESC}[2m`));
    assert.ok(!formatWarning('w', false).includes(ESC));
    assert.ok(!formatNotice('n', false).includes(ESC));
  });
});
