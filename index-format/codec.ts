import { ArtifactFormatError, decodeArtifact, encodeArtifact, FORMAT_VERSION, requireSection } from './container';
import {
  NO_VECTOR,
  type ArtifactRef,
  type Directory,
  type FileList,
  type IssuerTable,
  type Manifest,
  type TermBlock,
} from './types';
import { ANALYZER_VERSION } from './tokenize';
// Type only: a value import would pull in the generated wasm glue, and this module is imported by the whole
// builder, which must be able to say "run npm install" when generated/ is missing (index-builder/vectors/graphs.ts).
import type { HnswHeader } from './hnsw';

// ---------- shard (laid out for range reads) ----------
export { decodeShard, encodeShard, type ShardInput } from './shard-layout';

// ---------- directory and issuer tables ----------
export function encodeDirectory(d: Directory): Uint8Array {
  return encodeArtifact('directory', d, {}, [], { header: true });
}

export function decodeDirectory(bytes: Uint8Array): Directory {
  const { header: d } = decodeArtifact<Directory>(bytes, 'directory');
  if (
    !d ||
    !Array.isArray(d.companies) ||
    !d.field_values ||
    !d.terms ||
    !Number.isInteger(d.terms.blocks) ||
    d.terms.blocks < 1
  ) {
    throw new ArtifactFormatError('directory incomplete');
  }
  if (d.analyzer_version !== ANALYZER_VERSION) {
    throw new ArtifactFormatError(
      `directory built with analyzer ${d.analyzer_version}, this code uses ${ANALYZER_VERSION}`,
    );
  }
  for (const c of d.companies) {
    if (
      typeof c.ticker !== 'string' ||
      !c.shards ||
      !Number.isInteger(c.shards.first) ||
      !Array.isArray(c.shards.fiscal_years) ||
      !Number.isInteger(c.sources?.first)
    ) {
      throw new ArtifactFormatError('directory company incomplete');
    }
  }
  return d;
}

export function encodeIssuerTable(t: IssuerTable): Uint8Array {
  return encodeArtifact('issuer', t, {}, [], { header: true });
}

export function decodeIssuerTable(bytes: Uint8Array, ticker: string): IssuerTable {
  const { header: t } = decodeArtifact<IssuerTable>(bytes, 'issuer');
  if (!t || !Array.isArray(t.filings) || !Array.isArray(t.items) || !Array.isArray(t.shards))
    throw new ArtifactFormatError('issuer table incomplete');
  if (t.ticker !== ticker) throw new ArtifactFormatError(`issuer table is for ${String(t.ticker)}, expected ${ticker}`);
  for (const item of t.items) {
    if (!t.filings[item.filing] || !t.shards[item.shard] || !Number.isInteger(item.statements))
      throw new ArtifactFormatError('issuer table item out of range');
  }
  return t;
}

// ---------- term blocks ----------
interface TermBlockHeader {
  block: number;
  terms: string[];
  dim: number;
}

export function encodeTermBlock(b: Omit<TermBlock, 'byteSize'>): Uint8Array {
  return encodeArtifact(
    'terms',
    { block: b.block, terms: b.terms, dim: b.dim } satisfies TermBlockHeader,
    {
      df: b.df,
      shard_offsets: b.shardOffsets,
      shard_ids: b.shardIds,
      shard_impact: b.shardImpact,
      rest_impact: b.restImpact,
      vector_row: b.vectorRow,
      weights: b.weights,
      vectors: b.vectors,
    },
    [],
    // Every query reads its term blocks whole: the header (the terms) and the statistics deflate well, vectors do not.
    { header: true, sections: ['df', 'shard_offsets', 'shard_ids', 'shard_impact', 'rest_impact', 'vector_row'] },
  );
}

/** Heap a short string in an array costs beyond its characters: its header, padding and the array's pointer to it. */
const STRING_OVERHEAD_BYTES = 48;
/** Heap a decoded term block costs beyond its columns and terms: eight typed arrays with their buffers, its objects. */
const TERM_BLOCK_OVERHEAD_BYTES = 2048;

export function decodeTermBlock(bytes: Uint8Array, block: number): TermBlock {
  const decoded = decodeArtifact<TermBlockHeader>(bytes, 'terms');
  const h = decoded.header;
  if (!h || !Array.isArray(h.terms) || !Number.isInteger(h.dim) || h.dim <= 0)
    throw new ArtifactFormatError('term block header incomplete');
  if (h.block !== block) throw new ArtifactFormatError(`term block ${String(h.block)} read as block ${block}`);
  const n = h.terms.length;
  const shardOffsets = requireSection(decoded, 'shard_offsets', Uint32Array, n + 1);
  const shardIds = requireSection(decoded, 'shard_ids', Uint16Array);
  if (shardOffsets[n] !== shardIds.length) throw new ArtifactFormatError('term block postings misaligned');
  // Stored plain, so views of `bytes`: copied, or the cache would keep every stored byte of the block alive.
  const weights = requireSection(decoded, 'weights', Float32Array).slice();
  const vectors = requireSection(decoded, 'vectors', Int8Array, weights.length * h.dim).slice();
  const vectorRow = requireSection(decoded, 'vector_row', Uint32Array, n);
  for (const r of vectorRow)
    if (r !== NO_VECTOR && r >= weights.length) throw new ArtifactFormatError('term block vector row out of range');
  const df = requireSection(decoded, 'df', Uint32Array, n);
  const shardImpact = requireSection(decoded, 'shard_impact', Uint8Array, shardIds.length);
  const restImpact = requireSection(decoded, 'rest_impact', Uint8Array, n);
  // Measured against the heap by bench/cache-memory.ts.
  let byteSize = TERM_BLOCK_OVERHEAD_BYTES;
  for (const a of [df, shardOffsets, shardIds, shardImpact, restImpact, vectorRow, weights, vectors])
    byteSize += a.byteLength;
  for (const t of h.terms as string[]) byteSize += t.length + STRING_OVERHEAD_BYTES;
  return {
    block,
    terms: h.terms,
    df,
    shardOffsets,
    shardIds,
    shardImpact,
    restImpact,
    vectorRow,
    weights,
    vectors,
    dim: h.dim,
    byteSize,
  };
}

// ---------- graph ----------
/** Header of a shard's hnsw graph artifact. Labels in the graph are the shard's local statement ids. */
export interface GraphHeader {
  shard: string;
  dim: number;
  count: number;
  /** hnswlib metric; always 'ip' (the vectors are unit-norm, so inner product ranks like cosine). */
  space: 'ip';
  m: number;
  ef_construction: number;
  seed: number;
}

export interface DecodedGraph {
  header: GraphHeader;
  /** hnswlib's serialized index (wasm32 layout), ready for readHnswIndex. */
  hnsw: Uint8Array;
}

/** index-format/hnsw.ts parseHnswHeader, passed in by the caller (see the import note at the top). */
export type HnswHeaderParser = (hnsw: Uint8Array) => HnswHeader;

export function encodeGraph(header: GraphHeader, hnsw: Uint8Array, parseHnswHeader: HnswHeaderParser): Uint8Array {
  checkGraph(header, hnsw, parseHnswHeader);
  return encodeArtifact('graph', header, { hnsw });
}

/**
 * Decodes a graph artifact and checks it against the shard it claims to index: a graph over other vectors (another
 * shard, another dimension, another statement count) would return wrong neighbours without any error, so every
 * field that can be compared is compared, including hnswlib's own header inside the payload.
 */
export function decodeGraph(
  bytes: Uint8Array,
  expected: { shard: string; dim: number; count: number },
  parseHnswHeader: HnswHeaderParser,
): DecodedGraph {
  const decoded = decodeArtifact<GraphHeader>(bytes, 'graph');
  const h = decoded.header;
  if (
    !h ||
    typeof h.shard !== 'string' ||
    !Number.isInteger(h.dim) ||
    !Number.isInteger(h.count) ||
    !Number.isInteger(h.m)
  ) {
    throw new ArtifactFormatError('graph header incomplete');
  }
  if (h.shard !== expected.shard)
    throw new ArtifactFormatError(`graph is for shard ${h.shard}, expected ${expected.shard}`);
  if (h.dim !== expected.dim) throw new ArtifactFormatError(`graph has dim ${h.dim}, shard has ${expected.dim}`);
  if (h.count !== expected.count)
    throw new ArtifactFormatError(`graph has ${h.count} vectors, shard has ${expected.count} statements`);
  const hnsw = requireSection(decoded, 'hnsw', Uint8Array);
  checkGraph(h, hnsw, parseHnswHeader);
  return { header: h, hnsw };
}

function checkGraph(h: GraphHeader, hnsw: Uint8Array, parseHnswHeader: HnswHeaderParser): void {
  if (h.space !== 'ip') throw new ArtifactFormatError(`graph space ${String(h.space)} unsupported (expected ip)`);
  let native: HnswHeader;
  try {
    native = parseHnswHeader(hnsw);
  } catch (err) {
    throw new ArtifactFormatError(`graph payload invalid: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (native.dim !== h.dim || native.count !== h.count || native.m !== h.m) {
    throw new ArtifactFormatError(
      `graph payload (dim ${native.dim}, count ${native.count}, M ${native.m}) disagrees with its header ` +
        `(dim ${h.dim}, count ${h.count}, M ${h.m})`,
    );
  }
}

// ---------- manifest ----------
export const MANIFEST_FORMAT = 'filing-evidence-index';

const isRef = (r: unknown): r is ArtifactRef =>
  !!r &&
  typeof r === 'object' &&
  typeof (r as { file: unknown }).file === 'string' &&
  typeof (r as { sha256: unknown }).sha256 === 'string' &&
  Number.isInteger((r as { bytes: unknown }).bytes);

export function decodeManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new ArtifactFormatError('manifest is not JSON');
  }
  if (m?.format !== MANIFEST_FORMAT) throw new ArtifactFormatError('not a filing-evidence-index manifest');
  if (m.format_version !== FORMAT_VERSION)
    throw new ArtifactFormatError(`manifest format version ${m.format_version} unsupported`);
  if (m.analyzer_version !== ANALYZER_VERSION) throw new ArtifactFormatError('manifest analyzer version mismatch');
  if (!isRef(m.directory) || !isRef(m.files))
    throw new ArtifactFormatError('manifest incomplete: directory or file list missing');
  return m;
}

export function decodeFileList(text: string): FileList {
  let f: FileList;
  try {
    f = JSON.parse(text) as FileList;
  } catch {
    throw new ArtifactFormatError('file list is not JSON');
  }
  if (!f || !Array.isArray(f.files) || !f.files.every(isRef)) throw new ArtifactFormatError('file list incomplete');
  return f;
}
