import {
  ArtifactFormatError,
  decodeArtifact,
  decodeArtifactHead,
  encodeArtifact,
  requireSection,
  type DecodedArtifact,
  type DecodedHead,
} from './container';
import { crc32 } from './crc32';
import { PackedLines } from './packed-lines';
import {
  EDGE_KINDS,
  EPISTEMIC_STATUSES,
  SHARD_FLAG_AGREED,
  SHARD_FLAG_RECONCILING_ONLY,
  type ClaimOccurrence,
  type EdgeKind,
  type EpistemicStatus,
  type PostingList,
  type Shard,
  type ShardEdges,
  type ShardLayout,
  type StatementKind,
  type TermLookup,
} from './types';
import { labelTerms, reconcilingOnly } from './row-label';
import { claimHash, rowLabelHash } from './claims';

/**
 * A shard object laid out for byte-range reads (docs/RANGE-READS.md). One sealed container, in this order:
 * - the head: preamble, a small JSON header and HEAD_SECTIONS (every per-statement column, hashes of its claim and
 *   of its row label, the evidence graph, the term dictionary, row labels, posting and record lengths, block
 *   checksums), then `codes`, the binary codes of the statement vectors (dim / 8 bytes each), which every search of
 *   the shard scans. Every query of the shard reads the head and the codes, as one range whose length and CRC-32 the
 *   issuer table lists (ShardInfo.head_bytes/head_crc);
 * - `postings`: per term its statement ids (u16 when every local id fits, else u32) then term frequencies (u8),
 *   4-byte aligned, read per term;
 * - `vectors`: the int8 statement vectors (dim bytes each), read only with the whole shard: the exact scan, the
 *   vector leg's slow twin;
 * - `records`: per statement its text and consensus as one JSON array, then the CRC-32 of those bytes (4,
 *   little-endian), read for the statements of the chains a response returns;
 * - `offset`, `length`: provenance the Worker never reads.
 * Postings are checked per BLOCK-byte block (CRC-32 each), records one by one by the CRC-32 each ends with (a
 * response's statements lie far apart: a record is read alone, so a block around it would multiply the bytes; and
 * its checksum travels with it, not in the head every query reads); a whole read checks the seal instead. The
 * whole-object decoder and the range reader fill the same Shard through the same functions.
 */
export const SHARD_BLOCK = 2048;

const HEAD_SECTIONS = [
  'flags',
  'source',
  'page',
  'doc_len',
  'metric',
  'claim',
  'row_label',
  'edge_from',
  'edge_target',
  'edge_kind',
  'terms',
  'post_counts',
  'labels',
  'record_len',
  'restated_count',
  'restated_source',
  'restated_page',
  'postings_crc',
  'code_mean',
  'code_scale',
] as const;
/** Read with the head, in the same range: every search of the shard scans them. */
const HEAD_TAIL_SECTIONS = ['codes'] as const;
const BODY_SECTIONS = ['postings', 'vectors', 'records', 'offset', 'length'] as const;
const DEFLATED_HEAD_SECTIONS = HEAD_SECTIONS.filter(
  (name) => !['claim', 'postings_crc', 'code_mean', 'code_scale'].includes(name),
);

/**
 * The JSON header: sizes only. Everything per statement or per term is in sections, as compact as it stays exact:
 * 16-bit integers where every value fits, kind and status packed into `flags`, the term dictionary and the row
 * labels as newline-separated UTF-8, posting and record offsets as lengths summed on decode.
 */
interface ShardHeader {
  id: string;
  count: number;
  dim: number;
  term_count: number;
  block: number;
}

/**
 * Shard.flags bits beyond SHARD_FLAG_RECONCILING_ONLY and SHARD_FLAG_AGREED: a table row, and the status (2 bits,
 * EPISTEMIC_STATUSES order).
 */
const FLAG_TABLE_ROW = 2;
const STATUS_SHIFT = 2;
const STATUS_MASK = 3;
/** Bits 5-7: the primary financial statement a table row is printed on (index-format/financial-statements.ts code). */
const STATEMENT_SHIFT = 5;
const STATEMENT_MASK = 7;

/** What the builder hands to encodeShard: the statements' columns, consensus, edges, postings and vectors. */
export type ShardInput = Pick<
  Shard,
  | 'id'
  | 'texts'
  | 'metric'
  | 'agree'
  | 'disagree'
  | 'postOffsets'
  | 'postDocs'
  | 'postTfs'
  | 'docLen'
  | 'dim'
  | 'vectors'
> & {
  kind: StatementKind[];
  status: EpistemicStatus[];
  /** Per statement, the financial statement code of a row printed on one (0: none); absent = none. */
  statement?: Uint8Array;
  /** Per statement, its edges best first. */
  edges: { target: number; kind: EdgeKind }[][];
  /** The term dictionary, sorted. */
  terms: string[];
  source: number[];
  page: number[];
  offset: Uint32Array;
  length: Uint32Array;
};

const EMPTY: never[] = [];
Object.freeze(EMPTY);

const align4 = (n: number) => Math.ceil(n / 4) * 4;
const utf8 = new TextEncoder();
const recordDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** CRC-32 of each `block`-byte block of `bytes` (the last one may be shorter). */
function blockCrcs(bytes: Uint8Array, block: number): Uint32Array {
  const out = new Uint32Array(Math.ceil(bytes.byteLength / block));
  for (let b = 0; b < out.length; b++) out[b] = crc32(bytes.subarray(b * block, (b + 1) * block));
  return out;
}

type Occurrence = [source: number, page: number, status: number, note: string];
const packOccurrences = (list: readonly ClaimOccurrence[]): Occurrence[] =>
  list.map((o) => [o.source, o.page, EPISTEMIC_STATUSES.indexOf(o.status), o.note]);

/** A statement's stored flags: its feature bits (statementFeatures), kind, status and whether other filings agree. */
export function packedFlags(
  features: number,
  kind: StatementKind,
  status: EpistemicStatus,
  agreed: boolean,
  statement = 0,
): number {
  if (statement > STATEMENT_MASK) throw new Error(`financial statement code ${statement} does not fit its bits`);
  return (
    features |
    (kind === 'table_row' ? FLAG_TABLE_ROW : 0) |
    (EPISTEMIC_STATUSES.indexOf(status) << STATUS_SHIFT) |
    (agreed ? SHARD_FLAG_AGREED : 0) |
    (statement << STATEMENT_SHIFT)
  );
}

/** What a shard stores about a statement's text for ranking (Shard.labels and Shard.flags). */
export function statementFeatures(
  text: string,
  kind: StatementKind,
  metric: number,
): { label: readonly string[] | null; flags: number } {
  if (kind !== 'table_row') return { label: null, flags: 0 };
  return { label: labelTerms(text), flags: reconcilingOnly(text, metric) ? SHARD_FLAG_RECONCILING_ONLY : 0 };
}

export function encodeShard(s: ShardInput): Uint8Array {
  const n = s.texts.length;
  const block = SHARD_BLOCK;
  // Postings: per term, ids (16-bit when every local id fits) then frequencies, each list 4-byte aligned so its ids
  // read as a typed array in place.
  const idBytes = postingIdBytes(n);
  const counts = Array.from({ length: s.terms.length }, (_, t) => s.postOffsets[t + 1]! - s.postOffsets[t]!);
  const postingAt = byteOffsets(counts.map((k) => postingBytes(k, idBytes)));
  const postings = new Uint8Array(postingAt[s.terms.length]!);
  for (let t = 0; t < s.terms.length; t++) {
    const a = s.postOffsets[t]!;
    const k = counts[t]!;
    const ids = s.postDocs.subarray(a, a + k);
    postings.set(new Uint8Array((idBytes === 2 ? Uint16Array.from(ids) : Uint32Array.from(ids)).buffer), postingAt[t]!);
    postings.set(s.postTfs.subarray(a, a + k), postingAt[t]! + idBytes * k);
  }
  // Records: text and consensus, per statement, each ending with its CRC-32.
  const dim = s.dim;
  const encoded = s.texts.map((text, i) => {
    const json = utf8.encode(JSON.stringify([text, packOccurrences(s.agree[i]!), packOccurrences(s.disagree[i]!)]));
    const record = new Uint8Array(json.byteLength + RECORD_CRC_BYTES);
    record.set(json);
    new DataView(record.buffer).setUint32(json.byteLength, crc32(json), true);
    return record;
  });
  const codes = binaryCodes(s.vectors, n, dim);
  const records = new Uint8Array(encoded.reduce((sum, e) => sum + e.byteLength, 0));
  let r = 0;
  for (const e of encoded) {
    records.set(e, r);
    r += e.byteLength;
  }
  const edges = s.edges.flatMap((list, from) => list.map((e) => ({ from, ...e })));
  const features = s.texts.map((text, i) => statementFeatures(text, s.kind[i]!, s.metric[i]!));
  const lines = (xs: readonly string[]) => {
    if (xs.some((x) => x.includes('\n'))) throw new Error('a shard term or label contains a newline');
    return utf8.encode(xs.join('\n'));
  };
  // Readers find terms by binary search and trust the order (the head's bytes are checked by their CRC-32).
  for (let t = 1; t < s.terms.length; t++)
    if (!(s.terms[t - 1]! < s.terms[t]!)) throw new Error('shard terms not strictly sorted');
  const header: ShardHeader = { id: s.id, count: n, dim, term_count: s.terms.length, block };
  const restatedRows = s.texts.map((_, i) => i).filter((i) => isRestatedRow(s.kind[i]!, s.agree[i]!.length > 0));
  return encodeArtifact(
    'shard',
    header,
    {
      flags: Uint8Array.from(features, (f, i) =>
        packedFlags(f.flags, s.kind[i]!, s.status[i]!, s.agree[i]!.length > 0, s.statement?.[i] ?? 0),
      ),
      source: compactUints(s.source),
      page: compactUints(s.page),
      doc_len: s.docLen,
      metric: s.metric,
      claim: Uint32Array.from(s.texts, claimHash),
      row_label: Uint32Array.from(s.texts, (text, i) => rowLabelHash(text, s.kind[i]!)),
      edge_from: compactUints(edges.map((e) => e.from)),
      edge_target: compactUints(edges.map((e) => e.target)),
      edge_kind: Uint8Array.from(edges, (e) => EDGE_KINDS.indexOf(e.kind)),
      terms: lines(s.terms),
      post_counts: compactUints(counts),
      labels: lines(features.map((f) => f.label?.join(' ') ?? '')),
      record_len: compactUints(encoded.map((e) => e.byteLength)),
      // Per agreed table row (in local order), its agree occurrences: what the restated-row rule reads.
      restated_count: compactUints(restatedRows.map((i) => s.agree[i]!.length)),
      restated_source: compactUints(restatedRows.flatMap((i) => s.agree[i]!.map((o) => o.source))),
      restated_page: compactUints(restatedRows.flatMap((i) => s.agree[i]!.map((o) => o.page))),
      postings_crc: blockCrcs(postings, block),
      code_mean: codes.mean,
      code_scale: codes.scale,
      codes: codes.bits,
      postings,
      vectors: s.vectors,
      records,
      offset: s.offset,
      length: s.length,
    },
    [...HEAD_SECTIONS, ...HEAD_TAIL_SECTIONS, ...BODY_SECTIONS],
    // Every query reads the head whole: its columns deflate to about a third; claim hashes and checksums do not
    // deflate, and the body is read by byte range.
    { header: true, sections: DEFLATED_HEAD_SECTIONS },
  );
}

/**
 * Binary codes of a shard's int8 vectors: per dimension the mean component and the mean absolute deviation from it,
 * and per statement one bit per dimension, set when the component is above the mean. The vector leg scores a code
 * by the query's dot product with mean + deviation * (bit ? 1 : -1) (src/search/vector.ts).
 */
export function binaryCodes(
  vectors: Int8Array,
  n: number,
  dim: number,
): { bits: Uint8Array; mean: Float32Array; scale: Float32Array } {
  if (dim % 8 !== 0) throw new Error(`binary codes need a dimension divisible by 8, not ${dim}`);
  const mean = new Float64Array(dim);
  const scale = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let d = 0; d < dim; d++) mean[d]! += vectors[i * dim + d]! / n;
  for (let i = 0; i < n; i++) for (let d = 0; d < dim; d++) scale[d]! += Math.abs(vectors[i * dim + d]! - mean[d]!) / n;
  const width = dim / 8;
  const bits = new Uint8Array(n * width);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dim; d++) if (vectors[i * dim + d]! > mean[d]!) bits[i * width + (d >> 3)]! |= 1 << (d & 7);
  }
  return { bits, mean: Float32Array.from(mean), scale: Float32Array.from(scale) };
}

/** 16-bit when every value fits, else 32-bit (decoders accept both). */
function compactUints(values: ArrayLike<number>): Uint16Array | Uint32Array {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i]!);
  return max <= 0xffff ? Uint16Array.from(values as ArrayLike<number>) : Uint32Array.from(values as ArrayLike<number>);
}

/** A u16 or u32 section as numbers (either is valid, see compactUints). */
function uintSection(decoded: DecodedArtifact<unknown>, name: string, length?: number): Uint16Array | Uint32Array {
  const section = decoded.sections[name];
  if (!(section instanceof Uint16Array || section instanceof Uint32Array))
    throw new ArtifactFormatError(`missing or mistyped section ${name}`);
  if (length !== undefined && section.length !== length)
    throw new ArtifactFormatError(`section ${name} has ${section.length} elements, expected ${length}`);
  return section;
}

/**
 * Bytes of a statement id in a shard's posting lists: 2 when every local id fits 16 bits (a shard of at most 65,536
 * statements).
 */
const postingIdBytes = (statements: number) => (statements <= 0x10000 ? 2 : 4);

/** Bytes of a posting list of k statements: k ids (idBytes each), k frequencies (u8), padded to 4. */
const postingBytes = (k: number, idBytes: number) => align4((idBytes + 1) * k);

/** Offsets (n + 1) from lengths. */
function byteOffsets(lengths: ArrayLike<number>): Uint32Array {
  const at = new Uint32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) at[i + 1] = at[i]! + lengths[i]!;
  return at;
}

/**
 * What the issuer table says about a sealed shard's head (ShardInfo.head_bytes/head_crc): its length, up to the end
 * of the codes (the last section read with the head), and the CRC-32 of those bytes.
 */
export function shardHead(bytes: Uint8Array): { head_bytes: number; head_crc: number } {
  const head = decodeArtifactHead<ShardHeader>(bytes, 'shard');
  const last = head.places[HEAD_TAIL_SECTIONS[HEAD_TAIL_SECTIONS.length - 1]!];
  if (!last) throw new ArtifactFormatError('shard has no head sections');
  const end = last.start + last.bytes;
  return { head_bytes: end, head_crc: crc32(bytes.subarray(0, end)) };
}

/** The whole shard, decoded (a whole-object read, checked by its seal before this). */
export function decodeShard(bytes: Uint8Array): Shard {
  const decoded = decodeArtifact<ShardHeader>(bytes, 'shard');
  const shard = shardFromHead(decoded);
  const layout = shard.parts!.layout;
  // A whole shard holds every column dense (no ShardParts): filled below in place.
  delete shard.parts;
  shard.postDocs = new Uint32Array(shard.postOffsets[shard.terms.length]!);
  shard.texts = new Array<string>(shard.count);
  shard.agree = new Array<ClaimOccurrence[]>(shard.count);
  shard.disagree = new Array<ClaimOccurrence[]>(shard.count);
  shard.postTfs = new Uint8Array(shard.postDocs.length);
  shard.vectors = requireSection(decoded, 'vectors', Int8Array, shard.count * shard.dim);
  const postings = requireSection(decoded, 'postings', Uint8Array, layout.postings.bytes);
  for (let t = 0; t < shard.terms.length; t++)
    fillPostings(shard, t, postings.subarray(layout.postingAt[t]!, layout.postingAt[t + 1]!));
  const records = requireSection(decoded, 'records', Uint8Array, layout.records.bytes);
  for (let i = 0; i < shard.count; i++)
    fillRecord(shard, i, recordBody(records.subarray(layout.recordAt[i]!, layout.recordAt[i + 1]!)));
  return shard;
}

/**
 * A shard from its head alone (the first ShardInfo.head_bytes bytes, checked against head_crc by the caller):
 * columns, edges, dictionary and labels filled, postings, codes and records empty until filled.
 */
export function decodeShardHead(head: Uint8Array): Shard {
  return shardFromHead(decodeArtifactHead<ShardHeader>(head, 'shard'));
}

function shardFromHead(decoded: DecodedHead<ShardHeader>): Shard {
  const h = decoded.header;
  if (!h || !Number.isInteger(h.count) || !Number.isInteger(h.term_count) || !Number.isInteger(h.dim))
    throw new ArtifactFormatError('shard header incomplete');
  const n = h.count;
  const block = h.block;
  if (!Number.isInteger(block) || block <= 0) throw new ArtifactFormatError('shard block size invalid');
  const lines = (name: string, count: number): PackedLines => {
    const bytes = requireSection(decoded, name, Uint8Array);
    let text: string;
    try {
      text = recordDecoder.decode(bytes);
    } catch {
      throw new ArtifactFormatError(`shard section ${name} is not UTF-8`);
    }
    return PackedLines.of(text, count, `shard section ${name}`);
  };
  const terms = lines('terms', h.term_count);
  const counts = uintSection(decoded, 'post_counts', h.term_count);
  const idBytes = postingIdBytes(n);
  // Plain loops over typed arrays throughout: a fresh isolate decodes its first heads before it has optimized
  // anything, and Array.from with a callback, a Map of every term and eager label splits cost it about 3 ms a head.
  const postOffsets = new Uint32Array(h.term_count + 1);
  const postingAt = new Uint32Array(h.term_count + 1);
  for (let t = 0; t < h.term_count; t++) {
    postOffsets[t + 1] = postOffsets[t]! + counts[t]!;
    postingAt[t + 1] = postingAt[t]! + postingBytes(counts[t]!, idBytes);
  }
  const recordAt = byteOffsets(uintSection(decoded, 'record_len', n));
  // A body section, read by byte range: stored plain.
  const place = (name: string) => {
    const p = decoded.places[name];
    if (!p || p.deflated) throw new ArtifactFormatError(`shard section ${name} missing or deflated`);
    return p;
  };
  const postings = place('postings');
  const records = place('records');
  const codes = place('codes');
  if (
    h.dim % 8 !== 0 ||
    postingAt[h.term_count] !== postings.bytes ||
    recordAt[n] !== records.bytes ||
    codes.bytes !== (n * h.dim) / 8
  )
    throw new ArtifactFormatError('shard sections misaligned');
  if (codes.start + codes.bytes > postings.start)
    throw new ArtifactFormatError('shard codes are not read with its head');
  for (let i = 0; i < n; i++)
    if (recordAt[i + 1]! - recordAt[i]! <= RECORD_CRC_BYTES) throw new ArtifactFormatError('shard record empty');
  const layout: ShardLayout = {
    block,
    postingAt,
    postings: {
      start: postings.start,
      bytes: postings.bytes,
      crc: requireSection(decoded, 'postings_crc', Uint32Array, Math.ceil(postings.bytes / block)).slice(),
    },
    recordAt,
    records: { start: records.start, bytes: records.bytes },
  };
  const termIndex = sortedTermLookup(terms);
  const edges = edgeColumns(uintSection(decoded, 'edge_from'), decoded, n);
  const flags = requireSection(decoded, 'flags', Uint8Array, n);
  for (let i = 0; i < n; i++)
    if (!EPISTEMIC_STATUSES[(flags[i]! >> STATUS_SHIFT) & STATUS_MASK])
      throw new ArtifactFormatError('shard status code unknown');
  const labels = lines('labels', n);
  // Sections stored plain are views of the head's bytes: copied, so the cache does not keep the whole head alive.
  const own = <T extends Uint8Array | Uint16Array | Uint32Array | Float32Array>(a: T): T => a.slice() as T;
  const shard: Shard = {
    id: h.id,
    count: n,
    // Filled per record read: sparse until then (decodeShard makes them dense).
    texts: [],
    source: Uint32Array.from(uintSection(decoded, 'source', n)),
    page: Uint32Array.from(uintSection(decoded, 'page', n)),
    metric: requireSection(decoded, 'metric', Uint8Array, n),
    claim: own(requireSection(decoded, 'claim', Uint32Array, n)),
    rowLabel: requireSection(decoded, 'row_label', Uint32Array, n),
    restated: restatedColumns(decoded, flags, n),
    flags,
    labels,
    agree: [],
    disagree: [],
    edges,
    terms,
    termIndex,
    postOffsets,
    // Held sparsely until filled (ShardParts): lists per term; the int8 vectors only in a whole shard.
    postDocs: new Uint32Array(0),
    postTfs: new Uint8Array(0),
    docLen: requireSection(decoded, 'doc_len', Uint16Array, n),
    dim: h.dim,
    vectors: new Int8Array(0),
    // Checked with the head: by its CRC-32 (a range) or the seal (a whole object).
    codes: codesOf(decoded, codes.bytes),
    codeMean: own(requireSection(decoded, 'code_mean', Float32Array, h.dim)),
    codeScale: own(requireSection(decoded, 'code_scale', Float32Array, h.dim)),
    byteSize: decoded.total,
    parts: {
      postings: new Uint8Array(h.term_count),
      lists: new Map(),
      listCost: 0,
      records: new Uint8Array(n),
      sourceBase: 0,
      headCost: 0,
      recordCost: 0,
      layout,
    },
  };
  shard.parts!.headCost = heldHeadBytes(shard);
  return shard;
}

/** The codes section, which a head read holds (ShardInfo.head_bytes ends with it), copied out of the head's bytes. */
function codesOf(decoded: DecodedHead<ShardHeader>, bytes: number): Uint8Array {
  const codes = decoded.sections.codes;
  if (!(codes instanceof Uint8Array) || codes.byteLength !== bytes)
    throw new ArtifactFormatError('shard head read without its codes');
  return codes.slice();
}

/**
 * A shard's term dictionary as a lookup, by binary search. The builder writes it strictly sorted (encodeShard refuses
 * anything else) and the head's bytes are checked against their CRC-32 before they are decoded, so the order is not
 * checked again: that was a pass over every term of every head a fresh isolate decodes (about 0.5 ms a head before
 * the code is optimized). A query looks up a few dozen terms in a shard of up to some 12,000, so building a Map of
 * all of them per decoded head cost more than every lookup it served.
 */
function sortedTermLookup(terms: PackedLines): TermLookup {
  return {
    get(term: string): number | undefined {
      const at = terms.find(term);
      return at < 0 ? undefined : at;
    },
  };
}

/** A statement whose agree occurrences the head carries (Shard.restated): an agreed table row. */
const isRestatedRow = (kind: StatementKind, agreed: boolean) => agreed && kind === 'table_row';

/** Shard.restated from the head's sections: offsets per statement over the agreed table rows' occurrences. */
function restatedColumns(decoded: DecodedHead<ShardHeader>, flags: Uint8Array, n: number): Shard['restated'] {
  const counts = uintSection(decoded, 'restated_count');
  const source = Uint32Array.from(uintSection(decoded, 'restated_source'));
  const page = Uint32Array.from(uintSection(decoded, 'restated_page'));
  if (page.length !== source.length) throw new ArtifactFormatError('shard restated rows misaligned');
  const at = source.length <= 0xffff ? new Uint16Array(n + 1) : new Uint32Array(n + 1);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const rows = isRestatedRow(
      (flags[i]! & FLAG_TABLE_ROW) !== 0 ? 'table_row' : 'sentence',
      (flags[i]! & SHARD_FLAG_AGREED) !== 0,
    );
    at[i + 1] = at[i]! + (rows ? (counts[k++] ?? 0) : 0);
  }
  if (k !== counts.length || at[n] !== source.length) throw new ArtifactFormatError('shard restated rows misaligned');
  return { at, source, page };
}

/**
 * The evidence graph's columns as stored (edge_from, edge_target, edge_kind: grouped by source statement, in the
 * order encodeShard writes them), with each statement's first edge counted out: no object per edge or per statement.
 */
function edgeColumns(from: Uint16Array | Uint32Array, decoded: DecodedHead<ShardHeader>, n: number): ShardEdges {
  const target = uintSection(decoded, 'edge_target', from.length);
  const kind = requireSection(decoded, 'edge_kind', Uint8Array, from.length);
  const at = new Uint32Array(n + 1);
  for (let j = 0; j < from.length; j++) {
    if (kind[j]! >= EDGE_KINDS.length || target[j]! >= n || from[j]! >= n)
      throw new ArtifactFormatError('shard edge out of range');
    if (j > 0 && from[j]! < from[j - 1]!) throw new ArtifactFormatError('shard edges not grouped by statement');
    at[from[j]! + 1]!++;
  }
  for (let i = 0; i < n; i++) at[i + 1]! += at[i]!;
  return { at, target, kind };
}

/** A statement's kind, from its flags. */
export function statementKind(shard: Shard, local: number): StatementKind {
  return shard.flags[local]! & FLAG_TABLE_ROW ? 'table_row' : 'sentence';
}

/** A statement's epistemic status, from its flags (checked when the shard was decoded). */
export function statementStatus(shard: Shard, local: number): EpistemicStatus {
  return EPISTEMIC_STATUSES[(shard.flags[local]! >> STATUS_SHIFT) & STATUS_MASK]!;
}

/**
 * The primary financial statement a table row is printed on, as its code (0: none;
 * index-format/financial-statements.ts).
 */
export function statementFinancialCode(shard: Shard, local: number): number {
  return (shard.flags[local]! >> STATEMENT_SHIFT) & STATEMENT_MASK;
}

/** A table row's label words (Shard.labels), or null. */
export function rowLabelTerms(shard: Shard, local: number): string[] | null {
  return shard.labels.isEmpty(local) ? null : shard.labels.line(local).split(' ');
}

/** A statement's edges, best first. */
export function statementEdges(shard: Shard, local: number): { target: number; kind: EdgeKind }[] {
  const { at, target, kind } = shard.edges;
  const out: { target: number; kind: EdgeKind }[] = [];
  for (let j = at[local]!; j < at[local + 1]!; j++) out.push({ target: target[j]!, kind: EDGE_KINDS[kind[j]!]! });
  return out;
}

/** How many edges leave a statement. */
export const edgeCount = (shard: Shard, local: number): number => shard.edges.at[local + 1]! - shard.edges.at[local]!;

/** Bytes a shard decoded from its head holds: its columns, dictionary, labels, graph and layout (codes not counted). */
function heldHeadBytes(shard: Shard): number {
  const { parts } = shard;
  const { edges } = shard;
  const arrays = [
    shard.source,
    shard.page,
    shard.metric,
    shard.flags,
    shard.claim,
    shard.rowLabel,
    shard.restated.at,
    shard.restated.source,
    shard.restated.page,
    shard.postOffsets,
    shard.docLen,
    shard.codeMean,
    shard.codeScale,
    edges.at,
    edges.target,
    edges.kind,
  ];
  if (parts)
    arrays.push(
      parts.postings,
      parts.records,
      parts.layout.postingAt,
      parts.layout.recordAt,
      parts.layout.postings.crc,
    );
  let sum = shard.labels.bytes + shard.terms.bytes;
  for (const a of arrays) sum += a.byteLength;
  return sum;
}

/**
 * Heap a filled record costs beyond twice its bytes (its text as a string, its consensus as objects): the occurrence
 * objects and their arrays, the sparse entries that hold them. Measured with the heap (docs/RANGE-READS.md "What a
 * cached shard costs"): a research cycle's heads freed 1.01 of what they were charged.
 */
const RECORD_OVERHEAD_BYTES = 400;
/** Heap a posting list costs beyond its ids and frequencies: two typed arrays and their buffers, and its map entry. */
const LIST_OVERHEAD_BYTES = 300;

/**
 * What a decoded shard costs in memory, for the artifact cache: a whole one about twice its object (strings and
 * objects from JSON); one read by ranges what its head holds (heldHeadBytes), its filled records and posting lists
 * (ShardParts.recordCost, listCost) and its codes. Measured against the heap in docs/RANGE-READS.md "What a cached
 * shard costs".
 */
export function shardMemory(shard: Shard): number {
  const parts = shard.parts;
  if (!parts) return shard.byteSize * 2;
  return parts.headCost + parts.recordCost + parts.listCost + shard.codes.byteLength;
}

/** Fills term t's posting list from its bytes (ids then frequencies, as encodeShard lays them out). */
export function fillPostings(shard: Shard, t: number, bytes: Uint8Array): void {
  if (shard.parts?.postings[t]) return;
  const a = shard.postOffsets[t]!;
  const k = shard.postOffsets[t + 1]! - a;
  const idBytes = postingIdBytes(shard.count);
  if (bytes.byteLength !== postingBytes(k, idBytes))
    throw new ArtifactFormatError('shard posting list has the wrong length');
  const own = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const docs =
    idBytes === 2 ? new Uint16Array(own.buffer, own.byteOffset, k) : new Uint32Array(own.buffer, own.byteOffset, k);
  // Ascending ids: a statement's membership in a list is a binary search (src/search/term-membership.ts).
  for (let j = 0; j < k; j++) {
    if (docs[j]! >= shard.count) throw new ArtifactFormatError('shard posting out of range');
    if (j > 0 && docs[j]! <= docs[j - 1]!) throw new ArtifactFormatError('shard posting list out of order');
  }
  const tfs = own.subarray(idBytes * k, (idBytes + 1) * k);
  if (shard.parts) {
    // Copies: a view would keep the whole read (other terms' lists and block padding) alive in the cache.
    const list = { docs: docs.slice(), tfs: tfs.slice() };
    shard.parts.lists.set(t, list);
    shard.parts.listCost += list.docs.byteLength + list.tfs.byteLength + LIST_OVERHEAD_BYTES;
    shard.parts.postings[t] = 1;
    return;
  }
  shard.postDocs.set(docs, a);
  shard.postTfs.set(tfs, a);
}

const NO_LIST: PostingList = { docs: new Uint32Array(0), tfs: new Uint8Array(0) };

/** Term t's posting list in a shard, whole or read by ranges (empty when its list was not read). */
export function postingList(shard: Shard, t: number): PostingList {
  if (shard.parts) return shard.parts.lists.get(t) ?? NO_LIST;
  const a = shard.postOffsets[t]!;
  const b = shard.postOffsets[t + 1]!;
  return { docs: shard.postDocs.subarray(a, b), tfs: shard.postTfs.subarray(a, b) };
}

/** Bytes of the CRC-32 that ends every record. */
const RECORD_CRC_BYTES = 4;

/** Does a record's content match the CRC-32 it ends with (false for a corrupt or truncated one)? */
export function recordIntact(record: Uint8Array): boolean {
  if (record.byteLength <= RECORD_CRC_BYTES) return false;
  const end = record.byteLength - RECORD_CRC_BYTES;
  return (
    crc32(record.subarray(0, end)) ===
    new DataView(record.buffer, record.byteOffset + end, RECORD_CRC_BYTES).getUint32(0, true)
  );
}

/**
 * Bytes of a statement's record before its CRC-32 (its text and consensus as JSON), from the head of a shard read by
 * ranges.
 */
export function recordContentBytes(shard: Shard, local: number): number {
  const { recordAt } = shard.parts!.layout;
  return recordAt[local + 1]! - recordAt[local]! - RECORD_CRC_BYTES;
}

/** A record without its CRC-32: what fillRecord reads. */
export const recordBody = (record: Uint8Array) => record.subarray(0, record.byteLength - RECORD_CRC_BYTES);

/** Fills one statement's text and consensus from its record's bytes (sources shifted by the parts' sourceBase). */
export function fillRecord(shard: Shard, local: number, bytes: Uint8Array): void {
  // Passes of one request read concurrently, so two may bring the same record: it is filled (and charged) once.
  if (shard.parts?.records[local]) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(recordDecoder.decode(bytes));
  } catch {
    throw new ArtifactFormatError('shard record is not valid JSON');
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || !Array.isArray(parsed[1]) || !Array.isArray(parsed[2]))
    throw new ArtifactFormatError('shard record malformed');
  const base = shard.parts?.sourceBase ?? 0;
  const occurrences = (list: unknown[]): ClaimOccurrence[] => {
    if (!list.length) return EMPTY;
    return list.map((o) => {
      const [source, page, status, note] = o as Occurrence;
      const st = EPISTEMIC_STATUSES[status];
      if (!st || !Number.isInteger(source) || !Number.isInteger(page) || typeof note !== 'string')
        throw new ArtifactFormatError('shard consensus occurrence malformed');
      return { source: source + base, page, status: st, note };
    });
  };
  shard.texts[local] = parsed[0];
  shard.agree[local] = occurrences(parsed[1]);
  shard.disagree[local] = occurrences(parsed[2]);
  if (shard.parts) {
    shard.parts.records[local] = 1;
    shard.parts.recordCost += 2 * bytes.byteLength + RECORD_OVERHEAD_BYTES;
  }
}

/** A byte range of one blocked section to read: blocks first..last (inclusive). */
export interface BlockRead {
  first: number;
  last: number;
}

/**
 * Which blocks to read for these byte spans of a blocked section: each span widened to whole blocks, reads closer
 * than `gap` blocks merged, then the closest reads merged until at most `maxReads` remain (a Worker has six
 * connections at a time: fewer, larger reads beat many small ones).
 */
export function blockReads(
  spans: readonly (readonly [number, number])[],
  block: number,
  gap = 1,
  maxReads = Infinity,
): BlockRead[] {
  const reads = spanReads(
    spans.filter(([a, b]) => b > a).map(([a, b]) => [Math.floor(a / block), Math.floor((b - 1) / block) + 1] as const),
    gap,
    maxReads,
  );
  return reads.map((r) => ({ first: r.from, last: r.to - 1 }));
}

/**
 * Ranges to read for these spans (within a section), exactly: spans closer than `gap` read together, then the
 * closest reads merged until at most `maxReads` remain.
 */
export function spanReads(
  spans: readonly (readonly [number, number])[],
  gap: number,
  maxReads = Infinity,
): { from: number; to: number }[] {
  const sorted = spans
    .filter(([a, b]) => b > a)
    .map(([a, b]) => ({ from: a, to: b }))
    .sort((x, y) => x.from - y.from);
  const out: { from: number; to: number }[] = [];
  for (const s of sorted) {
    const prev = out[out.length - 1];
    if (prev && s.from <= prev.to + gap) prev.to = Math.max(prev.to, s.to);
    else out.push({ ...s });
  }
  while (out.length > Math.max(1, maxReads)) {
    let best = 0;
    for (let i = 1; i < out.length - 1; i++)
      if (out[i + 1]!.from - out[i]!.to < out[best + 1]!.from - out[best]!.to) best = i;
    out[best]!.to = Math.max(out[best]!.to, out[best + 1]!.to);
    out.splice(best + 1, 1);
  }
  return out;
}

/** Checks each block of a read against its CRC-32; false when any differs (corrupt or truncated). */
export function blocksIntact(bytes: Uint8Array, read: BlockRead, block: number, crcs: Uint32Array): boolean {
  for (let b = read.first; b <= read.last; b++) {
    const part = bytes.subarray((b - read.first) * block, (b - read.first + 1) * block);
    if (crc32(part) !== crcs[b]) return false;
  }
  return true;
}
