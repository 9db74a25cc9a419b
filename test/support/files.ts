import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
