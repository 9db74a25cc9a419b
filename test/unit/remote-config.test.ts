import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteConfig } from '../../index-builder/storage';
import { tempDirs } from '../support/temp-dirs';

const newDir = tempDirs('fers-remote-config-');

describe('the config a remote publish opens its bindings with (index-builder/storage.ts)', () => {
  it('marks every index binding remote and leaves out main and the static assets, and wrangler accepts it', async () => {
    const dir = newDir();
    copyFileSync('wrangler.toml', join(dir, 'wrangler.toml'));
    const path = remoteConfig(join(dir, 'wrangler.toml'));
    const text = readFileSync(path, 'utf8');
    expect(text).not.toMatch(/^\s*main\s*=/m);
    expect(text).not.toMatch(/^\s*(\[assets\]|run_worker_first|directory\s*=)/m);
    // Three environments, two index bindings each; the other tables are kept.
    expect(text.match(/^binding = "(INDEX_BUCKET|INDEX_KV)"\nremote = true$/gm)).toHaveLength(6);
    expect(text).toContain('[observability]');
    expect(text).toContain('[[env.production.ratelimits]]');
    // Opened locally (no account here): wrangler reads the file and gives the bindings.
    const { getPlatformProxy } = await import('wrangler');
    const proxy = await getPlatformProxy<{ INDEX_BUCKET: unknown; INDEX_KV: unknown }>({
      configPath: path,
      persist: { path: join(dir, 'state') },
      remoteBindings: false,
    });
    try {
      expect(proxy.env.INDEX_BUCKET).toBeDefined();
      expect(proxy.env.INDEX_KV).toBeDefined();
    } finally {
      await proxy.dispose();
    }
  });
});
