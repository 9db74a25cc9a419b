import type { PackedLines } from './packed-lines';
import type { FilterField } from './fields';

/** Metadata carried by every source (one item of one filing); the keys are the public filter fields. */
export type SourceMeta = Record<FilterField, string | null>;

export interface CatalogSource {
  /** Stable, readable external id, e.g. MMM-10K-FY2018-I8 (kept apart from dense internal numbers). */
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
 * One entity of an issuer: a name matched in entry text by index-format/entities.ts, a description written from
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
  /**
   * Other spellings of the same counterparty in the issuer's filings ("Wal-Mart Stores, Inc."), matched like the name.
   */
  aliases?: string[];
}

export interface ShardInfo {
  id: string;
  file: string;
  statement_count: number;
  tickers: string[];
  fiscal_years: string[];
  form_types: string[];
  /** Whether an hnswlib graph artifact exists for this shard (large shards only), and its size. */
  graph_file: string | null;
  graph_bytes?: number;
  /** Content ids (index-format/keys.ts) of the shard and its graph: the Worker reads both by content. */
  content_id: string;
  graph_content_id?: string;
  /** The shard's head (index-format/shard-layout.ts): its first head_bytes bytes, and their CRC-32. */
  head_bytes: number;
  head_crc: number;
}

/** What the directory and the catalog the core works on both say about the whole index. */
export interface IndexSummary {
  domain: string;
  schema_version: string;
  analyzer_version: number;
  built_from: { filings: number; pages: number };
  stats: { statements: number; sources: number; avg_statement_terms: number };
  /** Values present in the index per filter field, with how many statements carry each. */
  field_values: Record<FilterField, Record<string, number>>;
  /** Min/max per ordered field (dates as YYYYMMDD numbers, fiscal years as numbers). */
  numeric_bounds: Partial<Record<FilterField, { min: number; max: number }>>;
  embedding_dim: number;
}

export interface CatalogHeader extends IndexSummary {
  sources: CatalogSource[];
  companies: CatalogCompany[];
  shards: ShardInfo[];
}

export type StatementKind = 'sentence' | 'table_row';
/**
 * docs/DECISIONS.md "Epistemic statuses": FACT, PREDICTION (forward-looking), ASSESSMENT (belief/judgement), RISK
 * (conditional).
 */
export type EpistemicStatus = 'FACT' | 'PREDICTION' | 'ASSESSMENT' | 'RISK';
export const EPISTEMIC_STATUSES: readonly EpistemicStatus[] = ['FACT', 'PREDICTION', 'ASSESSMENT', 'RISK'];

/** Why an edge links two statements of one shard (DECISIONS.md "Evidence graph"). */
export type EdgeKind = 'explains' | 'outlook' | 'period' | 'refers';
/** Stored as indexes into this list: new kinds go at the end (a reader rejects a kind it does not know). */
export const EDGE_KINDS: readonly EdgeKind[] = ['explains', 'outlook', 'period', 'refers'];

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

/**
 * One shard's statements, postings and vectors, decoded. A reader of byte ranges (docs/RANGE-READS.md) first decodes
 * the shard's head with its binary codes (every per-statement column, the edges, the term dictionary and row labels)
 * and fills the rest in as a request asks for it (IndexReader.shardParts): postings per term, the records (text,
 * consensus) per statement. Such a shard holds its postings in `parts`, per term read (postingList reads both kinds);
 * postDocs, postTfs and the int8 vectors are dense in a whole shard only. Reading a
 * hole is a bug of the caller that did not ask; `parts` says what is filled.
 */
export interface Shard {
  id: string;
  count: number;
  /** Filled per record read (a shard read by ranges holds a few, sparsely; a whole one all). */
  texts: string[];
  /** Catalog source index of each statement. */
  source: Uint32Array;
  page: Uint32Array;
  /** Primary metric code (index-format/metrics.ts, 1-based; 0 = none). */
  metric: Uint8Array;
  /**
   * Per statement: SHARD_FLAG_* bits, computed by the builder from the statement's text, with its kind and status
   * packed in (read them with statementKind and statementStatus, index-format/shard-layout.ts).
   */
  flags: Uint8Array;
  /**
   * Per statement, a table row's label as the space-separated stemmed words a question must all contain for the row
   * to count as named (src/search/retrieve.ts labelTerms), or an empty line (sentences, and labels that can name no
   * line item). Read with rowLabelTerms; ranking matches a line against the query with PackedLines.everyWordIn.
   */
  labels: PackedLines;
  /**
   * Per statement, a 32-bit hash of its claim key (index-format/claims.ts): chains tell restatements of one claim
   * apart from the head alone, before any text is read.
   */
  claim: Uint32Array;
  /** Per table row, the hash of its label's claim key (index-format/claims.ts rowLabelHash); 0 for a sentence. */
  rowLabel: Uint32Array;
  /**
   * Per agreed table row, where the other filings that restate it have it (source, page: the agree occurrences of
   * its record, in the head), so chains apply the restated-row rule without reading records. Offsets per statement
   * (count + 1); sources are global, like `source`.
   */
  restated: { at: Uint16Array | Uint32Array; source: Uint32Array; page: Uint32Array };
  /**
   * Consensus: other filings stating the same claim (agree) or a different value for it (disagree), filled per record.
   */
  agree: ClaimOccurrence[][];
  disagree: ClaimOccurrence[][];
  /** Evidence graph: per statement, edges to other statements of this shard (local ids), best first. */
  edges: ShardEdges;
  /** The term dictionary, sorted. */
  terms: PackedLines;
  /** A term's index in `terms` (a Map, or a search of the sorted dictionary: index-format/shard-layout.ts). */
  termIndex: TermLookup;
  postOffsets: Uint32Array;
  postDocs: Uint32Array;
  postTfs: Uint8Array;
  docLen: Uint16Array;
  dim: number;
  /** Int8 statement vectors, dense in a whole shard (the exact scan, the vector leg's slow twin). */
  vectors: Int8Array;
  /**
   * Binary codes for the vector leg (src/search/vector.ts): per statement dim/8 bytes, bit d = component d above
   * codeMean[d].
   */
  codes: Uint8Array;
  /** Per dimension, the shard's mean component and mean absolute deviation from it (what a code bit stands for). */
  codeMean: Float32Array;
  codeScale: Float32Array;
  byteSize: number;
  /** What is filled in; absent when the whole shard was decoded. */
  parts?: ShardParts;
}

/**
 * A shard's evidence graph as flat columns: statement i's edges are at[i]..at[i + 1] of target and kind (indexes into
 * EDGE_KINDS). Read with statementEdges (index-format/shard-layout.ts).
 */
export interface ShardEdges {
  at: Uint32Array;
  target: Uint16Array | Uint32Array;
  kind: Uint8Array;
}

/** Bit of Shard.flags: a metric-tagged row tagged only through its reconciling group (not the metric's own row). */
export const SHARD_FLAG_RECONCILING_ONLY = 1;
/** Bit of Shard.flags: another filing states the same claim (its consensus lists agreeing occurrences). */
export const SHARD_FLAG_AGREED = 16;

/** A term's posting list in one shard: ascending statement ids and their term frequencies. */
export interface PostingList {
  docs: Uint16Array | Uint32Array;
  tfs: Uint8Array;
}

/**
 * Which parts of a shard read by ranges are filled in (1 = filled), and where the rest lies in its object. What is
 * read is held sparsely (the lists of the terms read, the texts and consensus of the records read; Shard.postDocs,
 * postTfs and vectors stay empty), so a shard costs the cache what was read, not what a whole one would.
 */
export interface ShardParts {
  postings: Uint8Array;
  /** Per term read, its list (index-format/shard-layout.ts postingList reads either kind of shard). */
  lists: Map<number, PostingList>;
  /** Memory the lists held cost (index-format/shard-layout.ts shardMemory). */
  listCost: number;
  records: Uint8Array;
  /** Added to every source number a record names (the issuer's first global source). */
  sourceBase: number;
  /** Memory its decoded head and the records filled in so far cost (index-format/shard-layout.ts shardMemory). */
  headCost: number;
  recordCost: number;
  layout: ShardLayout;
}

/** Where a shard's range-read sections lie in its object (absolute byte offsets), and their checksums. */
export interface ShardLayout {
  block: number;
  /** Per term, byte offsets of its posting list in the postings section (terms + 1). */
  postingAt: Uint32Array;
  postings: { start: number; bytes: number; crc: Uint32Array };
  /** Per statement, byte offsets of its record in the records section (count + 1). */
  recordAt: Uint32Array;
  /** Each record ends with its own CRC-32 (index-format/shard-layout.ts recordIntact). */
  records: { start: number; bytes: number };
}

/**
 * Term statistics for BM25 and shard routing: corpus-wide document frequencies and, per term, the shards holding it
 * with an upper bound of its contribution there. The Worker assembles one per query from the term blocks of the
 * query's terms (index-format/views.ts), so it holds those terms only.
 */
/** Where a term sits in a shard's dictionary, if it is there. */
export interface TermLookup {
  get(term: string): number | undefined;
}

export interface Lexicon {
  terms: string[];
  termIndex: Map<string, number>;
  df: Uint32Array;
  /** For each term, the shards holding it and an upper bound of its BM25 contribution there (quantized 0-255). */
  shardOffsets: Uint32Array;
  shardIds: Uint16Array;
  shardImpact: Uint8Array;
  /** Per term, the bound of every shard its list leaves out (0 when it lists them all); see MAX_SHARDS_PER_TERM. */
  restImpact: Uint8Array;
  impactScale: number;
  totalStatements: number;
  avgLen: number;
  byteSize: number;
}

/**
 * Word vectors for embedding text (index-format/embed.ts): the builder's whole model, or the Worker's query-term part.
 */
export interface EmbeddingModel {
  dim: number;
  vocab: string[];
  vocabIndex: Map<string, number>;
  /**
   * Per-word weight used when pooling: inverse document frequency (projection models), or smooth inverse frequency
   * times the length the word's vector kept when the corpus's common component was taken out (svd models;
   * index-builder/vectors/embeddings.ts).
   */
  weights: Float32Array;
  vectors: Int8Array;
  byteSize: number;
}

/**
 * The root of a published version (manifest.json): what the Worker reads first. Small and fixed-size; the list of
 * every object of the version (for publishing and garbage collection) is files.json, which the Worker never reads.
 */
export interface Manifest {
  format: 'filing-evidence-index';
  format_version: number;
  analyzer_version: number;
  domain: string;
  version: string;
  created_by: string;
  directory: ArtifactRef;
  files: ArtifactRef;
  totals: { files: number; bytes: number; statements: number };
  /** The word-vector model the statement vectors came from (a builder-side artifact; the Worker ignores it). */
  embedding_model?: string;
}

/** files.json: every object of a version except the manifest and itself, in publishing order. */
export interface FileList {
  files: ArtifactRef[];
}

/**
 * directory.bin: the part of an index every query reads. It grows with the number of issuers (their names, aliases,
 * classification and per-fiscal-year shards), never with filings, statements or terms: sources live in issuer
 * tables, term statistics and word vectors in term blocks (docs/DECISIONS.md "Partitioned index").
 */
export interface Directory extends IndexSummary {
  companies: DirectoryCompany[];
  shard_count: number;
  /** Term blocks: `blocks` files terms/<k>.bin, a term in block termBlockOf(term, blocks); BM25 corpus statistics. */
  terms: { blocks: number; total_statements: number; avg_len: number; impact_scale: number };
}

export interface DirectoryCompany {
  ticker: string;
  company: string;
  cik: string | null;
  sector: string | null;
  sub_industry: string | null;
  aliases: string[];
  /** Its shards, numbered first, first + 1, ...: one per fiscal year (sec_fiscal_year values), in that order. */
  shards: { first: number; fiscal_years: string[] };
  /**
   * Its sources' global numbers: first .. first + count - 1, in the order of its table's items. Only the directory
   * knows them, so an issuer's table and shards (which number sources from 0 within the issuer) do not change when
   * other issuers' filings are added.
   */
  sources: { first: number; count: number };
  /** Its issuer table (issuers/<ticker>.bin), stored by content. */
  table: string;
  table_content_id: string;
}

/**
 * issuers/<ticker>.bin: one issuer's sources, shards, segments and entities, numbered within the issuer (the
 * directory's company entry places them globally), so the table depends on that issuer's filings only.
 */
export interface IssuerTable {
  ticker: string;
  /** Filing-level fields once per filing; each item names its filing by position. */
  filings: IssuerFiling[];
  items: IssuerItem[];
  shards: ShardInfo[];
  segments?: string[];
  entities?: CatalogEntity[];
}

export interface IssuerFiling {
  doc_id: string;
  type: string;
  date: string | null;
  company: string;
  period_of_report: string;
  fiscal_period: string;
  meta: Omit<SourceMeta, 'sec_item_tag'>;
}

export interface IssuerItem {
  filing: number;
  id: string;
  item_title: string;
  page_start: number;
  page_end: number;
  /** Position of its shard in the table's `shards`. */
  shard: number;
  item_tag: string | null;
  /** Statements drawn from this item (what the directory's field_values count). */
  statements: number;
}

/** terms/<k>.bin decoded: its terms (sorted), their statistics and shard postings, and word vectors for some. */
export interface TermBlock {
  block: number;
  terms: string[];
  df: Uint32Array;
  shardOffsets: Uint32Array;
  shardIds: Uint16Array;
  shardImpact: Uint8Array;
  restImpact: Uint8Array;
  /** Per term, its row in weights/vectors, or NO_VECTOR when the term is outside the embedding vocabulary. */
  vectorRow: Uint32Array;
  weights: Float32Array;
  vectors: Int8Array;
  dim: number;
  /**
   * What the decoded block holds in memory (columns, terms, objects), for the artifact cache (index-format/codec.ts).
   */
  byteSize: number;
}

export const NO_VECTOR = 0xffffffff;

/** How a reader finds an artifact: its file name, and for objects stored by content, the id of its bytes. */
export interface StoredRef {
  file: string;
  content_id?: string;
  /**
   * Read only the object's first `bytes` bytes, checked by their CRC-32 (a shard's head), not the whole sealed object.
   */
  prefix?: { bytes: number; crc: number };
}

export interface ArtifactRef extends StoredRef {
  bytes: number;
  sha256: string;
}
