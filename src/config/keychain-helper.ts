// One keychain operation in a process of its own, run by KeychainStore (secrets.ts). The request comes
// on stdin (a secret never goes in argv), the answer goes to stdout as one JSON line.
//
// Why a process: the binding connects to D-Bus synchronously while it builds an entry. A bus that
// accepts the connection and never answers blocks the calling thread for good: a timer in the CLI
// never fires, and even a worker thread keeps the process from exiting. A child can be killed.
import { AsyncEntry } from '@napi-rs/keyring';

export interface KeychainRequest {
  op: 'get' | 'set' | 'delete' | 'getMany';
  service: string;
  account: string;
  secret?: string;
  /** getMany: every account to read, in one process (several devices in one run). */
  accounts?: string[];
}

export type KeychainAnswer =
  | { ok: true; value: string | boolean | null | Record<string, string | null> }
  | { ok: false; error: string };

async function perform(req: KeychainRequest): Promise<string | boolean | null | Record<string, string | null>> {
  if (req.op === 'getMany') {
    const accounts = req.accounts ?? [];
    const values = await Promise.all(
      accounts.map((account) =>
        new AsyncEntry(req.service, account, { linux: { store: 'secret-service' } }).getPassword(),
      ),
    );
    return Object.fromEntries(accounts.map((account, i) => [account, values[i] ?? null]));
  }
  // Not the keytar-compatible functions of '@napi-rs/keyring/keytar': they build entries with the
  // default store, which on Linux falls back silently to the kernel keyring when no Secret Service
  // runs; secrets there vanish at logout or reboot. Pinned to the Secret Service, a missing one is an
  // error the user sees (and macOS and Windows ignore the option).
  const entry = new AsyncEntry(req.service, req.account, { linux: { store: 'secret-service' } });
  if (req.op === 'get') return entry.getPassword();
  if (req.op === 'set') {
    await entry.setPassword(req.secret ?? '');
    return true;
  }
  return entry.deleteCredential();
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

async function main(): Promise<void> {
  let answer: KeychainAnswer;
  try {
    answer = { ok: true, value: await perform(JSON.parse(await readStdin()) as KeychainRequest) };
  } catch (err) {
    answer = { ok: false, error: (err as Error).message ?? String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}

await main();
