import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { BuildResult } from '../../index-builder/build';

/** Every file below `dir`, keyed by its relative path: for byte-for-byte comparisons of two builds. */
export function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out.set(prefix + e.name, readFileSync(join(d, e.name)));
    }
  };
  walk(dir, '');
  return out;
}

/** Two builds gave the same version and the same files, byte for byte. */
export function expectSameArtifacts(a: BuildResult, b: BuildResult): void {
  expect(a.version).toBe(b.version);
  const fa = filesOf(a.dir);
  const fb = filesOf(b.dir);
  expect([...fa.keys()].sort()).toEqual([...fb.keys()].sort());
  for (const [name, bytes] of fa) expect(bytes.equals(fb.get(name)!), name).toBe(true);
}
