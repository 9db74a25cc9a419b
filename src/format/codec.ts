import {
  ArtifactFormatError,
  decodeArtifact,
  encodeArtifact,
  requireSection,
} from './container';
import type { CatalogHeader, EmbeddingModel, Lexicon, Manifest, Shard } from './types';
import { ANALYZER_VERSION } from '../text/tokenize';

// ---------- catalog ----------
export function encodeCatalog(catalog: CatalogHeader): Uint8Array {
  return encodeArtifact('catalog', catalog);
}

export function decodeCatalog(bytes: Uint8Array): CatalogHeader {
  const { header } = decodeArtifact<CatalogHeader>(bytes, 'catalog');
  if (!header || !Array.isArray(header.sources) || !Array.isArray(header.shards) || !Array.isArray(header.companies)) {
    throw new ArtifactFormatError('catalog header incomplete');
  }
  if (header.analyzer_version !== ANALYZER_VERSION) {
    throw new ArtifactFormatError(`catalog built with analyzer ${header.analyzer_version}, this code uses ${ANALYZER_VERSION}`);
  }
  return header;
}

// ---------- shard ----------
/** What the builder hands to encodeShard: a decoded Shard minus what decoding derives. */
export type ShardInput = Omit<Shard, 'termIndex' | 'byteSize' | 'source' | 'page'> & { source: number[]; page: number[] };

interface ShardHeader {
  id: string;
  count: number;
  dim: number;
  texts: string[];
  kind: string; // one char per statement: s = sentence, t = table row
  status: string; // one char per statement: F = FACT, P = PREDICTION
  terms: string[];
  total_statements: number;
  avg_len: number;
}

export function encodeShard(s: ShardInput): Uint8Array {
  const header: ShardHeader = {
    id: s.id,
    count: s.texts.length,
    dim: s.dim,
    texts: s.texts,
    kind: s.kind.map((k) => (k === 'table_row' ? 't' : 's')).join(''),
    status: s.status.map((k) => (k === 'PREDICTION' ? 'P' : 'F')).join(''),
    terms: s.terms,
    total_statements: s.totalStatements,
    avg_len: s.avgLen,
  };
  return encodeArtifact('shard', header, {
    term_df: s.termDf,
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
  return {
    id: h.id,
    texts: h.texts,
    source: requireSection(decoded, 'source', Uint32Array, h.count),
    page: requireSection(decoded, 'page', Uint32Array, h.count),
    kind: Array.from(h.kind, (c) => (c === 't' ? 'table_row' : 'sentence')),
    status: Array.from(h.status, (c) => (c === 'P' ? 'PREDICTION' : 'FACT')),
    terms: h.terms,
    termIndex,
    postOffsets,
    postDocs,
    postTfs,
    termDf: requireSection(decoded, 'term_df', Uint32Array, h.terms.length),
    totalStatements: h.total_statements,
    avgLen: h.avg_len,
    docLen: requireSection(decoded, 'doc_len', Uint16Array, h.count),
    dim: h.dim,
    vectors: requireSection(decoded, 'vectors', Int8Array, h.count * h.dim),
    byteSize: bytes.byteLength,
  };
}

// ---------- lexicon ----------
interface LexiconHeader {
  terms: string[];
  total_statements: number;
  avg_len: number;
  impact_scale: number;
}

export function encodeLexicon(l: Omit<Lexicon, 'termIndex' | 'byteSize'>): Uint8Array {
  const header: LexiconHeader = {
    terms: l.terms,
    total_statements: l.totalStatements,
    avg_len: l.avgLen,
    impact_scale: l.impactScale,
  };
  return encodeArtifact('lexicon', header, {
    df: l.df,
    shard_offsets: l.shardOffsets,
    shard_ids: l.shardIds,
    shard_impact: l.shardImpact,
  });
}

export function decodeLexicon(bytes: Uint8Array): Lexicon {
  const decoded = decodeArtifact<LexiconHeader>(bytes, 'lexicon');
  const h = decoded.header;
  if (!h || !Array.isArray(h.terms)) throw new ArtifactFormatError('lexicon header incomplete');
  const shardOffsets = requireSection(decoded, 'shard_offsets', Uint32Array, h.terms.length + 1);
  const shardIds = requireSection(decoded, 'shard_ids', Uint16Array);
  const termIndex = new Map<string, number>();
  h.terms.forEach((t, i) => termIndex.set(t, i));
  return {
    terms: h.terms,
    termIndex,
    df: requireSection(decoded, 'df', Uint32Array, h.terms.length),
    shardOffsets,
    shardIds,
    shardImpact: requireSection(decoded, 'shard_impact', Uint8Array, shardIds.length),
    impactScale: h.impact_scale,
    totalStatements: h.total_statements,
    avgLen: h.avg_len,
    byteSize: bytes.byteLength,
  };
}

// ---------- embedding ----------
interface EmbeddingHeader {
  dim: number;
  vocab: string[];
}

export function encodeEmbedding(e: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>): Uint8Array {
  return encodeArtifact('embedding', { dim: e.dim, vocab: e.vocab } satisfies EmbeddingHeader, {
    weights: e.weights,
    vectors: e.vectors,
  });
}

export function decodeEmbedding(bytes: Uint8Array): EmbeddingModel {
  const decoded = decodeArtifact<EmbeddingHeader>(bytes, 'embedding');
  const h = decoded.header;
  if (!h || !Array.isArray(h.vocab) || !Number.isInteger(h.dim) || h.dim <= 0) {
    throw new ArtifactFormatError('embedding header incomplete');
  }
  const vocabIndex = new Map<string, number>();
  h.vocab.forEach((t, i) => vocabIndex.set(t, i));
  return {
    dim: h.dim,
    vocab: h.vocab,
    vocabIndex,
    weights: requireSection(decoded, 'weights', Float32Array, h.vocab.length),
    vectors: requireSection(decoded, 'vectors', Int8Array, h.vocab.length * h.dim),
    byteSize: bytes.byteLength,
  };
}

// ---------- manifest ----------
export const MANIFEST_FORMAT = 'filing-evidence-index';

export function decodeManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new ArtifactFormatError('manifest is not JSON');
  }
  const isRef = (r: unknown) =>
    !!r && typeof r === 'object' && typeof (r as { file: unknown }).file === 'string' &&
    typeof (r as { sha256: unknown }).sha256 === 'string' && Number.isInteger((r as { bytes: unknown }).bytes);
  if (m?.format !== MANIFEST_FORMAT) throw new ArtifactFormatError('not a filing-evidence-index manifest');
  if (m.format_version !== 1) throw new ArtifactFormatError(`manifest format version ${m.format_version} unsupported`);
  if (m.analyzer_version !== ANALYZER_VERSION) throw new ArtifactFormatError('manifest analyzer version mismatch');
  if (!isRef(m.catalog) || !isRef(m.lexicon) || !isRef(m.embedding) || !Array.isArray(m.shards) || !m.shards.every(isRef)) {
    throw new ArtifactFormatError('manifest artifact list incomplete');
  }
  return m;
}
