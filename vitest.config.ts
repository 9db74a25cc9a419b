import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig, type Plugin } from 'vitest/config';

/** The documented local key; tests configure its SHA-256 like a deployment would. */
export const TEST_API_KEY = 'local-dev-key';
const TEST_KEY_HASH = createHash('sha256').update(TEST_API_KEY).digest('hex');
/** A second key, so rate-limit tests can show that limits are per key. */
export const SECOND_TEST_API_KEY = 'second-test-key';
const SECOND_KEY_HASH = createHash('sha256').update(SECOND_TEST_API_KEY).digest('hex');
/** The limit the rate-limit project runs with: small, so a test reaches it in a few requests. */
export const TEST_RATE_LIMIT = 3;
const RATE_LIMIT_TEST = 'test/worker/rate-limit.test.ts';
/** wrangler.toml's ratelimits namespace_id (miniflare 5 requires it when a test overrides the binding). */
const RATE_LIMIT_NAMESPACE = '1001';

/**
 * itty-router ships source maps whose sources point outside its package, and Vite warns once per file per worker
 * project (dozens of lines). Loading its modules without the sourceMappingURL comment silences that; nothing of
 * ours maps into itty-router's sources.
 */
const ittyRouterWithoutSourceMaps: Plugin = {
  name: 'itty-router-without-source-maps',
  enforce: 'pre',
  load(id) {
    if (!/[\\/]node_modules[\\/]itty-router[\\/].*\.mjs$/.test(id)) return null;
    const code = readFileSync(id.replace(/\?.*$/, ''), 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, '');
    return { code, map: null };
  },
};

export default defineConfig({
  test: {
    // The Worker logs one JSON line per request; show logs only for failing tests.
    silent: 'passed-only',
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // test/quality: floors on real benchmark questions; they skip themselves when ../shared is absent.
          include: ['test/unit/**/*.test.ts', 'test/quality/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          ittyRouterWithoutSourceMaps,
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { API_KEY_HASHES: TEST_KEY_HASH },
              // The suite sends thousands of requests with one key: lift the per-key limit here; its own project
              // below runs with a limit small enough to reach.
              ratelimits: { RATE_LIMITER: { namespace_id: RATE_LIMIT_NAMESPACE, simple: { limit: 1_000_000_000, period: 60 } } },
            },
          }),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          exclude: [RATE_LIMIT_TEST],
          // Builds the sample corpus with the real builder, in Node, and hands the artifacts to the workerd tests.
          globalSetup: ['test/setup/build-sample-index.ts'],
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          ittyRouterWithoutSourceMaps,
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { API_KEY_HASHES: `${TEST_KEY_HASH},${SECOND_KEY_HASH}` },
              ratelimits: { RATE_LIMITER: { namespace_id: RATE_LIMIT_NAMESPACE, simple: { limit: TEST_RATE_LIMIT, period: 60 } } },
            },
          }),
        ],
        test: {
          name: 'worker-ratelimit',
          include: [RATE_LIMIT_TEST],
          provide: { rateLimit: TEST_RATE_LIMIT, secondApiKey: SECOND_TEST_API_KEY },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
