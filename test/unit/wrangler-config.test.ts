import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_readConfig as readConfig } from 'wrangler';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../support/source-code';
import { tempDirs } from '../support/temp-dirs';

/** `wrangler deploy --dry-run` (bundles and checks the config; needs no account and no network). */
function dryRun(env: string | undefined, outdir: string) {
  const args = ['deploy', '--dry-run', '--outdir', outdir, ...(env ? ['--env', env] : [])];
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      'node_modules/.bin/wrangler',
      args,
      { env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_ENV: '', NO_COLOR: '1' }, timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** 200 characters from the middle of Swagger UI's bundle: found in the Worker's bundle only if it were bundled. */
const SWAGGER_UI_SAMPLE = (() => {
  const bundle = readFileSync('generated/docs/swagger-ui-bundle.js.txt', 'utf8');
  return bundle.slice(bundle.length / 2, bundle.length / 2 + 200);
})();
const ENVS = { staging: 'filing-evidence-index-staging', production: 'filing-evidence-index-production' } as const;
const newDir = tempDirs('fers-dry-run-');

describe('wrangler.toml', () => {
  for (const env of [undefined, 'staging', 'production'] as const) {
    it.concurrent(`deploys (--dry-run) ${env ? `--env ${env}` : 'at the top level'}, with that environment's \
bucket`, async () => {
      const out = newDir();
      const r = await dryRun(env, out);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toContain('--dry-run: exiting now.');
      expect(r.output).toContain(`env.INDEX_BUCKET (${env ? ENVS[env] : 'filing-evidence-index'})`);
      expect(r.output).toMatch(/env\.RATE_LIMITER \(600 requests\/60s\)/);
      expect(existsSync(join(out, 'index.js'))).toBe(true);
      // Workers' limit on the compressed upload: 3 MB on the Free plan (10 MB on Paid). Swagger UI's files are
      // modules of their own, which the bundle imports only dynamically (src/routes/docs.ts, on its first request).
      const gzipKiB = Number(/Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(r.output)?.[1]);
      expect(gzipKiB).toBeGreaterThan(100);
      expect(gzipKiB).toBeLessThan(3 * 1000 * (1000 / 1024));
      const bundle = readFileSync(join(out, 'index.js'), 'utf8');
      expect(bundle).not.toContain(SWAGGER_UI_SAMPLE);
      expect(bundle).toMatch(/\bimport\("\.\/[0-9a-f]+-swagger-ui-bundle\.js\.txt"\)/);
      expect(bundle).not.toMatch(/^import .*swagger-ui/m);
      expect(readdirSync(out).filter((f) => f.endsWith('-swagger-ui-bundle.js.txt'))).toHaveLength(1);
    });
  }

  it("names Swagger UI's modules in one file, src/routes/docs.ts, and only in import() calls", () => {
    const naming = typeScriptFiles('src').filter((f) => readFileSync(f, 'utf8').includes('generated/docs/'));
    expect(naming).toEqual(['src/routes/docs.ts']);
    const mentions = readFileSync('src/routes/docs.ts', 'utf8').match(/.*generated\/docs\/.*/g) ?? [];
    expect(mentions.length).toBeGreaterThanOrEqual(2);
    for (const line of mentions) expect(line).toMatch(/\bimport\('\.\.\/\.\.\/generated\/docs\/[^']+\.txt'\)/);
  });

  it('gives each environment its own bindings and vars, with logs sampled and the CPU limit set', () => {
    const configs = [undefined, 'staging', 'production'].map((env) => readConfig({ config: 'wrangler.toml', env }));
    const unique = (pick: (c: (typeof configs)[number]) => unknown) => new Set(configs.map(pick)).size;
    expect(unique((c) => c.r2_buckets[0]?.bucket_name)).toBe(3);
    expect(unique((c) => c.kv_namespaces[0]?.id)).toBe(3);
    expect(unique((c) => c.ratelimits[0]?.namespace_id)).toBe(3);
    for (const c of configs) {
      expect(c.observability).toEqual({ enabled: true, head_sampling_rate: 1 });
      expect(c.limits?.cpu_ms).toBeGreaterThan(0);
      // Vars are not inherited: each environment states them, and the 429's Retry-After matches the limiter's period.
      expect(Object.keys(c.vars).sort()).toEqual([
        'ARTIFACT_CACHE_BYTES',
        'POINTER_TTL_SECONDS',
        'RATE_LIMIT_PERIOD_SECONDS',
      ]);
      expect(c.vars.RATE_LIMIT_PERIOD_SECONDS).toBe(String(c.ratelimits[0]?.simple.period));
    }
  });
});
