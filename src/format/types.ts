import type { FilterField } from '../filters/fields';

/** Metadata carried by every source (one item of one filing); the keys are the public filter fields. */
export type SourceMeta = Record<FilterField, string | null>;

export interface CatalogSource {
  /** Stable, readable external id, e.g. MMM-10K-FY2018-I8 (STYLE.md: kept apart from dense internal numbers). */
  id: string;
  type: string;
  /** Filing date, or null when unknown (never invented). */
  date: string | null;
  doc_id: string;
  company: string;
  period_of_report: string;
  fiscal_period: string;
  item_title: string;
  page_start: number;
  page_end: number;
  shard: number;
  meta: SourceMeta;
}

export interface CatalogCompany {
  ticker: string;
  company: string;
  cik: string | null;
  sector: string | null;
  sub_industry: string | null;
  /** Lower-case names and short forms that resolve to this ticker ("3m", "3m company"). */
  aliases: string[];
  /** Business segments named by the company's latest filing that lists them (index-builder/entities/segments.ts). */
  segments?: string[];
  /** Segments, products and counterparties the filings name (index-builder/entities; DECISIONS.md "Entities"). */
  entities?: CatalogEntity[];
}

/**
 * One entity of an issuer: a name matched in entry text by src/evidence/entities.ts, a description written from
 * the evidence that named it, and the catalog source ids of the first and latest filing items that state it.
 */
export interface CatalogEntity {
  name: string;
  kind: 'segment' | 'product' | 'counterparty';
  description: string;
  first: string;
  latest: string;
  /** Statements of the issuer that mention the name or an alias (the support the builder required). */
  mentions: number;
  /** Other spellings of the same counterparty in the issuer's filings ("Wal-Mart Stores, Inc."), matched like the name. */
  aliases?: string[];
}

export interface ShardInfo {
  id: string;
  file: string;
  statement_count: number;
  tickers: string[];
  fiscal_years: string[];
  form_types: string[];
  /** Whether an hnswlib graph artifact exists for this shard (large shards only). */
  graph_file: string | null;
}

export interface CatalogHeader {
  domain: string;
  schema_version: string;
  analyzer_version: number;
  built_from: { filings: number; pages: number };
  stats: { statements: number; sources: number; avg_statement_terms: number };
  sources: CatalogSource[];
  companies: CatalogCompany[];
  shards: ShardInfo[];
  /** Values present in the index per filter field, with how many statements carry each. */
  field_values: Record<FilterField, Record<string, number>>;
  /** Min/max per ordered field (dates as YYYYMMDD numbers, fiscal years as numbers). */
  numeric_bounds: Partial<Record<FilterField, { min: number; max: number }>>;
  embedding_dim: number;
}

export type StatementKind = 'sentence' | 'table_row';
/** docs/DECISIONS.md "Epistemic statuses": FACT, PREDICTION (forward-looking), ASSESSMENT (belief/judgement), RISK (conditional). */
export type EpistemicStatus = 'FACT' | 'PREDICTION' | 'ASSESSMENT' | 'RISK';
export const EPISTEMIC_STATUSES: readonly EpistemicStatus[] = ['FACT', 'PREDICTION', 'ASSESSMENT', 'RISK'];

/** Why an edge links two statements of one shard (DECISIONS.md "Evidence graph"). */
export type EdgeKind = 'explains' | 'outlook' | 'period';
export const EDGE_KINDS: readonly EdgeKind[] = ['explains', 'outlook', 'period'];

/**
 * Another filing stating the same claim (precomputed by the builder, so the Worker renders every source of an
 * entry without loading other shards): its catalog source, page and status, and for table rows the periods that
 * agree ("FY2018, FY2017").
 */
export interface ClaimOccurrence {
  source: number;
  page: number;
  status: EpistemicStatus;
  note: string;
}

/** One shard's statements, postings and vectors, decoded. */
export interface Shard {
  id: string;
  texts: string[];
  /** Catalog source index of each statement. */
  source: Uint32Array;
  page: Uint32Array;
  kind: StatementKind[];
  status: EpistemicStatus[];
  /** Provenance: character offset of the statement in its page, and its span length in the filing's text. */
  offset: Uint32Array;
  length: Uint32Array;
  /** Primary metric code (src/text/metrics.ts, 1-based; 0 = none). */
  metric: Uint8Array;
  /** Consensus: other filings stating the same claim (agree) or a different value for it (disagree), per statement. */
  agree: ClaimOccurrence[][];
  disagree: ClaimOccurrence[][];
  /** Evidence graph: per statement, edges to other statements of this shard (local ids), best first. */
  edges: { target: number; kind: EdgeKind }[][];
  terms: string[];
  termIndex: Map<string, number>;
  postOffsets: Uint32Array;
  postDocs: Uint32Array;
  postTfs: Uint8Array;
  /** Corpus-wide document frequency of each shard term, so a shard scores BM25 on global statistics alone. */
  termDf: Uint32Array;
  totalStatements: number;
  avgLen: number;
  docLen: Uint16Array;
  dim: number;
  vectors: Int8Array;
  byteSize: number;
}

export interface Lexicon {
  terms: string[];
  termIndex: Map<string, number>;
  df: Uint32Array;
  /** For each term, the shards holding it and an upper bound of its BM25 contribution there (quantized 0-255). */
  shardOffsets: Uint32Array;
  shardIds: Uint16Array;
  shardImpact: Uint8Array;
  impactScale: number;
  totalStatements: number;
  avgLen: number;
  byteSize: number;
}

export interface EmbeddingModel {
  dim: number;
  vocab: string[];
  vocabIndex: Map<string, number>;
  /** Per-word weight used when pooling (smoothed inverse frequency). */
  weights: Float32Array;
  vectors: Int8Array;
  byteSize: number;
}

export interface Manifest {
  format: 'filing-evidence-index';
  format_version: number;
  analyzer_version: number;
  domain: string;
  version: string;
  created_by: string;
  catalog: ArtifactRef;
  lexicon: ArtifactRef;
  embedding: ArtifactRef;
  shards: ArtifactRef[];
  graphs: ArtifactRef[];
  totals: { files: number; bytes: number; statements: number };
}

export interface ArtifactRef {
  file: string;
  bytes: number;
  sha256: string;
}
