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
    }
    interface GlobalProps {
      mainModule: typeof import('./index');
    }
  }
}

export type Env = Cloudflare.Env;
