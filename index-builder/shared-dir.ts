import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const REPO_ROOT = resolve(import.meta.dirname, '..');

/**
 * The shared data folder (`../shared` beside the repository), or null when it is absent (a fresh clone): evaluations
 * and the tests that use real filings skip then. SHARED_DIR overrides; a git worktree one level deeper
 * (`/work/wt/<name>`) also finds it two levels up.
 */
export function sharedDir(): string | null {
  const candidates = [process.env.SHARED_DIR, resolve(REPO_ROOT, '../shared'), resolve(REPO_ROOT, '../../shared')];
  for (const c of candidates) if (c && existsSync(resolve(c, 'corpus'))) return resolve(c);
  return null;
}
