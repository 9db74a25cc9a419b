import type { ShardInput } from '../../index-format/shard-layout';

/** A shard's builder input of n plain statements, with `overrides` (columns of the same length). */
export function shardInput(n: number, overrides: Partial<ShardInput> = {}): ShardInput {
  const dim = 8;
  return {
    id: 'BIG-FY2024',
    texts: Array.from({ length: n }, (_, i) => `s${i}`),
    kind: new Array(n).fill('sentence'),
    status: new Array(n).fill('FACT'),
    metric: new Uint8Array(n),
    agree: new Array(n).fill([]),
    disagree: new Array(n).fill([]),
    edges: new Array(n).fill([]),
    terms: [],
    postOffsets: Uint32Array.from([0]),
    postDocs: new Uint32Array(0),
    postTfs: new Uint8Array(0),
    docLen: new Uint16Array(n).fill(1),
    dim,
    vectors: new Int8Array(n * dim),
    source: new Array(n).fill(0),
    page: new Array(n).fill(1),
    offset: new Uint32Array(n),
    length: new Uint32Array(n),
    ...overrides,
  };
}
