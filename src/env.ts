/** Bindings and vars of the Worker (wrangler.toml). */
export interface Env {
  INDEX_BUCKET: R2Bucket;
  INDEX_KV: KVNamespace;
  /** Comma-separated SHA-256 hex digests of the accepted API keys (a secret in production, .dev.vars locally). */
  API_KEY_HASHES?: string;
  /** Byte budget of the per-isolate artifact cache. Defaults to 64 MiB. */
  ARTIFACT_CACHE_BYTES?: string;
}
