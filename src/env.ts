/**
 * Bindings and vars of the Worker, as declared in wrangler.toml. Declared on `Cloudflare.Env` (the shape
 * `wrangler types` generates) so `import { env } from 'cloudflare:workers'` in tests sees the same type.
 */
declare global {
  namespace Cloudflare {
    interface Env {
      INDEX_BUCKET: R2Bucket;
      INDEX_KV: KVNamespace;
      /** Comma-separated SHA-256 hex digests of accepted API keys (a secret in production, .dev.vars locally). */
      API_KEY_HASHES?: string;
      /** Byte budget of the per-isolate artifact cache. Defaults to 64 MiB. */
      ARTIFACT_CACHE_BYTES?: string;
      /**
       * `request`: each request gets an empty artifact cache of its own (a benchmark of the cold path); else per
       * isolate.
       */
      ARTIFACT_CACHE_SCOPE?: string;
      /**
       * Per-API-key rate limiter (`[[ratelimits]]`). Absent: no limit (fails open, logged as rate_limit=no_binding).
       */
      RATE_LIMITER?: RateLimit;
      /** The limiter's period in seconds (10 or 60), sent as Retry-After on 429; must match `simple.period`. */
      RATE_LIMIT_PERIOD_SECONDS?: string;
      /**
       * Lifetime of the isolate's memo of the KV version pointer, in seconds (default 10; 0 = read KV every request).
       */
      POINTER_TTL_SECONDS?: string;
      /** `off` bypasses the Cache API layer in front of R2 (src/adapters/edge-cache.ts); anything else uses it. */
      EDGE_CACHE?: string;
      /** `whole` reads shards as whole objects (the slow twin of range reads, docs/RANGE-READS.md); else by range. */
      SHARD_READS?: string;
    }
  }
}

export type Env = Cloudflare.Env;
