/**
 * The second cache layer, between the per-isolate artifact cache and R2: the Workers Cache API of the colo. Every
 * isolate of a colo shares it, so a cold isolate finds the directory, issuer tables, term blocks and shards that any
 * other isolate there has read, without an R2 read.
 *
 * Why it is safe: only objects of a published version go in, under their versioned key (`sp500/<version>/<file>`),
 * and a version's objects never change once published (a new build is a new version). Nothing request-scoped is
 * stored, and the KV pointer and the manifest's choice of version are never cached here. What comes out is verified
 * by its seal like a fresh R2 read; a copy that fails is deleted and R2 is read instead.
 *
 * The Cache API works only on a Worker served from a custom domain; on workers.dev and in previews its calls do
 * nothing (every read is then a miss), and locally miniflare implements it.
 */
export interface EdgeCache {
  /** The cached bytes of an object, or null on a miss (or when the cache cannot be reached). */
  get(key: string): Promise<Uint8Array | null>;
  /** Stores verified bytes after the response (through waitUntil), so a put never delays the request. */
  put(key: string, bytes: Uint8Array): void;
  delete(key: string): Promise<void>;
}

/** The cache's name in the colo; the keys are URLs on a reserved host, since the Cache API keys on URLs. */
const CACHE_NAME = 'filing-evidence-index';
const keyUrl = (key: string) => `https://index.invalid/${key}`;

/** A year: the objects are immutable, so only the colo's own eviction removes them. */
const MAX_AGE_SECONDS = 365 * 24 * 3600;

export function workersEdgeCache(storage: CacheStorage, ctx: Pick<ExecutionContext, 'waitUntil'>): EdgeCache {
  let opened: Promise<Cache> | undefined;
  const cache = () => (opened ??= storage.open(CACHE_NAME));
  return {
    async get(key) {
      try {
        const hit = await (await cache()).match(keyUrl(key));
        return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
      } catch {
        return null; // the edge cache is an optimisation: any failure falls through to R2
      }
    },
    put(key, bytes) {
      const response = new Response(bytes, {
        headers: {
          'content-type': 'application/octet-stream',
          'cache-control': `public, max-age=${MAX_AGE_SECONDS}, immutable`,
        },
      });
      ctx.waitUntil(
        cache()
          .then((c) => c.put(keyUrl(key), response))
          .catch(() => undefined),
      );
    },
    async delete(key) {
      try {
        await (await cache()).delete(keyUrl(key));
      } catch {
        // nothing to do: the next read goes to R2 either way
      }
    },
  };
}
