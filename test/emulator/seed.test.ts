import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allTables } from '../../src/catalogue/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { validateObject } from '../../src/emulator/validate.js';

describe('demo seed', async () => {
  const [a, b] = await Promise.all([startEmulator(), startEmulator()]);
  const snapshot = (emu: typeof a) =>
    allTables().map((t) => [t.path, emu.objects(t.path, 'root'), emu.objects(t.path, 'dmz')]);
  const dataA = snapshot(a);
  const dataB = snapshot(b);
  await Promise.all([a.close(), b.close()]);

  it('is deterministic', () => {
    assert.deepEqual(dataA, dataB);
  });

  it("puts objects in every keyed table of SPEC.md's in both VDOMs and settings in every singleton", () => {
    for (const [path, root, dmz] of dataA) {
      const table = allTables().find((t) => t.path === path)!;
      if (!table.spec && !table.singleton) continue;
      if (table.singleton) {
        assert.ok(
          !Array.isArray(root) && Object.keys(root as object).length === Object.keys(table.fields).length,
          `${path}`,
        );
      } else {
        assert.ok((root as unknown[]).length > 0, `${path} root`);
        assert.ok((dmz as unknown[]).length > 0, `${path} dmz`);
      }
    }
  });

  it('is valid against the field schema', () => {
    for (const [path, root, dmz] of dataA) {
      const table = allTables().find((t) => t.path === path)!;
      for (const object of [root, dmz].flat())
        assert.doesNotThrow(() => validateObject(table.fields, object), `${path}: ${JSON.stringify(object)}`);
    }
  });

  it('has awkward keys on purpose and differs between VDOMs', () => {
    const names = (vdom: number) =>
      (dataA.find(([path]) => path === 'router/access-list')![vdom] as { name: string }[]).map((o) => o.name);
    assert.ok(names(1).includes('10.0.0.0/8'));
    assert.ok(names(1).includes('mgmt nets'));
    assert.notDeepEqual(names(1), names(2));
  });
});
