// Files the reader refuses: each a usage error (exit 2) naming the file and the line, found without
// recursion on the file's depth, a hang, or reading past the size limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTable } from '../../src/catalogue/index.js';
import { UsageError } from '../../src/errors.js';
import { MAX_CONF_LENGTH, MAX_NESTING, readConf } from '../../src/syntax/index.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

/** Reading `text` fails with a usage error whose message is `fw.conf:<line>: <message>`. */
function refused(text: string, line: number, message: string | RegExp, options: { maxLength?: number } = {}): void {
  assert.throws(
    () => readConf(text, 'fw.conf', { lookup: findTable, ...options }),
    (err: unknown) => {
      assert.ok(err instanceof UsageError, String(err));
      assert.equal(err.exitCode, 2);
      const prefix = `fw.conf:${line}: `;
      assert.ok(err.message.startsWith(prefix), `${err.message} starts with ${prefix}`);
      const rest = err.message.slice(prefix.length);
      if (typeof message === 'string') assert.equal(rest, message);
      else assert.match(rest, message);
      return true;
    },
  );
}

describe('blocks', () => {
  test('a block left open names the line that opened it', () => {
    refused(
      lines('config firewall address', '    edit "a"', '        set color 1'),
      2,
      'edit "a" is not closed: next missing',
    );
    refused(
      lines('config firewall address', '    edit "a"', '    next'),
      1,
      'config firewall address is not closed: end missing',
    );
    refused(
      lines('config vdom', 'edit root', 'config firewall address', 'end'),
      2,
      'edit "root" is not closed: next missing',
    );
  });

  test('next, end and edit where no block takes them', () => {
    refused(lines('config firewall address', 'end', 'end'), 3, 'end without config');
    refused(lines('config firewall address', '    next', 'end'), 2, 'next without edit');
    refused(lines('edit "a"'), 1, 'edit outside a config block');
    refused(
      lines('config firewall address', '    edit "a"', '    edit "b"'),
      3,
      'edit inside edit "a" (line 2): next missing before it',
    );
  });

  test('set outside an edit block, or outside any block', () => {
    refused(lines('config firewall address', '    set color 1', 'end'), 2, 'set outside an edit block');
    refused(lines('set color 1'), 1, 'set outside a config block');
    refused(lines('config vdom', 'set color 1', 'end'), 2, 'set outside an edit block');
    refused(
      lines('config log disk setting', '    edit 1', '    next', 'end'),
      2,
      /^edit in log\.disk\/setting, a table of one object/,
    );
    refused(
      lines('config router access-list', '    edit "a"', '        config rule', '            delete 1'),
      4,
      /^delete inside a sub-table \(rule\) is not supported/,
    );
  });

  test('blocks nested past the limit, 100,000 deep, stop at the first too deep, at once', () => {
    refused(
      'config firewall address\n'.repeat(100_000),
      MAX_NESTING + 1,
      `blocks nested more than ${MAX_NESTING} deep`,
    );
    refused(
      `config router access-list\n${'    edit 1\n        config rule\n'.repeat(50_000)}`,
      MAX_NESTING + 1,
      `blocks nested more than ${MAX_NESTING} deep`,
    );
  });
});

describe('statements', () => {
  test('an unknown verb', () => {
    refused(
      lines('config firewall address', '    edit "a"', '        show', '    next', 'end'),
      3,
      "unknown command 'show'",
    );
    refused(lines('execute backup config'), 1, "unknown command 'execute'");
  });

  test('a quote left open names the line where it opened', () => {
    refused(
      lines('config firewall address', '    edit "a"', '        set comment "never closed', '    next', 'end'),
      3,
      'a value opened with " here is not closed',
    );
    refused(lines('config firewall address', "    edit 'a"), 2, "a value opened with ' here is not closed");
  });

  test('arguments a verb cannot take', () => {
    refused(
      lines('config firewall address', '    edit "a"', '        set color'),
      3,
      'set color has no value (unset color returns it to its default)',
    );
    refused(lines('config firewall address', '    edit a b'), 2, 'edit takes one key (quote a key with spaces)');
    refused(lines('config firewall address', '    rename a b'), 2, 'rename takes <old> to <new>');
    refused(lines('config firewall policy', '    move 1 above 2'), 2, 'move takes <key> before|after <key>');
    refused(lines('config firewall address', '    end now'), 2, 'end takes nothing after it');
  });

  test('values the fields cannot hold, and fields the table has not', () => {
    const object = (...body: string[]) => lines('config firewall address', '    edit "a"', ...body, '    next', 'end');
    refused(object('        set color blue'), 3, `'color' is a number, not "blue"`);
    refused(
      object('        append comment "more"'),
      3,
      'append comment: comment is not a list of firewall/address "a"',
    );
    refused(
      lines('config firewall policy', '    edit first', '    next', 'end'),
      2,
      'firewall/policy is keyed by a number (policyid), not "first"',
    );
    refused(
      object('        set subnett 10.0.0.0 255.0.0.0'),
      3,
      `firewall/address "a" has no field 'subnett' (did you mean 'subnet'?)`,
    );
    refused(
      lines('config router access-list', '    edit "a"', '        set rule 1', '    next', 'end'),
      3,
      /^rule is a sub-table of router\/access-list "a"/,
    );
  });
});

describe('size', () => {
  test('a file past the limit names the line where the limit falls', () => {
    refused(lines('config firewall address', 'end', '# padding'), 3, /^the file goes on past 30 characters/, {
      maxLength: 30,
    });
    refused(`config firewall address\nend\n${'#'.repeat(MAX_CONF_LENGTH)}`, 3, /^the file goes on past \d+ characters/);
  });
});
