import { createHash } from 'node:crypto';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

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
 * workerd fetches a test file's modules one by one from Vite, again for every file (each gets a fresh runtime):
 * fast-check alone is some 200 modules. Pre-bundled, each package is one module, as wrangler's own bundle has it.
 * Bundling also drops itty-router's source maps, whose sources point outside its package (Vite warned about them
 * once per file).
 */
const workerDeps = {
  optimizer: { ssr: { enabled: true, include: ['fast-check', '@cfworker/json-schema', 'itty-router'] } },
};

export default defineConfig({
  test: {
    // The Worker logs one JSON line per request; show logs only for failing tests.
    silent: 'passed-only',
    // Two test files at a time, whatever the core count: Vitest's default (cores - 1) runs every file one after the
    // other on a 2-core machine, while much of a file's time is spent waiting on a child process (wrangler, workerd,
    // a loopback server). The slowest files run first (Vitest orders by the durations of the last run).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // test/quality: floors on real benchmark questions; they skip themselves when ../shared is absent.
          include: ['test/unit/**/*.test.ts', 'test/quality/**/*.test.ts'],
          testTimeout: 60_000,
          // Builds of the sample corpus in beforeAll take seconds alone and longer on a loaded machine.
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { API_KEY_HASHES: TEST_KEY_HASH },
              // The suite sends thousands of requests with one key: lift the per-key limit here; its own project
              // below runs with a limit small enough to reach.
              ratelimits: {
                RATE_LIMITER: { namespace_id: RATE_LIMIT_NAMESPACE, simple: { limit: 1_000_000_000, period: 60 } },
              },
            },
          }),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          exclude: [RATE_LIMIT_TEST],
          deps: workerDeps,
          // Builds the sample corpus with the real builder, in Node, and hands the artifacts to the workerd tests.
          globalSetup: ['test/setup/build-sample-index.ts'],
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { API_KEY_HASHES: `${TEST_KEY_HASH},${SECOND_KEY_HASH}` },
              ratelimits: {
                RATE_LIMITER: { namespace_id: RATE_LIMIT_NAMESPACE, simple: { limit: TEST_RATE_LIMIT, period: 60 } },
              },
            },
          }),
        ],
        test: {
          name: 'worker-ratelimit',
          include: [RATE_LIMIT_TEST],
          deps: workerDeps,
          provide: { rateLimit: TEST_RATE_LIMIT, secondApiKey: SECOND_TEST_API_KEY },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
