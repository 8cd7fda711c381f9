#!/usr/bin/env node
// Empties dist/ before a build, so that a module renamed or removed in src/ leaves no stale copy that
// the tests (which read the compiled tree) or the bundle could still find.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
