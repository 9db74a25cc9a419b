// The Worker's hnswlib-wasm instance. The only module that imports the .wasm (a CompiledWasm module under
// wrangler): everything else reaches the wasm through hnswRuntime().
import wasm from '../../generated/hnswlib/hnswlib.wasm';
import { loadHnswlib, type HnswLib } from '../../index-format/hnsw';

/** Cache arena name of the wasm heap (see ArtifactCache.setArena): graphs live inside it. */
export const HNSW_ARENA = 'hnswlib-wasm-heap';

/** Initial wasm linear memory of the build: paid once per isolate on the first graph, never returned. */
export const HNSW_MIN_HEAP_BYTES = 16 * 1024 * 1024;

// One instance per isolate, created on first use: nothing runs at module scope (workerd forbids some of it at
// startup and it would cost every cold start, graph or not).
let runtime: HnswLib | undefined;

/**
 * The isolate's hnswlib instance. Check-then-set, like the artifact cache: no request awaits another request's
 * promise. Two cold requests may both instantiate; the first to finish is kept and the other instance is dropped
 * before any graph is read into it (its memory is garbage collected).
 */
export async function hnswRuntime(): Promise<HnswLib> {
  if (runtime) return runtime;
  const lib = await loadHnswlib(wasm);
  runtime ??= lib;
  return runtime;
}
