import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { decodeShard, encodeShard, MANIFEST_FORMAT } from '../index-format/codec';
import { shardHead, statementKind, statementStatus } from '../index-format/shard-layout';
import { itemSource } from '../index-format/views';
import { FORMAT_VERSION } from '../index-format/container';
import { seal, sha256 } from './shards/seal';
import {
  EDGE_KINDS,
  type ArtifactRef,
  type CatalogHeader,
  type CatalogSource,
  type EpistemicStatus,
  type FileList,
  type IssuerTable,
  type Manifest,
  type Shard,
  type ShardInfo,
  type StatementKind,
} from '../index-format/types';
import { FILTER_FIELDS, type FilterField } from '../index-format/fields';
import { embedTokens, quantizeUnit } from '../index-format/embed';
import { metricByCode } from '../index-format/metrics';
import { financialStatementCode, type FinancialStatement } from '../index-format/financial-statements';
import { ANALYZER_VERSION, tokenize } from '../index-format/tokenize';
import { bm25Idf, bm25TermScore } from '../index-format/bm25';
import { companyAliases, withoutSharedAliases } from './entities/aliases';
import { DIRECTORY_FILE, partitionedArtifacts, storedByContent, type CorpusLexicon } from './shards/partitioned';
import { contentIdOf, FILE_LIST } from '../index-format/keys';
import { buildConsensus } from './statements/consensus';
import { EmbeddingLearner, type EmbeddingOptions, type LearnedModel } from './vectors/embeddings';
import { embeddingSample, saveModel } from './vectors/model-store';
import { EntityCollector, type CompanyEntities } from './entities/collect';
import { buildShardEdges } from './graph/evidence-graph';
import { referenceLinks, type PlacedStatement } from './segment/references';
import {
  checkGraphMinStatements,
  DEFAULT_GRAPH_MIN_STATEMENTS,
  openGraphBuilder,
  type GraphBuilder,
} from './vectors/graphs';
import type { Filing, FilingDocument } from './segment/read-corpus';
import { coverSection, coverStatements, learnsMeaning } from './segment/cover';
import { segmentFiling } from './segment/segment';
import { extractStatements } from './statements/statements';
import type { TableFact } from './statements/table-facts';

export const DOMAIN = 'sp500';
export const SCHEMA_VERSION = '2026-11-21.1';

export interface BuildOptions {
  outDir: string;
  embedding?: Partial<EmbeddingOptions>;
  /**
   * A model to reuse instead of learning one (index-builder/vectors/model-store.ts): `--embedding-model <id or path>`.
   */
  embeddingModel?: { id: string; model: LearnedModel };
  /**
   * Shards with at least this many statements also get an HNSW graph (graphs/<shard>.bin). Default 20,000
   * (DEFAULT_GRAPH_MIN_STATEMENTS in ./graphs.ts explains why); Infinity builds none.
   */
  graphMinStatements?: number;
  onStage?: (stage: string, done: number, total: number) => void;
  /** How many filings the input holds, when known before reading it (countCorpusFilings): the segment stage's total. */
  expectedFilings?: number;
}

/** One statement of a filing as segmentation leaves it: everything but its place in the corpus. */
export interface StatementDraft {
  text: string;
  page: number;
  offset: number;
  length: number;
  kind: StatementKind;
  status: EpistemicStatus;
  /** Index into its filing's sources. */
  localSource: number;
  itemTag: string;
  metrics: number[];
  fact?: TableFact;
  /** A table row of a primary financial statement (index-format/financial-statements.ts). */
  statement?: FinancialStatement;
  tokens: string[];
  /** A pointer to a note: the statements it refers to, as offsets from its index in the filing (references.ts). */
  refers?: number[];
}

export interface SourceDraft {
  id: string;
  itemTag: string;
  title: string;
  pageStart: number;
  pageEnd: number;
}

/** A segmented filing: the unit the streaming build spills to disk and reads back. */
export interface FilingRecord {
  doc: FilingDocument;
  pageCount: number;
  sources: SourceDraft[];
  statements: StatementDraft[];
}

/** A statement placed in the corpus: global source index, dense filing number, issuer. */
export interface Statement extends StatementDraft {
  source: number;
  filing: number;
  ticker: string;
}

export interface BuildResult {
  version: string;
  dir: string;
  manifest: Manifest;
  summary: {
    filings: number;
    pages: number;
    sources: number;
    statements: number;
    byStatus: Record<string, number>;
    byKind: Record<string, number>;
    shards: number;
    /** Consensus: sentence claims stated by 2+ filings, table rows agreeing with / contradicting another filing. */
    mergedSentenceGroups: number;
    mergedTableRows: number;
    disagreeingRows: number;
    /** Evidence-graph edges by kind. */
    edges: Record<string, number>;
    /** Largest shard artifact in bytes. */
    largestShardBytes: number;
    /** Shards that got an HNSW graph, the graphs' bytes and the time spent building them. */
    graphs: number;
    graphBytes: number;
    graphMs: number;
    /** Entities kept in the catalog per kind (segment, product, counterparty). */
    entities: Record<string, number>;
    bytes: number;
    /** The word-vector model's id, and how many filings it learned from (null when it was reused). */
    embeddingModel: string;
    embeddingSampleFilings: number | null;
    /** Time spent learning the model from the counted co-occurrences (PPMI, SVD, common component); 0 when reused. */
    embeddingMs: number;
    /**
     * Incremental builds: issuers taken unchanged from the previous version, and the bytes of their shards and graphs.
     */
    reusedIssuers: number;
    reusedBytes: number;
  };
}

/**
 * A statement's terms plus the name of its primary metric when the text does not already use it: "Purchases of
 * property, plant and equipment" is also found by "capital expenditure" (the metric vocabulary's name). Only the
 * index terms change; the statement text stays as printed.
 */
export function withMetricTerms(tokens: string[], metrics: readonly number[]): string[] {
  const metric = metrics[0] ? metricByCode(metrics[0]) : null;
  if (!metric) return tokens;
  const have = new Set(tokens);
  const extra = tokenize(metric.name).filter((t) => !have.has(t));
  return extra.length ? [...tokens, ...extra] : tokens;
}

export { seal, sha256 } from './shards/seal';

function formCode(form: string): string {
  return form === '10-K' ? '10K' : '10Q';
}

/** Stable readable id: MMM-10K-FY2018-I8, AAPL-10Q-FY2023Q3-P1I2. */
export function sourceId(doc: FilingDocument, itemCode: string): string {
  const period = doc.form_type === '10-Q' ? `FY${doc.fiscal_year}${doc.fiscal_period}` : `FY${doc.fiscal_year}`;
  return `${doc.ticker}-${formCode(doc.form_type)}-${period}-${itemCode}`;
}

export const shardKeyOf = (doc: FilingDocument) => `${doc.ticker}-FY${doc.fiscal_year}`;

/**
 * Shard numbers (one shard per issuer and fiscal year): issuer by issuer in order of first appearance, each issuer's
 * shards in order of first appearance, so every issuer's shards are numbered contiguously (the directory stores a
 * range per issuer).
 */
export function planShards(docs: readonly FilingDocument[]): { keys: string[]; byKey: Map<string, number> } {
  const byIssuer = new Map<string, string[]>();
  for (const doc of docs) {
    const key = shardKeyOf(doc);
    const list = byIssuer.get(doc.ticker);
    if (!list) byIssuer.set(doc.ticker, [key]);
    else if (!list.includes(key)) list.push(key);
  }
  const keys = [...byIssuer.values()].flat();
  return { keys, byKey: new Map(keys.map((k, i) => [k, i])) };
}

/**
 * Global source numbers: issuer by issuer (in order of first appearance, as planShards numbers shards), each
 * issuer's filings in input order. `first[f]` is filing f's first source; `base` an issuer's first. An issuer's
 * sources are then one contiguous range, which its directory entry records, so its table and shards can number
 * them from 0 and stay the same when other issuers' filings change.
 */
export function numberSources(filings: readonly { ticker: string; sources: number }[]): {
  first: Uint32Array;
  base: Map<string, number>;
} {
  const order = new Map<string, number[]>();
  filings.forEach((f, i) => {
    const list = order.get(f.ticker);
    if (list) list.push(i);
    else order.set(f.ticker, [i]);
  });
  const first = new Uint32Array(filings.length);
  const base = new Map<string, number>();
  let next = 0;
  for (const [ticker, list] of order) {
    base.set(ticker, next);
    for (const i of list) {
      first[i] = next;
      next += filings[i]!.sources;
    }
  }
  return { first, base };
}

/** Filing -> items -> statements: the CPU-heavy part, one filing at a time, independent of every other filing. */
export function analyzeFiling(filing: Filing): FilingRecord {
  const d = filing.doc;
  const sources: SourceDraft[] = [];
  const statements: StatementDraft[] = [];
  const seenIds = new Map<string, number>();
  // Start of each page in the filing's text joined by '\n': statement lengths are measured there.
  const pageStarts: number[] = [];
  let at = 0;
  for (const p of filing.pages) {
    pageStarts.push(at);
    at += p.length + 1;
  }
  const items = segmentFiling(d.form_type, filing.pages);
  const placed: PlacedStatement[] = [];
  const cover = coverSection(d.form_type, filing.pages, items[0]);
  const sections = cover ? [cover, ...items] : items;
  for (const section of sections) {
    let id = sourceId(d, section.itemCode);
    // Two sections with one tag in one filing (a restarted numbering) stay apart with a suffix.
    const dup = seenIds.get(id) ?? 0;
    seenIds.set(id, dup + 1);
    if (dup) id = `${id}-${dup + 1}`;
    const raw = section === cover ? coverStatements(section, d.form_type) : extractStatements(section, d.form_type);
    if (!raw.length) continue;
    const localSource = sources.length;
    sources.push({
      id,
      itemTag: section.itemTag,
      title: section.title,
      pageStart: section.lines[0]!.page,
      pageEnd: section.lines[section.lines.length - 1]!.page,
    });
    for (const s of raw) {
      statements.push({
        text: s.text,
        page: s.page,
        offset: s.offset,
        length: Math.max(0, pageStarts[s.endPage]! + s.endOffset - (pageStarts[s.page]! + s.offset)),
        kind: s.kind,
        status: s.status,
        localSource,
        itemTag: section.itemTag,
        metrics: s.metrics,
        ...(s.fact ? { fact: s.fact } : {}),
        ...(s.statement ? { statement: s.statement } : {}),
        tokens: withMetricTerms(tokenize(s.text), s.metrics),
      });
      placed.push({ text: s.text, page: s.page, offset: s.offset, kind: s.kind, section });
    }
  }
  referenceLinks(sections, placed).forEach((refers, i) => {
    if (refers.length) statements[i]!.refers = refers;
  });
  return { doc: d, pageCount: filing.pages.length, sources, statements };
}

/** A filing's sources as catalog sources (their global index is their position in the catalog). */
export function catalogSources(record: FilingRecord, shard: number): CatalogSource[] {
  const d = record.doc;
  return record.sources.map((s) => ({
    id: s.id,
    type: 'sec_filing_item',
    date: d.filing_date,
    doc_id: d.doc_id,
    company: d.company,
    period_of_report: d.period_of_report,
    fiscal_period: d.fiscal_period,
    item_title: s.title,
    page_start: s.pageStart,
    page_end: s.pageEnd,
    shard,
    meta: {
      report_filing_date: d.filing_date,
      sec_fiscal_year: `FY-${d.fiscal_year}`,
      sec_fiscal_year_end: d.fiscal_year_end,
      sec_form_type: d.form_type,
      sec_gics_sector: d.gics_sector,
      sec_gics_sub_industry: d.gics_sub_industry,
      sec_item_tag: s.itemTag,
      sec_ticker: d.ticker,
    },
  }));
}

/** Feeds an issuer's statements to an entity collector, in corpus order, as the sentences and rows that name names. */
export function observeEntities(
  collector: EntityCollector,
  record: FilingRecord,
  filing: number,
  statements: Iterable<StatementDraft>,
): void {
  const d = record.doc;
  const label =
    d.form_type === '10-Q' ? `FY${d.fiscal_year} ${d.fiscal_period} 10-Q` : `FY${d.fiscal_year} ${d.form_type}`;
  // One ref per section, shared by its statements: the collector takes a later statement of the same section (the
  // same ref) as the latest wording of a candidate.
  const refs = record.sources.map((src) => ({ id: src.id, filing, period: d.period_of_report, label }));
  for (const s of statements) {
    const ref = refs[s.localSource]!;
    if (s.kind === 'sentence') collector.observeSentence(d.ticker, s.text, ref);
    else if (s.fact) collector.observeTableRow(d.ticker, s.fact.label, ref);
  }
}

/** Corpus-wide term statistics: document frequency per term, statement count and total length. */
/**
 * Shards store a posting's term frequency in a byte and a statement's length in 16 bits. Statistics and impact bounds
 * use the same capped values, so that an incremental build, which reads them back from shard files, gets exactly
 * what the build that wrote those shards computed.
 */
export const MAX_TF = 255;
export const MAX_DOC_LEN = 65535;

export class TermStats {
  readonly df = new Map<string, number>();
  statements = 0;
  totalLen = 0;

  addStatement(tokens: readonly string[]): void {
    this.statements++;
    this.totalLen += Math.min(MAX_DOC_LEN, tokens.length);
    for (const t of new Set(tokens)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  get avgLen(): number {
    return this.statements ? this.totalLen / this.statements : 0;
  }

  snapshot(): { df: [string, number][]; statements: number; totalLen: number } {
    return { df: [...this.df], statements: this.statements, totalLen: this.totalLen };
  }

  /** Sums another part of the corpus into these statistics (a partitioned build's merge). */
  add(snapshot: ReturnType<TermStats['snapshot']>): void {
    for (const [t, n] of snapshot.df) this.df.set(t, (this.df.get(t) ?? 0) + n);
    this.statements += snapshot.statements;
    this.totalLen += snapshot.totalLen;
  }
}

/**
 * Each term's best BM25 contribution per shard, spilled per shard as (term id, impact) arrays and merged into the
 * lexicon at the end: memory is the term dictionary and a count per term, not a (term, shard) pair per posting
 * list, which grows with the corpus (20 M pairs at 4x the shared corpus).
 */
export class ShardImpacts {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private shardsPerTerm = new Uint32Array(1024);
  private readonly spilled: (string | undefined)[] = [];
  maxImpact = 0;

  constructor(private readonly spillDir: string) {
    mkdirSync(spillDir, { recursive: true });
  }

  /** `terms` and `impacts` of one shard, in any order; shards are added in shard order. */
  addShard(shard: number, terms: readonly string[], impacts: Float64Array): void {
    const ids = new Uint32Array(terms.length);
    terms.forEach((t, i) => {
      let id = this.termIds.get(t);
      if (id === undefined) {
        id = this.terms.length;
        this.termIds.set(t, id);
        this.terms.push(t);
        if (id >= this.shardsPerTerm.length) {
          const grown = new Uint32Array(this.shardsPerTerm.length * 2);
          grown.set(this.shardsPerTerm);
          this.shardsPerTerm = grown;
        }
      }
      ids[i] = id;
      this.shardsPerTerm[id]!++;
      if (impacts[i]! > this.maxImpact) this.maxImpact = impacts[i]!;
    });
    const file = join(this.spillDir, `${shard}.bin`);
    writeFileSync(file, serialize({ ids, impacts }));
    this.spilled[shard] = file;
  }

  /** The lexicon's term list and per-term shard lists (shard ascending), impacts quantized to one byte. */
  lexicon(df: ReadonlyMap<string, number>, totalStatements: number, avgLen: number): CorpusLexicon {
    const order = this.terms
      .map((_, i) => i)
      .sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0));
    const rank = new Uint32Array(this.terms.length);
    order.forEach((id, r) => {
      rank[id] = r;
    });
    const shardOffsets = new Uint32Array(order.length + 1);
    let total = 0;
    order.forEach((id, r) => {
      shardOffsets[r] = total;
      total += this.shardsPerTerm[id]!;
    });
    shardOffsets[order.length] = total;
    const next = shardOffsets.slice(0, order.length);
    const shardIds = new Uint16Array(total);
    const shardImpact = new Uint8Array(total);
    const impactScale = this.maxImpact / 255 || 1;
    this.spilled.forEach((file, shard) => {
      if (!file) return;
      const entry = deserialize(readFileSync(file)) as { ids: Uint32Array; impacts: Float64Array };
      entry.ids.forEach((id, i) => {
        const at = next[rank[id]!]!++;
        shardIds[at] = shard;
        shardImpact[at] = Math.max(1, Math.min(255, Math.ceil(entry.impacts[i]! / impactScale)));
      });
    });
    const terms = order.map((id) => this.terms[id]!);
    return {
      terms,
      df: Uint32Array.from(terms.map((t) => df.get(t)!)),
      shardOffsets,
      shardIds,
      shardImpact,
      impactScale,
      totalStatements,
      avgLen,
    };
  }
}

/** One shard: postings, vectors, consensus and edges of its statements, encoded; plus its terms' impacts. */
export function encodeShardStatements(
  shardId: string,
  statements: readonly Statement[],
  consensus: {
    agree: (i: number) => ReturnType<typeof buildConsensus>['agree'] extends Map<number, infer V> ? V : never;
    disagree: (i: number) => ReturnType<typeof buildConsensus>['disagree'] extends Map<number, infer V> ? V : never;
  },
  stats: { df: ReadonlyMap<string, number>; statements: number; avgLen: number },
  model: ReturnType<EmbeddingLearner['finish']>,
  /** The issuer's first global source number: the shard stores sources relative to it (see numberSources). */
  sourceBase: number,
): {
  bytes: Uint8Array;
  vectors: Int8Array;
  terms: string[];
  impacts: Float64Array;
  edges: ReturnType<typeof buildShardEdges>;
} {
  const N = stats.statements;
  const termPostings = new Map<string, { docs: number[]; tfs: number[]; impact: number }>();
  const docLen = new Uint16Array(statements.length);
  const vectors = new Int8Array(statements.length * model.dim);
  statements.forEach((s, local) => {
    const len = Math.min(MAX_DOC_LEN, s.tokens.length);
    docLen[local] = len;
    const tf = new Map<string, number>();
    for (const t of s.tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, count] of tf) {
      const n = Math.min(MAX_TF, count);
      let p = termPostings.get(t);
      if (!p) termPostings.set(t, (p = { docs: [], tfs: [], impact: 0 }));
      p.docs.push(local);
      p.tfs.push(n);
      const impact = bm25TermScore(bm25Idf(N, stats.df.get(t)!), n, len, stats.avgLen);
      if (impact > p.impact) p.impact = impact;
    }
    quantizeUnit(embedTokens(model, s.tokens), vectors, local * model.dim);
  });
  const terms = [...termPostings.keys()].sort();
  const postOffsets = new Uint32Array(terms.length + 1);
  let total = 0;
  terms.forEach((t, i) => {
    postOffsets[i] = total;
    total += termPostings.get(t)!.docs.length;
  });
  postOffsets[terms.length] = total;
  const postDocs = new Uint32Array(total);
  const postTfs = new Uint8Array(total);
  const impacts = new Float64Array(terms.length);
  terms.forEach((t, i) => {
    const p = termPostings.get(t)!;
    postDocs.set(p.docs, postOffsets[i]);
    postTfs.set(p.tfs, postOffsets[i]);
    impacts[i] = p.impact;
  });
  const edges = buildShardEdges(statements);
  // Consensus is within an issuer, so every occurrence's source is one of the issuer's.
  const relative = <T extends { source: number }>(list: readonly T[]): T[] =>
    list.map((o) => ({ ...o, source: o.source - sourceBase }));
  const bytes = encodeShard({
    id: shardId,
    texts: statements.map((s) => s.text),
    source: statements.map((s) => s.source - sourceBase),
    page: statements.map((s) => s.page),
    kind: statements.map((s) => s.kind),
    status: statements.map((s) => s.status),
    offset: Uint32Array.from(statements, (s) => s.offset),
    length: Uint32Array.from(statements, (s) => s.length),
    metric: Uint8Array.from(statements, (s) => s.metrics[0] ?? 0),
    statement: Uint8Array.from(statements, (s) => (s.statement ? financialStatementCode(s.statement) : 0)),
    agree: statements.map((_, i) => relative(consensus.agree(i))),
    disagree: statements.map((_, i) => relative(consensus.disagree(i))),
    edges,
    terms,
    postOffsets,
    postDocs,
    postTfs,
    docLen,
    dim: model.dim,
    vectors,
  });
  return { bytes, vectors, terms, impacts, edges };
}

/** The catalog: sources, companies with their entities, shards, field values and bounds. */
export function buildCatalog(input: {
  docs: readonly FilingDocument[];
  pages: number;
  sources: readonly CatalogSource[];
  statementsPerSource: Uint32Array;
  statements: number;
  shards: ShardInfo[];
  dim: number;
  avgLen: number;
  entities: ReadonlyMap<string, CompanyEntities>;
}): CatalogHeader {
  const { sources } = input;
  const fieldValues = Object.fromEntries(FILTER_FIELDS.map((f) => [f, {} as Record<string, number>])) as Record<
    FilterField,
    Record<string, number>
  >;
  sources.forEach((src, i) => {
    for (const field of FILTER_FIELDS) {
      if (field === 'report_filing_date') continue; // dates are bounded, not enumerated
      const v = src.meta[field];
      if (v) fieldValues[field][v] = (fieldValues[field][v] ?? 0) + input.statementsPerSource[i]!;
    }
  });
  const years = sources.map((s) => Number(s.meta.sec_fiscal_year!.slice(3)));
  const dates = sources
    .map((s) => s.date)
    .filter((d): d is string => !!d)
    .map((d) => Number(d.replace(/-/g, '')));
  const companies = new Map<string, CatalogHeader['companies'][number]>();
  for (const d of input.docs) {
    if (!companies.has(d.ticker)) {
      companies.set(d.ticker, {
        ticker: d.ticker,
        company: d.company,
        cik: d.cik,
        sector: d.gics_sector,
        sub_industry: d.gics_sub_industry,
        aliases: companyAliases(d.company, d.ticker),
      });
    }
  }
  for (const [ticker, { segments, entities }] of input.entities) {
    const c = companies.get(ticker)!;
    if (segments.length) c.segments = segments;
    if (entities.length) c.entities = entities;
  }
  let minYear = Infinity;
  let maxYear = -Infinity;
  for (const y of years) {
    if (y < minYear) minYear = y;
    if (y > maxYear) maxYear = y;
  }
  let minDate = Infinity;
  let maxDate = -Infinity;
  for (const d of dates) {
    if (d < minDate) minDate = d;
    if (d > maxDate) maxDate = d;
  }
  return {
    domain: DOMAIN,
    schema_version: SCHEMA_VERSION,
    analyzer_version: ANALYZER_VERSION,
    built_from: { filings: input.docs.length, pages: input.pages },
    stats: { statements: input.statements, sources: sources.length, avg_statement_terms: input.avgLen },
    sources: [...sources],
    companies: withoutSharedAliases([...companies.values()].sort((a, b) => (a.ticker < b.ticker ? -1 : 1))),
    shards: input.shards,
    field_values: fieldValues,
    numeric_bounds: {
      ...(years.length ? { sec_fiscal_year: { min: minYear, max: maxYear } } : {}),
      ...(dates.length ? { report_filing_date: { min: minDate, max: maxDate } } : {}),
    },
    embedding_dim: input.dim,
  };
}

/**
 * The artifacts of a version, written as they are produced into a staging directory, then moved to
 * `<outDir>/sp500/<version>` once the version (a hash of every artifact's hash) is known.
 */
class VersionWriter {
  private readonly refs = new Map<string, ArtifactRef>();
  readonly staging: string;

  constructor(private readonly outDir: string) {
    this.staging = join(outDir, DOMAIN, `.staging-${process.pid}`);
    rmSync(this.staging, { recursive: true, force: true });
    mkdirSync(join(this.staging, 'shards'), { recursive: true });
  }

  /** Seals and writes one container artifact; shards, graphs and issuer tables are stored by content. */
  write(file: string, bytes: Uint8Array): ArtifactRef {
    mkdirSync(dirname(join(this.staging, file)), { recursive: true });
    seal(bytes);
    writeFileSync(join(this.staging, file), bytes);
    const hash = sha256(bytes);
    const ref: ArtifactRef = {
      file,
      bytes: bytes.byteLength,
      sha256: hash,
      ...(storedByContent(file) ? { content_id: contentIdOf(hash) } : {}),
    };
    this.refs.set(file, ref);
    return ref;
  }

  /** Hashes every ref in the given order into the version, writes the file list and manifest, moves the directory. */
  finish(
    order: string[],
    statements: number,
    embeddingModel: string,
  ): { version: string; dir: string; manifest: Manifest } {
    const { version, manifest, fileList } = versionOf(
      order.map((f) => this.refs.get(f)!),
      statements,
      embeddingModel,
    );
    writeFileSync(join(this.staging, FILE_LIST), fileList);
    writeFileSync(join(this.staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const dir = join(this.outDir, DOMAIN, version);
    rmSync(dir, { recursive: true, force: true }); // an identical rebuild replaces its own bytes
    renameSync(this.staging, dir);
    writeFileSync(join(this.outDir, DOMAIN, 'LATEST'), `${version}\n`);
    return { version, dir, manifest };
  }
}

/**
 * build-state.json, beside a version's artifacts but not one of them (never published): each filing's content hash,
 * what an incremental build compares the corpus against.
 */
export const BUILD_STATE = 'build-state.json';

/**
 * What analyzeFiling makes of a filing: bump it when segmentation or statement extraction changes what a filing
 * yields, so an incremental build (and a refresh) does not carry over issuers the older builder extracted; the
 * analyzer's own version (tokenizing) is ANALYZER_VERSION.
 * 2: cover pages are sources (index-builder/segment/cover.ts).
 * 3: 10-K segmentation reads contents pages titled "Contents", EDGAR's link block and wrapped references, and finds
 *    an Item 1 that lost its heading.
 * 4: an item that points at a note is linked to the note's sentences (index-builder/segment/references.ts).
 * 5: financial statements printed after Part IV are Item 8's; a wrapped reference is one below a line that cannot
 *    end a sentence.
 * 6: an MD&A printed after Part IV is Item 7's.
 * 7: statement titles with footnote markers, the group's name after the title, or a word broken by the layout mark
 *    their rows; statements printed at the end of the MD&A are Item 8's.
 * 8: a pointer is linked to the note and subsection that carry what it points at (a subsection it names, the item's
 *    title), not only to the first note it names; an annual report filed as Exhibit 13 gives Items 7 and 8 its MD&A
 *    and statements, and an Item 8 that only lists the statements' pages is a pointer; a row label wrapped over
 *    several lines is joined; a company's judgement of a loss contingency's likelihood is ASSESSMENT.
 */
export const EXTRACTION_VERSION = 8;

/** Whether a build state was written by a builder that reads filings as this one does (tokens and extraction). */
export function sameExtraction(state: Pick<BuildState, 'analyzer_version' | 'extraction_version'>): boolean {
  return state.analyzer_version === ANALYZER_VERSION && (state.extraction_version ?? 1) === EXTRACTION_VERSION;
}

export interface BuildState {
  analyzer_version: number;
  /** EXTRACTION_VERSION of the builder that wrote it; absent before version 2. */
  extraction_version?: number;
  /**
   * Per filing: its content hash, and its metadata and page count, so that a refresh can carry an issuer over from
   * this version without its filings on disk (incremental.ts, `partialCorpus`).
   */
  filings: Record<string, { ticker: string; hash: string; doc?: FilingDocument; pages?: number }>;
}

export function writeBuildState(
  dir: string,
  entries: readonly Pick<FilingEntry, 'doc' | 'hash' | 'pageCount'>[],
): void {
  const state: BuildState = { analyzer_version: ANALYZER_VERSION, extraction_version: EXTRACTION_VERSION, filings: {} };
  const sorted = [...entries].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : a.doc.doc_id > b.doc.doc_id ? 1 : 0));
  for (const e of sorted)
    state.filings[e.doc.doc_id] = { ticker: e.doc.ticker, hash: e.hash, doc: e.doc, pages: e.pageCount };
  writeFileSync(join(dir, BUILD_STATE), `${JSON.stringify(state)}\n`);
}

/**
 * A version from its artifacts (in publishing order, the directory last): the version id hashes every artifact's
 * name and hash; the manifest points at the directory and at files.json, the list publishing and gc read.
 */
export function versionOf(
  refs: readonly ArtifactRef[],
  statements: number,
  embeddingModel: string,
): { version: string; manifest: Manifest; fileList: string } {
  const version = sha256(refs.map((r) => `${r.file}:${r.sha256}`).join('\n')).slice(0, 16);
  const fileList = `${JSON.stringify({ files: [...refs] } satisfies FileList)}\n`;
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    format_version: FORMAT_VERSION,
    analyzer_version: ANALYZER_VERSION,
    domain: DOMAIN,
    version,
    created_by: 'index-builder',
    directory: refs.find((r) => r.file === DIRECTORY_FILE)!,
    files: { file: FILE_LIST, bytes: Buffer.byteLength(fileList), sha256: sha256(fileList) },
    totals: { files: refs.length, bytes: refs.reduce((a, r) => a + r.bytes, 0), statements },
    embedding_model: embeddingModel,
  };
  return { version, manifest, fileList };
}

/**
 * A full garbage collection when the process runs with --expose-gc (npm run index:build does): V8 sizes its heap by
 * how much a run has allocated, not by what is live, so without it a 4x corpus ends with a larger heap than 1x
 * although every issuer's working set is the same. Called between issuers and passes (a few ms each); a no-op
 * otherwise.
 */
const releaseMemory = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Where a filing's record is while the build runs: spilled to disk, with what the plan needs from it. */
export interface FilingEntry {
  doc: FilingDocument;
  /** Its spilled record; '' for a filing an incremental build takes from the previous version. */
  file: string;
  pageCount: number;
  /** SHA-256 of its metadata and text (filingHash): what an incremental build compares. */
  hash: string;
}

/** A filing's content hash: its metadata and its pages. A changed hash means the filing is processed again. */
export function filingHash(filing: Filing): string {
  const h = createHash('sha256').update(JSON.stringify(filing.doc));
  for (const page of filing.pages) h.update('\f').update(page);
  return h.digest('hex');
}

/** What the segmentation pass leaves: spilled filing records and the sums the later passes need. */
export interface SegmentedCorpus {
  entries: FilingEntry[];
  stats: TermStats;
  learner: EmbeddingLearner;
  /** An incremental build's previous version, for the issuers it reuses (index-builder/incremental.ts). */
  reuse?: ReusedIssuers;
}

/**
 * Issuers none of whose filings changed since a previous version: their shards, graphs and tables are taken from it
 * byte for byte (with a reused embedding model they are what a full build would write), and their statistics are
 * read back from their shards. `stats` of the corpus must already include them (addShardStats).
 */
export interface ReusedIssuers {
  dir: string;
  tables: ReadonlyMap<string, IssuerTable>;
}

/** Adds a shard's statements to corpus statistics, from its postings: what TermStats summed when it was built. */
export function addShardStats(stats: TermStats, shard: Shard): void {
  stats.statements += shard.count;
  for (let i = 0; i < shard.docLen.length; i++) stats.totalLen += shard.docLen[i]!;
  shard.terms.toArray().forEach((t, i) => {
    stats.df.set(t, (stats.df.get(t) ?? 0) + shard.postOffsets[i + 1]! - shard.postOffsets[i]!);
  });
}

/**
 * A shard's per-term impact bounds under corpus statistics, from its postings (as encodeShardStatements computes them).
 */
export function shardImpacts(
  shard: Shard,
  stats: { df: ReadonlyMap<string, number>; statements: number; avgLen: number },
): Float64Array {
  const impacts = new Float64Array(shard.terms.length);
  shard.terms.toArray().forEach((t, i) => {
    const idf = bm25Idf(stats.statements, stats.df.get(t)!);
    let best = 0;
    for (let p = shard.postOffsets[i]!; p < shard.postOffsets[i + 1]!; p++) {
      const impact = bm25TermScore(idf, shard.postTfs[p]!, shard.docLen[shard.postDocs[p]!]!, stats.avgLen);
      if (impact > best) best = impact;
    }
    impacts[i] = best;
  });
  return impacts;
}

/** The catalog sources of one filing of a reused issuer table, as catalogSources made them from its record. */
function reusedSources(table: IssuerTable, docId: string, shard: number): CatalogSource[] {
  const filing = table.filings.findIndex((f) => f.doc_id === docId);
  return table.items.filter((item) => item.filing === filing).map((item) => itemSource(table, item, shard));
}

/**
 * Pass 1: segments each filing as it arrives (the CPU-heavy part), spills its record to `spillDir`, and sums term
 * statistics and embedding counts. Independent per filing, so it is also what a partitioned build spreads.
 */
export async function segmentCorpus(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  spillDir: string,
  options: Pick<BuildOptions, 'embedding' | 'onStage' | 'expectedFilings'> & {
    include?: (doc: FilingDocument) => boolean;
  } = {},
): Promise<SegmentedCorpus> {
  const stage = options.onStage ?? (() => {});
  mkdirSync(spillDir, { recursive: true });
  const stats = new TermStats();
  const learner = new EmbeddingLearner(options.embedding);
  const entries: FilingEntry[] = [];
  for await (const filing of filings) {
    if (options.include && !options.include(filing.doc)) continue;
    const record = analyzeFiling(filing);
    const file = join(spillDir, `${entries.length}.bin`);
    writeFileSync(file, serialize(record));
    entries.push({ doc: record.doc, file, pageCount: record.pageCount, hash: filingHash(filing) });
    for (const s of record.statements) {
      stats.addStatement(s.tokens);
      if (learnsMeaning(s.itemTag)) learner.count(s.tokens);
    }
    stage('segment', entries.length, Math.max(entries.length, options.expectedFilings ?? 0));
  }
  return { entries, stats, learner };
}

/**
 * The whole offline pipeline, streaming: filings are segmented one at a time and spilled to disk (pass 1, which
 * also gathers term statistics and the embedding vocabulary); the co-occurrences for the word vectors are read back
 * in corpus order (pass 2); then each issuer's filings are read back together for what needs them together
 * (consensus across its filings, its entities, its shards), one issuer at a time (pass 3); the corpus-wide tables
 * (lexicon, catalog) come from per-shard and per-issuer summaries. Memory is bounded by the largest issuer plus
 * fixed-size state (the co-occurrence matrix, the term dictionary), not by the corpus. Filings are ordered by
 * doc_id whatever order they arrive in, and no clock or randomness beyond fixed seeds enters the output: identical
 * input gives byte-identical artifacts (test/support/build-in-memory.ts is the in-memory twin it is tested against).
 */
export async function buildIndex(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  options: BuildOptions,
): Promise<BuildResult> {
  mkdirSync(join(options.outDir, DOMAIN), { recursive: true });
  const spill = join(options.outDir, DOMAIN, `.spill-${process.pid}`);
  rmSync(spill, { recursive: true, force: true });
  try {
    return await assembleIndex(await segmentCorpus(filings, spill, options), options);
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}

/** Passes 2 and 3 over a segmented corpus (one build's, or the merged partitions of several). */
export async function assembleIndex(corpus: SegmentedCorpus, options: BuildOptions): Promise<BuildResult> {
  const stage = options.onStage ?? (() => {});
  const graphMinStatements = checkGraphMinStatements(options.graphMinStatements ?? DEFAULT_GRAPH_MIN_STATEMENTS);
  const entries = inCorpusOrder(corpus.entries);
  const writer = new VersionWriter(options.outDir);
  const impactsDir = join(options.outDir, DOMAIN, `.impacts-${process.pid}`);
  try {
    // The plan: shards (one per issuer and fiscal year, contiguous per issuer) and, in corpus order, sources.
    const { keys: shardKeys, byKey: shardByKey } = planShards(entries.map((e) => e.doc));
    const pass2 = embedAndNumberSources(corpus, entries, shardByKey, options);
    releaseMemory(); // the co-occurrence matrix and the records read in pass 2

    // Pass 3: issuer by issuer: consensus across its filings, its shards, its entities.
    const byIssuer = new Map<string, number[]>();
    entries.forEach((e, fi) => {
      const list = byIssuer.get(e.doc.ticker);
      if (list) list.push(fi);
      else byIssuer.set(e.doc.ticker, [fi]);
    });
    const issuers = new IssuerPass(
      { entries, shardKeys, shardByKey, ...pass2, stats: corpus.stats },
      writer,
      graphMinStatements,
      impactsDir,
    );
    let issuersDone = 0;
    for (const [ticker, filingIndexes] of byIssuer) {
      if (issuersDone) releaseMemory(); // the previous issuer's statements, consensus and shards
      stage('shards', ++issuersDone, byIssuer.size);
      const reusedTable = corpus.reuse?.tables.get(ticker);
      if (reusedTable) issuers.copyReusedIssuer(ticker, reusedTable, corpus.reuse!.dir);
      else await issuers.rebuildIssuer(ticker, filingIndexes);
    }
    const reusedIssuers = corpus.reuse ? [...byIssuer.keys()].filter((t) => corpus.reuse!.tables.has(t)).length : 0;
    return writeCorpusTables(
      issuers,
      writer,
      {
        embeddingModel: pass2.embeddingModel,
        sampleFilings: pass2.sampleFilings,
        embeddingMs: pass2.embeddingMs,
        reusedIssuers,
      },
      stage,
    );
  } finally {
    if (existsSync(writer.staging)) rmSync(writer.staging, { recursive: true, force: true });
    rmSync(impactsDir, { recursive: true, force: true });
  }
}

/** The spilled filings sorted by doc_id, whatever order they arrived in; a filing given twice is an error. */
function inCorpusOrder(spilled: readonly FilingEntry[]): FilingEntry[] {
  const entries = [...spilled].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : a.doc.doc_id > b.doc.doc_id ? 1 : 0));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.doc.doc_id === entries[i - 1]!.doc.doc_id)
      throw new Error(`filing ${entries[i]!.doc.doc_id} appears twice in the input`);
  }
  return entries;
}

const readRecord = (e: FilingEntry) => deserialize(readFileSync(e.file)) as FilingRecord;

/** What pass 2 leaves: the catalog's sources in global order, where each filing's and issuer's begin, the model. */
interface NumberedSources {
  sources: CatalogSource[];
  /** Per filing (corpus order), its first global source; per issuer, its first (numberSources). */
  firstSource: Uint32Array;
  sourceBase: Map<string, number>;
  model: LearnedModel;
  /** The model's id, and how many filings it learned from (null when it was reused). */
  embeddingModel: string;
  sampleFilings: number | null;
  embeddingMs: number;
}

/**
 * Pass 2: word vectors (co-occurrences of a bounded sample of filings, in corpus order) unless a model is reused,
 * and the catalog's sources. A reused issuer's sources come from its issuer table, without reading its filings.
 */
function embedAndNumberSources(
  corpus: SegmentedCorpus,
  entries: readonly FilingEntry[],
  shardByKey: ReadonlyMap<string, number>,
  options: BuildOptions,
): NumberedSources {
  const stage = options.onStage ?? (() => {});
  const { learner } = corpus;
  const reused = options.embeddingModel;
  const sample = reused
    ? null
    : embeddingSample(
        entries.map((e) => e.doc.doc_id),
        learner.options.sampleFilings,
      );
  if (!reused) learner.fixVocabulary();
  const filingSources: CatalogSource[][] = new Array(entries.length);
  entries.forEach((e, fi) => {
    stage('embed', fi + 1, entries.length);
    const reusedTable = corpus.reuse?.tables.get(e.doc.ticker);
    if (reusedTable) {
      filingSources[fi] = reusedSources(reusedTable, e.doc.doc_id, shardByKey.get(shardKeyOf(e.doc))!);
      return;
    }
    const record = readRecord(e);
    filingSources[fi] = catalogSources(record, shardByKey.get(shardKeyOf(record.doc))!);
    if (sample?.has(e.doc.doc_id))
      for (const s of record.statements) if (learnsMeaning(s.itemTag)) learner.cooccur(s.tokens);
  });
  const { first: firstSource, base: sourceBase } = numberSources(
    entries.map((e, fi) => ({ ticker: e.doc.ticker, sources: filingSources[fi]!.length })),
  );
  const sources: CatalogSource[] = new Array(
    firstSource.length ? firstSource.reduce((n, _, fi) => n + filingSources[fi]!.length, 0) : 0,
  );
  filingSources.forEach((list, fi) => {
    list.forEach((src, k) => {
      sources[firstSource[fi]! + k] = src;
    });
  });
  const learnStarted = performance.now();
  const model = reused?.model ?? learner.finish();
  const embeddingMs = reused ? 0 : performance.now() - learnStarted;
  const embeddingModel = reused?.id ?? saveModel(join(options.outDir, DOMAIN), model);
  return { sources, firstSource, sourceBase, model, embeddingModel, sampleFilings: sample?.size ?? null, embeddingMs };
}

/** What pass 3 reads: the filings in corpus order, their shard and source numbering, corpus statistics, the model. */
interface PlacedCorpus extends Pick<NumberedSources, 'sources' | 'firstSource' | 'sourceBase' | 'model'> {
  entries: readonly FilingEntry[];
  shardKeys: readonly string[];
  shardByKey: ReadonlyMap<string, number>;
  stats: TermStats;
}

/**
 * Pass 3, one issuer at a time: an unchanged issuer's shards and graphs are copied from the previous version
 * (copyReusedIssuer), any other issuer's are built from its filings (rebuildIssuer). Either way it leaves the same
 * per-shard and per-issuer summaries, from which the corpus-wide tables are written (writeCorpusTables).
 */
class IssuerPass {
  /** By shard number: the catalog's shard entries and graph files (null for a shard without a graph). */
  readonly shardInfos: ShardInfo[];
  readonly graphFiles: (string | null)[];
  readonly impacts: ShardImpacts;
  /** By global source number. */
  readonly statementsPerSource: Uint32Array;
  readonly entities = new Map<string, CompanyEntities>();
  /** The build summary's sums (merge counts only come from rebuilt issuers). */
  readonly byStatus: Record<string, number> = {};
  readonly byKind: Record<string, number> = {};
  readonly edgeCounts: Record<string, number> = Object.fromEntries(EDGE_KINDS.map((k) => [k, 0]));
  readonly merged = { sentences: 0, rows: 0, disagreeing: 0 };
  largestShardBytes = 0;
  graphBytes = 0;
  graphMs = 0;
  reusedBytes = 0;
  private graphBuilder: GraphBuilder | null = null;

  constructor(
    readonly corpus: PlacedCorpus,
    private readonly writer: VersionWriter,
    private readonly graphMinStatements: number,
    impactsDir: string,
  ) {
    this.shardInfos = new Array(corpus.shardKeys.length);
    this.graphFiles = new Array(corpus.shardKeys.length).fill(null);
    this.impacts = new ShardImpacts(impactsDir);
    this.statementsPerSource = new Uint32Array(corpus.sources.length);
  }

  private get bm25Stats() {
    const { stats } = this.corpus;
    return { df: stats.df, statements: stats.statements, avgLen: stats.avgLen };
  }

  /** An unchanged issuer: its shards and graphs byte for byte; impact bounds again under the new statistics. */
  copyReusedIssuer(ticker: string, table: IssuerTable, previousDir: string): void {
    for (const info of table.shards) {
      const shardIndex = this.corpus.shardByKey.get(info.id)!;
      const bytes = new Uint8Array(readFileSync(join(previousDir, info.file)));
      if (this.writer.write(info.file, bytes).content_id !== info.content_id)
        throw new Error(`${info.file} in ${previousDir} does not match its issuer table`);
      this.reusedBytes += bytes.byteLength;
      const shard = decodeShard(bytes);
      this.impacts.addShard(shardIndex, shard.terms.toArray(), shardImpacts(shard, this.bm25Stats));
      // The summary counts every statement and edge, reused or rebuilt.
      for (let i = 0; i < shard.count; i++) {
        const k = statementKind(shard, i);
        const st = statementStatus(shard, i);
        this.byKind[k] = (this.byKind[k] ?? 0) + 1;
        this.byStatus[st] = (this.byStatus[st] ?? 0) + 1;
      }
      for (const k of shard.edges.kind) this.edgeCounts[EDGE_KINDS[k]!]!++;
      this.largestShardBytes = Math.max(this.largestShardBytes, bytes.byteLength);
      if (info.graph_file) {
        const graph = new Uint8Array(readFileSync(join(previousDir, info.graph_file)));
        if (this.writer.write(info.graph_file, graph).content_id !== info.graph_content_id)
          throw new Error(`${info.graph_file} in ${previousDir} does not match its issuer table`);
        this.reusedBytes += graph.byteLength;
      }
      this.graphFiles[shardIndex] = info.graph_file;
      this.shardInfos[shardIndex] = info;
    }
    const base = this.corpus.sourceBase.get(ticker)!;
    table.items.forEach((item, k) => {
      this.statementsPerSource[base + k] = item.statements;
    });
    this.entities.set(ticker, { segments: table.segments ?? [], entities: table.entities ?? [] });
  }

  /** A new or changed issuer: its filings read back together for consensus and entities, then its shards written. */
  async rebuildIssuer(ticker: string, filingIndexes: readonly number[]): Promise<void> {
    const { entries, firstSource, shardByKey, sources } = this.corpus;
    const collector = new EntityCollector();
    const statements: Statement[] = [];
    for (const fi of filingIndexes) {
      const record = readRecord(entries[fi]!);
      observeEntities(collector, record, fi, record.statements);
      for (const s of record.statements) {
        const source = firstSource[fi]! + s.localSource;
        statements.push({ ...s, source, filing: fi, ticker });
        this.statementsPerSource[source]!++;
        this.byStatus[s.status] = (this.byStatus[s.status] ?? 0) + 1;
        this.byKind[s.kind] = (this.byKind[s.kind] ?? 0) + 1;
      }
    }
    const consensus = buildConsensus(statements);
    this.merged.sentences += consensus.mergedSentenceGroups;
    this.merged.rows += consensus.mergedTableRows;
    this.merged.disagreeing += consensus.disagreeingRows;
    const company = entries[filingIndexes[0]!]!.doc;
    for (const [t, found] of collector.finish(
      [{ ticker, company: company.company, aliases: companyAliases(company.company, ticker) }],
      () => statements.map((s) => s.text),
    )) {
      this.entities.set(t, found);
    }

    // This issuer's shards, in shard order; each takes its statements in corpus order.
    const members = new Map<number, number[]>();
    for (const fi of filingIndexes) {
      const shard = shardByKey.get(shardKeyOf(entries[fi]!.doc))!;
      if (!members.has(shard)) members.set(shard, []);
    }
    statements.forEach((s, i) => {
      members.get(sources[s.source]!.shard)!.push(i);
    });
    for (const [shardIndex, ids] of [...members].sort((a, b) => a[0] - b[0])) {
      const shardConsensus = {
        agree: (k: number) => consensus.agree.get(ids[k]!) ?? [],
        disagree: (k: number) => consensus.disagree.get(ids[k]!) ?? [],
      };
      await this.writeShard(
        shardIndex,
        ids.map((i) => statements[i]!),
        shardConsensus,
        ticker,
      );
    }
  }

  /** One rebuilt shard: encoded and written, its graph when it is large enough, and its catalog entry. */
  private async writeShard(
    shardIndex: number,
    shardStatements: readonly Statement[],
    consensus: Parameters<typeof encodeShardStatements>[2],
    ticker: string,
  ): Promise<void> {
    const { model, sources } = this.corpus;
    const shardId = this.corpus.shardKeys[shardIndex]!;
    const encoded = encodeShardStatements(
      shardId,
      shardStatements,
      consensus,
      this.bm25Stats,
      model,
      this.corpus.sourceBase.get(ticker)!,
    );
    for (const list of encoded.edges) for (const e of list) this.edgeCounts[e.kind]!++;
    this.impacts.addShard(shardIndex, encoded.terms, encoded.impacts);
    const file = `shards/${shardId}.bin`;
    const contentId = this.writer.write(file, encoded.bytes).content_id!;
    const head = shardHead(encoded.bytes); // after the write: the head includes the seal
    this.largestShardBytes = Math.max(this.largestShardBytes, encoded.bytes.byteLength);
    const shardSources = sources.filter((s) => s.shard === shardIndex);
    const distinct = (f: (s: CatalogSource) => string | null) =>
      [...new Set(shardSources.map(f).filter((v): v is string => !!v))].sort();
    let graphFile: string | null = null;
    let graphContentId: string | undefined;
    let shardGraphBytes = 0;
    // HNSW graphs for the large shards; the wasm is only loaded when some shard needs one.
    const count = shardStatements.length;
    if (count > 0 && count >= this.graphMinStatements) {
      const started = performance.now();
      this.graphBuilder ??= await openGraphBuilder();
      graphFile = `graphs/${shardId}.bin`;
      const graphRef = this.writer.write(graphFile, this.graphBuilder.build(shardId, encoded.vectors, model.dim));
      shardGraphBytes = graphRef.bytes;
      graphContentId = graphRef.content_id;
      this.graphBytes += shardGraphBytes;
      this.graphMs += performance.now() - started;
    }
    this.graphFiles[shardIndex] = graphFile;
    this.shardInfos[shardIndex] = {
      id: shardId,
      file,
      statement_count: count,
      tickers: distinct((s) => s.meta.sec_ticker),
      fiscal_years: distinct((s) => s.meta.sec_fiscal_year),
      form_types: distinct((s) => s.meta.sec_form_type),
      graph_file: graphFile,
      ...(graphFile ? { graph_bytes: shardGraphBytes } : {}),
      content_id: contentId,
      ...(graphContentId ? { graph_content_id: graphContentId } : {}),
      ...head,
    };
  }
}

/**
 * The corpus-wide tables, from pass 3's per-shard and per-issuer summaries, split into the directory, issuer tables
 * and term blocks (index-builder/shards/partitioned.ts); then the version is sealed and the build summarised.
 */
function writeCorpusTables(
  issuers: IssuerPass,
  writer: VersionWriter,
  counts: { embeddingModel: string; sampleFilings: number | null; embeddingMs: number; reusedIssuers: number },
  stage: NonNullable<BuildOptions['onStage']>,
): BuildResult {
  const { entries, sources, stats } = issuers.corpus;
  stage('lexicon', 0, 1);
  const lexicon = issuers.impacts.lexicon(stats.df, stats.statements, stats.avgLen);
  stage('lexicon', 1, 1);
  stage('catalog', 0, 1);
  const pages = entries.reduce((a, e) => a + e.pageCount, 0);
  const catalog = buildCatalog({
    docs: entries.map((e) => e.doc),
    pages,
    sources,
    statementsPerSource: issuers.statementsPerSource,
    statements: stats.statements,
    shards: issuers.shardInfos,
    dim: issuers.corpus.model.dim,
    avgLen: stats.avgLen,
    entities: issuers.entities,
  });
  const partitioned = partitionedArtifacts(catalog, issuers.statementsPerSource, lexicon, issuers.corpus.model);
  for (const [file, bytes] of partitioned) writer.write(file, bytes);
  stage('catalog', 1, 1);
  const entityCounts: Record<string, number> = { segment: 0, product: 0, counterparty: 0 };
  for (const c of catalog.companies) for (const e of c.entities ?? []) entityCounts[e.kind]!++;

  const shardFileList = issuers.shardInfos.map((s) => s.file);
  const graphFileList = issuers.graphFiles.filter((f): f is string => f !== null);
  const { version, dir, manifest } = writer.finish(
    [...shardFileList, ...graphFileList, ...partitioned.map(([f]) => f)],
    stats.statements,
    counts.embeddingModel,
  );
  writeBuildState(dir, entries);
  return {
    version,
    dir,
    manifest,
    summary: {
      filings: entries.length,
      pages,
      sources: sources.length,
      statements: stats.statements,
      byStatus: issuers.byStatus,
      byKind: issuers.byKind,
      shards: issuers.shardInfos.length,
      mergedSentenceGroups: issuers.merged.sentences,
      mergedTableRows: issuers.merged.rows,
      disagreeingRows: issuers.merged.disagreeing,
      edges: issuers.edgeCounts,
      largestShardBytes: issuers.largestShardBytes,
      graphs: graphFileList.length,
      graphBytes: issuers.graphBytes,
      graphMs: issuers.graphMs,
      entities: entityCounts,
      bytes: manifest.totals.bytes,
      embeddingModel: counts.embeddingModel,
      embeddingSampleFilings: counts.sampleFilings,
      embeddingMs: counts.embeddingMs,
      reusedIssuers: counts.reusedIssuers,
      reusedBytes: issuers.reusedBytes,
    },
  };
}
