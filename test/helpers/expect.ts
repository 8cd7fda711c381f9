import assert from 'node:assert/strict';
import { isolatedEnv, type Run } from './cli.js';

/** A user with an empty config and no reachable keychain (logins use --insecure-storage). */
export function keychainlessUser(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/cmdb-test-bus', ...extra });
}

/** The exit code (and stderr) of a run, with the whole run in the message when it differs. */
export function expectCode(r: Run, code: number, stderr?: RegExp): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  if (stderr) assert.match(r.stderr, stderr);
}
