import { resolve } from 'node:path';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import type { PublishTarget } from '../../index-builder/publish/publish';
import { bindingsTarget } from '../../index-builder/publish/storage';

/** wrangler.toml's bucket name and KV namespace id: local state is keyed by them. */
export const R2_BUCKET = 'filing-evidence-index';
export const KV_NAMESPACE_ID = 'filing-evidence-pointers';

/**
 * The local R2/KV state `wrangler dev --persist-to <dir>` serves (<dir>/v3), opened with Miniflare's own bindings and
 * wrapped by the same adapter the publish CLI puts over wrangler's bindings. Tests use Miniflare directly rather than
 * wrangler's getPlatformProxy: one workerd per test file, disposed by the test.
 */
export async function openLocalBindings(
  persistTo: string,
  sleep?: (ms: number) => Promise<void>,
): Promise<{ target: PublishTarget; mf: Miniflare; dispose(): Promise<void> }> {
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
  return { target: bindingsTarget(bucket as never, kv as never, sleep), mf, dispose: () => mf.dispose() };
}
