import {
  ArtifactFormatError,
  decodeArtifact,
  encodeArtifact,
  FORMAT_VERSION,
  requireSection,
} from './container';
import {
  EDGE_KINDS,
  EPISTEMIC_STATUSES,
  NO_VECTOR,
  type ArtifactRef,
  type ClaimOccurrence,
  type Directory,
  type EdgeKind,
  type EpistemicStatus,
  type FileList,
  type IssuerTable,
  type Manifest,
  type Shard,
  type TermBlock,
} from './types';
import { ANALYZER_VERSION } from '../text/tokenize';
// Type only: a value import would pull in the generated wasm glue, and this module is imported by the whole
// builder, which must be able to say "run npm install" when generated/ is missing (index-builder/graphs.ts).
import type { HnswHeader } from '../vector/hnsw';

// ---------- shard ----------
/** What the builder hands to encodeShard: a decoded Shard minus what decoding derives. */
export type ShardInput = Omit<Shard, 'termIndex' | 'byteSize' | 'source' | 'page'> & { source: number[]; page: number[] };

interface ShardHeader {
  id: string;
  count: number;
  dim: number;
  texts: string[];
  kind: string; // one char per statement: s = sentence, t = table row
  status: string; // one char per statement: F = FACT, P = PREDICTION, A = ASSESSMENT, R = RISK
  terms: string[];
  /** Notes of the agree/disagree occurrences, in section order. */
  agree_note: string[];
  disagree_note: string[];
}

const STATUS_CHAR: Record<EpistemicStatus, string> = { FACT: 'F', PREDICTION: 'P', ASSESSMENT: 'A', RISK: 'R' };
const CHAR_STATUS = new Map<string, EpistemicStatus>(Object.entries(STATUS_CHAR).map(([k, v]) => [v, k as EpistemicStatus]));
const EMPTY: never[] = [];
Object.freeze(EMPTY);

/** Per-statement lists packed as offsets (n + 1) and flat columns. */
function packOccurrences(lists: readonly ClaimOccurrence[][]) {
  const offsets = new Uint32Array(lists.length + 1);
  const flat = lists.flat();
  let n = 0;
  lists.forEach((l, i) => {
    offsets[i] = n;
    n += l.length;
  });
  offsets[lists.length] = n;
  return {
    offsets,
    source: Uint32Array.from(flat, (o) => o.source),
    page: Uint32Array.from(flat, (o) => o.page),
    status: Uint8Array.from(flat, (o) => EPISTEMIC_STATUSES.indexOf(o.status)),
    note: flat.map((o) => o.note),
  };
}

function unpackOccurrences(count: number, offsets: Uint32Array, source: Uint32Array, page: Uint32Array, status: Uint8Array, note: string[]): ClaimOccurrence[][] {
  if (offsets[count] !== source.length || note.length !== source.length) throw new ArtifactFormatError('shard consensus misaligned');
  const out: ClaimOccurrence[][] = new Array(count);
  for (let i = 0; i < count; i++) {
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    if (a === b) {
      out[i] = EMPTY;
      continue;
    }
    if (b < a) throw new ArtifactFormatError('shard consensus offsets decrease');
    const list: ClaimOccurrence[] = [];
    for (let j = a; j < b; j++) {
      const st = EPISTEMIC_STATUSES[status[j]!];
      if (!st) throw new ArtifactFormatError('shard consensus status unknown');
      list.push({ source: source[j]!, page: page[j]!, status: st, note: note[j]! });
    }
    out[i] = list;
  }
  return out;
}

export function encodeShard(s: ShardInput): Uint8Array {
  const header: ShardHeader = {
    id: s.id,
    count: s.texts.length,
    dim: s.dim,
    texts: s.texts,
    kind: s.kind.map((k) => (k === 'table_row' ? 't' : 's')).join(''),
    status: s.status.map((k) => STATUS_CHAR[k]).join(''),
    terms: s.terms,
    agree_note: [],
    disagree_note: [],
  };
  const agree = packOccurrences(s.agree);
  const disagree = packOccurrences(s.disagree);
  header.agree_note = agree.note;
  header.disagree_note = disagree.note;
  const edgeOffsets = new Uint32Array(s.edges.length + 1);
  let e = 0;
  s.edges.forEach((l, i) => {
    edgeOffsets[i] = e;
    e += l.length;
  });
  edgeOffsets[s.edges.length] = e;
  const flatEdges = s.edges.flat();
  return encodeArtifact('shard', header, {
    offset: s.offset,
    length: s.length,
    metric: s.metric,
    agree_offsets: agree.offsets,
    agree_source: agree.source,
    agree_page: agree.page,
    agree_status: agree.status,
    disagree_offsets: disagree.offsets,
    disagree_source: disagree.source,
    disagree_page: disagree.page,
    disagree_status: disagree.status,
    edge_offsets: edgeOffsets,
    edge_target: Uint32Array.from(flatEdges, (x) => x.target),
    edge_kind: Uint8Array.from(flatEdges, (x) => EDGE_KINDS.indexOf(x.kind)),
    source: Uint32Array.from(s.source),
    page: Uint32Array.from(s.page),
    post_offsets: s.postOffsets,
    post_docs: s.postDocs,
    post_tfs: s.postTfs,
    doc_len: s.docLen,
    vectors: s.vectors,
  });
}

export function decodeShard(bytes: Uint8Array): Shard {
  const decoded = decodeArtifact<ShardHeader>(bytes, 'shard');
  const h = decoded.header;
  if (!h || !Array.isArray(h.texts) || h.texts.length !== h.count || !Array.isArray(h.terms)) {
    throw new ArtifactFormatError('shard header incomplete');
  }
  if (h.kind.length !== h.count || h.status.length !== h.count) throw new ArtifactFormatError('shard annotations misaligned');
  const postOffsets = requireSection(decoded, 'post_offsets', Uint32Array, h.terms.length + 1);
  const postDocs = requireSection(decoded, 'post_docs', Uint32Array);
  const postTfs = requireSection(decoded, 'post_tfs', Uint8Array, postDocs.length);
  if (postOffsets[h.terms.length] !== postDocs.length) throw new ArtifactFormatError('shard postings misaligned');
  const termIndex = new Map<string, number>();
  h.terms.forEach((t, i) => termIndex.set(t, i));
  const n = h.count;
  if (!Array.isArray(h.agree_note) || !Array.isArray(h.disagree_note)) throw new ArtifactFormatError('shard header incomplete');
  const occurrences = (prefix: 'agree' | 'disagree', note: string[]) => {
    const offsets = requireSection(decoded, `${prefix}_offsets`, Uint32Array, n + 1);
    const source = requireSection(decoded, `${prefix}_source`, Uint32Array);
    return unpackOccurrences(n, offsets, source, requireSection(decoded, `${prefix}_page`, Uint32Array, source.length), requireSection(decoded, `${prefix}_status`, Uint8Array, source.length), note);
  };
  const edgeOffsets = requireSection(decoded, 'edge_offsets', Uint32Array, n + 1);
  const edgeTarget = requireSection(decoded, 'edge_target', Uint32Array);
  const edgeKind = requireSection(decoded, 'edge_kind', Uint8Array, edgeTarget.length);
  if (edgeOffsets[n] !== edgeTarget.length) throw new ArtifactFormatError('shard edges misaligned');
  const edges: { target: number; kind: EdgeKind }[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = edgeOffsets[i]!;
    const b = edgeOffsets[i + 1]!;
    if (a === b) {
      edges[i] = EMPTY;
      continue;
    }
    if (b < a) throw new ArtifactFormatError('shard edge offsets decrease');
    const list: { target: number; kind: EdgeKind }[] = [];
    for (let j = a; j < b; j++) {
      const kind = EDGE_KINDS[edgeKind[j]!];
      if (!kind || edgeTarget[j]! >= n) throw new ArtifactFormatError('shard edge out of range');
      list.push({ target: edgeTarget[j]!, kind });
    }
    edges[i] = list;
  }
  const status = Array.from(h.status, (c) => {
    const st = CHAR_STATUS.get(c);
    if (!st) throw new ArtifactFormatError(`shard status code ${c} unknown`);
    return st;
  });
  return {
    id: h.id,
    texts: h.texts,
    offset: requireSection(decoded, 'offset', Uint32Array, n),
    length: requireSection(decoded, 'length', Uint32Array, n),
    metric: requireSection(decoded, 'metric', Uint8Array, n),
    agree: occurrences('agree', h.agree_note),
    disagree: occurrences('disagree', h.disagree_note),
    edges,
    source: requireSection(decoded, 'source', Uint32Array, h.count),
    page: requireSection(decoded, 'page', Uint32Array, h.count),
    kind: Array.from(h.kind, (c) => (c === 't' ? 'table_row' : 'sentence')),
    status,
    terms: h.terms,
    termIndex,
    postOffsets,
    postDocs,
    postTfs,
    docLen: requireSection(decoded, 'doc_len', Uint16Array, h.count),
    dim: h.dim,
    vectors: requireSection(decoded, 'vectors', Int8Array, h.count * h.dim),
    byteSize: bytes.byteLength,
  };
}

// ---------- directory and issuer tables ----------
export function encodeDirectory(d: Directory): Uint8Array {
  return encodeArtifact('directory', d);
}

export function decodeDirectory(bytes: Uint8Array): Directory {
  const { header: d } = decodeArtifact<Directory>(bytes, 'directory');
  if (!d || !Array.isArray(d.companies) || !d.field_values || !d.terms || !Number.isInteger(d.terms.blocks) || d.terms.blocks < 1) {
    throw new ArtifactFormatError('directory incomplete');
  }
  if (d.analyzer_version !== ANALYZER_VERSION) {
    throw new ArtifactFormatError(`directory built with analyzer ${d.analyzer_version}, this code uses ${ANALYZER_VERSION}`);
  }
  for (const c of d.companies) {
    if (typeof c.ticker !== 'string' || !c.shards || !Number.isInteger(c.shards.first) || !Array.isArray(c.shards.fiscal_years) || !Number.isInteger(c.sources?.first)) {
      throw new ArtifactFormatError('directory company incomplete');
    }
  }
  return d;
}

export function encodeIssuerTable(t: IssuerTable): Uint8Array {
  return encodeArtifact('issuer', t);
}

export function decodeIssuerTable(bytes: Uint8Array, ticker: string): IssuerTable {
  const { header: t } = decodeArtifact<IssuerTable>(bytes, 'issuer');
  if (!t || !Array.isArray(t.filings) || !Array.isArray(t.items) || !Array.isArray(t.shards)) throw new ArtifactFormatError('issuer table incomplete');
  if (t.ticker !== ticker) throw new ArtifactFormatError(`issuer table is for ${String(t.ticker)}, expected ${ticker}`);
  for (const item of t.items) {
    if (!t.filings[item.filing] || !t.shards[item.shard] || !Number.isInteger(item.statements)) throw new ArtifactFormatError('issuer table item out of range');
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
  return encodeArtifact('terms', { block: b.block, terms: b.terms, dim: b.dim } satisfies TermBlockHeader, {
    df: b.df,
    shard_offsets: b.shardOffsets,
    shard_ids: b.shardIds,
    shard_impact: b.shardImpact,
    rest_impact: b.restImpact,
    vector_row: b.vectorRow,
    weights: b.weights,
    vectors: b.vectors,
  });
}

export function decodeTermBlock(bytes: Uint8Array, block: number): TermBlock {
  const decoded = decodeArtifact<TermBlockHeader>(bytes, 'terms');
  const h = decoded.header;
  if (!h || !Array.isArray(h.terms) || !Number.isInteger(h.dim) || h.dim <= 0) throw new ArtifactFormatError('term block header incomplete');
  if (h.block !== block) throw new ArtifactFormatError(`term block ${String(h.block)} read as block ${block}`);
  const n = h.terms.length;
  const shardOffsets = requireSection(decoded, 'shard_offsets', Uint32Array, n + 1);
  const shardIds = requireSection(decoded, 'shard_ids', Uint16Array);
  if (shardOffsets[n] !== shardIds.length) throw new ArtifactFormatError('term block postings misaligned');
  const weights = requireSection(decoded, 'weights', Float32Array);
  const vectorRow = requireSection(decoded, 'vector_row', Uint32Array, n);
  for (const r of vectorRow) if (r !== NO_VECTOR && r >= weights.length) throw new ArtifactFormatError('term block vector row out of range');
  return {
    block,
    terms: h.terms,
    df: requireSection(decoded, 'df', Uint32Array, n),
    shardOffsets,
    shardIds,
    shardImpact: requireSection(decoded, 'shard_impact', Uint8Array, shardIds.length),
    restImpact: requireSection(decoded, 'rest_impact', Uint8Array, n),
    vectorRow,
    weights,
    vectors: requireSection(decoded, 'vectors', Int8Array, weights.length * h.dim),
    dim: h.dim,
    byteSize: bytes.byteLength,
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

/** src/vector/hnsw.ts parseHnswHeader, passed in by the caller (see the import note at the top). */
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
  if (!h || typeof h.shard !== 'string' || !Number.isInteger(h.dim) || !Number.isInteger(h.count) || !Number.isInteger(h.m)) {
    throw new ArtifactFormatError('graph header incomplete');
  }
  if (h.shard !== expected.shard) throw new ArtifactFormatError(`graph is for shard ${h.shard}, expected ${expected.shard}`);
  if (h.dim !== expected.dim) throw new ArtifactFormatError(`graph has dim ${h.dim}, shard has ${expected.dim}`);
  if (h.count !== expected.count) throw new ArtifactFormatError(`graph has ${h.count} vectors, shard has ${expected.count} statements`);
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
      `graph payload (dim ${native.dim}, count ${native.count}, M ${native.m}) disagrees with its header (dim ${h.dim}, count ${h.count}, M ${h.m})`,
    );
  }
}

// ---------- manifest ----------
export const MANIFEST_FORMAT = 'filing-evidence-index';

const isRef = (r: unknown): r is ArtifactRef =>
  !!r && typeof r === 'object' && typeof (r as { file: unknown }).file === 'string' &&
  typeof (r as { sha256: unknown }).sha256 === 'string' && Number.isInteger((r as { bytes: unknown }).bytes);

export function decodeManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new ArtifactFormatError('manifest is not JSON');
  }
  if (m?.format !== MANIFEST_FORMAT) throw new ArtifactFormatError('not a filing-evidence-index manifest');
  if (m.format_version !== FORMAT_VERSION) throw new ArtifactFormatError(`manifest format version ${m.format_version} unsupported`);
  if (m.analyzer_version !== ANALYZER_VERSION) throw new ArtifactFormatError('manifest analyzer version mismatch');
  if (!isRef(m.directory) || !isRef(m.files)) throw new ArtifactFormatError('manifest incomplete: directory or file list missing');
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
