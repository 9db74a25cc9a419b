import { resolve } from 'node:path';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import type { PublishTarget } from './publish';

/** The binding names and ids of wrangler.toml; local state is keyed by them, so they must match. */
export const R2_BUCKET = 'filing-evidence-index';
export const KV_NAMESPACE_ID = 'filing-evidence-pointers';
export const DEFAULT_PERSIST_DIR = '.wrangler/state';

/**
 * Opens the same local R2/KV state that `wrangler dev --persist-to <dir>` serves (wrangler keeps it under
 * <dir>/v3). Miniflare's own bindings write it, so no wrangler subprocess per file is needed.
 */
export async function openLocalStorage(persistTo = DEFAULT_PERSIST_DIR): Promise<{ target: PublishTarget; dispose(): Promise<void> }> {
  // miniflare 5 takes one persistence root for every resource; wrangler passes `<persist-to>/v3`.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: 'export default { fetch() { return new Response(null, { status: 404 }); } }',
      r2Buckets: { BUCKET: R2_BUCKET },
      kvNamespaces: { KV: KV_NAMESPACE_ID },
      resourcePersistencePath: resolve(persistTo, 'v3'),
      cf: false,
    }),
  );
  const bucket = await mf.getR2Bucket('BUCKET');
  const kv = await mf.getKVNamespace('KV');
  return {
    target: {
      async hasObject(key, bytes) {
        const head = await bucket.head(key);
        return head !== null && head.size === bytes;
      },
      async putObject(key, bytes) {
        // Miniflare wants a plain Uint8Array, not a Node Buffer (DESIGN.md section 6).
        await bucket.put(key, new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
      },
      async putPointer(key, value) {
        await kv.put(key, value);
      },
    },
    dispose: () => mf.dispose(),
  };
}
