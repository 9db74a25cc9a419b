import { createHash } from 'node:crypto';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/** The documented local key; tests configure its SHA-256 like a deployment would. */
export const TEST_API_KEY = 'local-dev-key';
const TEST_KEY_HASH = createHash('sha256').update(TEST_API_KEY).digest('hex');

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
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: { bindings: { API_KEY_HASHES: TEST_KEY_HASH } },
          }),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          // Builds the sample corpus with the real builder, in Node, and hands the artifacts to the workerd tests.
          globalSetup: ['test/setup/build-sample-index.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
