import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import { encodeShard, MANIFEST_FORMAT } from '../index-format/codec';
import { FORMAT_VERSION } from '../index-format/container';
import { seal, sha256 } from './shards/seal';
import type {
  ArtifactRef,
  CatalogHeader,
  CatalogSource,
  EpistemicStatus,
  FileList,
  IssuerTable,
  Manifest,
  Shard,
  ShardInfo,
  StatementKind,
} from '../index-format/types';
import { FILTER_FIELDS, type FilterField } from '../index-format/fields';
import { embedTokens, quantizeUnit } from '../index-format/embed';
import { metricByCode } from '../index-format/metrics';
import { financialStatementCode, type FinancialStatement } from '../index-format/financial-statements';
import { ANALYZER_VERSION, hyphenCompounds, tokenize } from '../index-format/tokenize';
import { bm25Idf, bm25TermScore } from '../index-format/bm25';
import { companyAliases, withoutSharedAliases } from './entities/aliases';
import { DIRECTORY_FILE, storedByContent } from './shards/partitioned';
import { contentIdOf, FILE_LIST } from '../index-format/keys';
import type { buildConsensus } from './statements/consensus';
import { termBoundsOf, type TermBounds } from './impact-bounds';
import type { EmbeddingLearner, EmbeddingOptions, LearnedModel } from './vectors/embeddings';
import type { EntityCollector, CompanyEntities } from './entities/collect';
import { buildShardEdges } from './graph/evidence-graph';
import { referenceLinks, type PlacedStatement } from './segment/references';
import type { Filing, FilingDocument } from './segment/read-corpus';
import { coverSection, coverStatements } from './segment/cover';
import { segmentFiling } from './segment/segment';
import { extractStatements, wrappingText } from './statements/statements';
import { factText, type TableFact } from './statements/table-facts';

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
  /**
   * The joined forms of its hyphenated words (index-format/tokenize.ts hyphenCompounds): posted beside `tokens`, not
   * counted in its length and not read by the word-vector model, which sees each word once.
   */
  compounds?: string[];
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

function compoundsOf(text: string): { compounds?: string[] } {
  const compounds = hyphenCompounds(text);
  return compounds.length ? { compounds } : {};
}

/**
 * The text a statement is indexed by: its own, but a table row's with its span printed with every cell, as each cell
 * states it ("18,299 for three months ended March 31, 2023 | 16,728 for three months ended March 31, 2022"). The row's
 * text prints a span once per run of cells (table-facts.ts factText) to spend less of a caller's budget; its terms,
 * and so its rank, stay those of the cells.
 */
function lexicalText(s: { text: string; fact?: TableFact }): string {
  return s.fact ? factText(s.fact, false) : s.text;
}

/** What a statement is posted under: its tokens, then its hyphenated words' joined forms. */
export function postedTerms(s: Pick<StatementDraft, 'tokens' | 'compounds'>): readonly string[] {
  return s.compounds ? [...s.tokens, ...s.compounds] : s.tokens;
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

/**
 * The year a filing's fiscal year ends in: its label, or the year of its period end when that is later (a 52/53-week
 * year ending early in January keeps the previous year's label: Kraft Heinz's fiscal 2015 ended January 3, 2016).
 */
function fiscalYearEnd(d: FilingDocument): number {
  return Math.max(d.fiscal_year, Number(d.period_of_report.slice(0, 4)));
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
  const wrapping = wrappingText(filing.pages);
  for (const section of sections) {
    let id = sourceId(d, section.itemCode);
    // Two sections with one tag in one filing (a restarted numbering) stay apart with a suffix.
    const dup = seenIds.get(id) ?? 0;
    seenIds.set(id, dup + 1);
    if (dup) id = `${id}-${dup + 1}`;
    const raw =
      section === cover
        ? coverStatements(section, d.form_type)
        : extractStatements(section, d.form_type, wrapping, fiscalYearEnd(d));
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
      const lexical = lexicalText(s);
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
        tokens: withMetricTerms(tokenize(lexical), s.metrics),
        ...compoundsOf(lexical),
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

  addStatement(s: Pick<StatementDraft, 'tokens' | 'compounds'>): void {
    this.statements++;
    this.totalLen += Math.min(MAX_DOC_LEN, s.tokens.length);
    for (const t of new Set(postedTerms(s))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  get avgLen(): number {
    return this.statements ? this.totalLen / this.statements : 0;
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
  model: ReturnType<EmbeddingLearner['finish']>,
  /** The issuer's first global source number: the shard stores sources relative to it (see numberSources). */
  sourceBase: number,
): {
  bytes: Uint8Array;
  vectors: Int8Array;
  terms: string[];
  /** What the term impact bounds need of the postings (impact-bounds.ts): they depend on corpus statistics. */
  bounds: TermBounds;
  edges: ReturnType<typeof buildShardEdges>;
} {
  const termPostings = new Map<string, { docs: number[]; tfs: number[] }>();
  const docLen = new Uint16Array(statements.length);
  const vectors = new Int8Array(statements.length * model.dim);
  statements.forEach((s, local) => {
    const len = Math.min(MAX_DOC_LEN, s.tokens.length);
    docLen[local] = len;
    const tf = new Map<string, number>();
    for (const t of postedTerms(s)) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, count] of tf) {
      const n = Math.min(MAX_TF, count);
      let p = termPostings.get(t);
      if (!p) termPostings.set(t, (p = { docs: [], tfs: [] }));
      p.docs.push(local);
      p.tfs.push(n);
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
  terms.forEach((t, i) => {
    const p = termPostings.get(t)!;
    postDocs.set(p.docs, postOffsets[i]);
    postTfs.set(p.tfs, postOffsets[i]);
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
  return { bytes, vectors, terms, bounds: termBoundsOf(terms, postOffsets, postDocs, postTfs, docLen), edges };
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
 * Writes sealed artifacts under a root folder and keeps a reference (bytes, hash, content id) to each: a partition
 * job's objects (index-builder/partition.ts) or a version's staging folder.
 */
export class ArtifactWriter {
  protected readonly refs = new Map<string, ArtifactRef>();
  /** Folders made so far: a version holds thousands of files in a few folders. */
  private readonly folders = new Set<string>();

  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  /** The folder of `path` (a file under root), made once. */
  protected folderFor(path: string): void {
    const folder = dirname(path);
    if (this.folders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    this.folders.add(folder);
  }

  /** Seals and writes one container artifact; shards, graphs and issuer tables are stored by content. */
  write(file: string, bytes: Uint8Array): ArtifactRef {
    this.folderFor(join(this.root, file));
    seal(bytes);
    writeFileSync(join(this.root, file), bytes);
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

  /** Every artifact written so far, in the order written. */
  written(): ArtifactRef[] {
    return [...this.refs.values()];
  }
}

/**
 * The artifacts of a version, written as they are produced into a staging directory, then moved to
 * `<outDir>/sp500/<version>` once the version (a hash of every artifact's hash) is known.
 */
export class VersionWriter extends ArtifactWriter {
  constructor(private readonly outDir: string) {
    const staging = join(outDir, DOMAIN, `.staging-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    super(staging);
  }

  get staging(): string {
    return this.root;
  }

  /**
   * An artifact another writer made (a partition job's object), linked into the version: hard-linked when the
   * two folders share a file system (no bytes copied), else copied. Its reference is the one that writer kept.
   */
  adopt(ref: ArtifactRef, from: string): void {
    const to = join(this.root, ref.file);
    const missing = () =>
      new Error(
        `${from} is missing: the partition's objects were not handed to the merge (if its job uploaded them with ` +
          'index:publish -- --partial, merge with --objects-published)',
      );
    if (from === to) {
      if (!existsSync(from)) throw missing();
    } else {
      this.folderFor(to);
      try {
        linkSync(from, to);
      } catch (e) {
        if (!existsSync(from)) throw missing();
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
          rmSync(to);
          linkSync(from, to);
        } else copyFileSync(from, to); // another file system: no hard link across
      }
    }
    this.refs.set(ref.file, ref);
  }

  /**
   * An artifact already in the bucket (a partition job uploaded it): listed in the version, not in its folder;
   * publishVersion checks the bucket holds it.
   */
  adoptStored(ref: ArtifactRef): void {
    this.refs.set(ref.file, ref);
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
    writeFileSync(join(this.root, FILE_LIST), fileList);
    writeFileSync(join(this.root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const dir = join(this.outDir, DOMAIN, version);
    rmSync(dir, { recursive: true, force: true }); // an identical rebuild replaces its own bytes
    renameSync(this.root, dir);
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
 * 9: a table row group under a label line of its own, closed by an unlabeled total, carries that label, and the
 *    total is the label's row ("Net revenue: Data Center Group: 26,103 ..."); a header line printing its span and
 *    month-day before the years ("Three Months Ended September 30,   2023   2022") gives its columns that span.
 * 10: a financial statement's title forgets the column spans of the statement before it ("Three Months Ended" over
 *    comprehensive income is not the balance sheet's), unless it is the same statement continued.
 * 11: a row counting shares ("Weighted-average shares outstanding") is in "millions of shares", not USD; "earnings per
 *    ordinary share" is per share.
 * 12: a restated row's "same value for ..." note names each agreeing period once, however many of its columns print
 *    it (the merge keeps an issuer's earlier notes byte for byte, so an incremental build must not mix the two).
 * 13: a line of column headings comparing periods ("2016   2015   2014   % Change   % Change") is not a sentence.
 * 14: a row naming a ratio ("Tier 1 capital ratio: 15.0") is not in the caption's dollars.
 * 15: a row's own label decides whether it counts shares or is an amount per share before its group's ("Shares used
 *    in computing earnings per share: Basic" counts shares, "Average price paid per share" is per share).
 * 16: a span printed with the years it covers ("Year Ended December 31, 2015, 2014, and 2013"), "(unaudited)" or a
 *    footnote letter names its period once ("year ended December 31, 2015"); a date printed in capitals reads as one.
 * 17: a label stating the amount per share ("Dividends declared ($4.70 per share)") totals dollars; the denominator
 *    of earnings per share counts shares and its numerator is the earnings; figures in the thousands under a
 *    per-share group label are not per share.
 * 18: a month-day printed in capitals reads "May 31" whichever header line gave it (a month-day line, a span's year
 *    end), not only a date cell.
 * 19: a share's price ("Year-end stock price", "Price range of common stock: High") is an amount per share, not in
 *    the caption's millions.
 * 20: figures in percentage or basis points ("15 pts", "(8)pts", "(130 ) bp") and negatives whose closing parenthesis
 *    the layout split off ("(2,553 )") make rows; such lines were dropped.
 * 21: a row of dashes alone has the unit it had before 20 ("%"), not points.
 * 22: lines with cells that hold no figure ("NM", "N/A", "NA", "—%") make rows too; the cell keeps its column.
 * 23: a header whose years repeat under group headings ("Net Sales   Operating Income") names each cell's group, in
 *    the row's text and in what the cell matches across filings.
 * 24: a table whose columns are not periods ("Operating Leases   Finance Leases   Total") names each cell by its
 *    column heading, read from one line above its first row.
 * 25: a dollar inside parentheses ("($2,128)") is a negative figure, so its line makes a row.
 * 26: a footnote mark where a figure would stand ("*", "(b)") is a cell with no value; before the first figure it is
 *    the label's.
 * 27: sub-columns repeated under each period ("Dollars   Percent of Total") name their cells; a heading line over rows
 *    closed by a total of its own ("Total", "Total current assets") labels them.
 * 28: column headings wrapped over lines with a cell for every column join cell by cell ("Amortized   Estimated"
 *    over "Cost   Fair Value"), sub-column headings too.
 * 29: a row label as long as a line of prose, wrapped once onto its row or onto its figures alone, is that row's label
 *    (it ended the table as prose, leaving the rows after it without periods).
 * 30: a column headed "At December 31, 2021" or "As of ..." is that date's (a balance sheet's header).
 * 31: a cell printed with a trailing comma ("31,") no longer joins the next cell as sub-columns do (27's printing).
 * 32: a period on a line of its own over a block of rows whose columns have headings ("Fiscal 2016" in a segment
 *    table) is each of the block's cells' period, in its column's group.
 * 33: the fair-value hierarchy's columns ("Level 1   Level 2   Level 3   Total") are headings, though they end in a
 *    digit.
 * 34: a table whose columns are headings under one date ("December 31, 2024" over "Operating Leases   Finance Leases
 *    Total") gives each cell that date in its heading's group, printed and matched across filings as sub-columns are.
 * 35: a table that prints no scale of its own takes the one its introducing sentence gives ("... were as follows (in
 *    millions):").
 * 36: a caption that is the scale alone in parentheses ("(Millions)", 3M's) is read, as "(In millions)" was; a line of
 *    column headings that starts with one gives its table that scale.
 * 37: column headings wrapped over two lines where the upper line has fewer cells ("Latin" over "America") are lined
 *    up by the filing's own text (statements.ts wrappedOver); before, such columns had no headings.
 * 38: a line of one cell over column headings joins them where the filing's text does ("Accumulated" over "Other
 *    Comprehensive Loss"), and columns named alike after joins by text keep no headings.
 * 39: a long row label that breaks inside a date ("... as of December" / "31, 2022)   34,330   31,580") takes the
 *    date's rest, and the figures after it are its row; before, the label was prose and ended the table.
 * 40: the same for a label broken after the date's day ("... as of December 25," / "2021)   30,912   28,006").
 * 41: month-days after a caption ("(In millions) (Unaudited)   March 31,   March 31,"), and one month-day per span
 *    over its years, date the columns: "for three months ended March 31, 2023", not "three months ended 2023".
 * 42: a line of group names over a run of sub-columns repeated once per group ("Owned   Leased" under each kind of
 *    plant) names each column by its group and sub-column (statements.ts spanningGroups).
 * 43: a span shared by a run of a row's cells is printed once ("three months ended March 31: 18,299 for 2023 |
 *    16,728 for 2022"); the row is still indexed by every cell's period (lexicalText), and its period keys unchanged.
 * 44: columns headed by a fiscal quarter or its year to date ("Q2 2023   Q2 2022   YTD 2023   YTD 2022") are periods,
 *    keyed by the quarter ("2023Q2", "2023Q2/YTD"); before, the line was not a header and its rows had no periods.
 * 45: two month-days set closer than a column gap ("October 29,  October 30,", "Mar 31, Dec 31,") are two columns'.
 * 46: rows labelled by a year ("2024   $   2,166   $   834", a schedule of payments by year) are rows; before, they
 *    were dropped. A sentence introducing a table of its own ("... are as follows:") ends the table before it.
 * 47: cells of words in a table's text column ("USD Fixed", a product's indication, a derivative's balance-sheet line)
 *    join the row's label; before, such rows were dropped.
 * 48: a header of such columns before its years ("(in millions)   Balance Sheet Location   2019   2018") is a period
 *    header; a sentence that introduces a table ends the table before it wherever its "following" stands.
 * 49: a cell of years ("12.0 years", a lease term or a useful life) is a value with its unit, a range of them ("3 - 11
 *    years") a text column's cell; "Year Ending June 30," heads a schedule's label column as "Fiscal Year" does.
 * 50: any heading of the label column ("State or Territory", "Subsidiary") before one heading per value, when no row
 *    of the table has a value under it and no wrapped line stands above it.
 * 51: a column of a year after the one the filing's fiscal year ends in is a schedule's future year ("252 for 2016"),
 *    keyed by no period; before, "252 for FY2016" matched the next annual report's FY2016 amount.
 * 52: a footnote mark printed against a figure ("39,240(b)") is dropped from it; before, the row was not read.
 * 53: a sentence over 900 characters (a run-on list) is read as pieces cut at its bullets, semicolons or commas;
 *    before, its text after the 900th character reached no statement.
 * 54: a page's run of lines set in two columns of prose (JPMorgan's 10-Qs) is read left column first, then right;
 *    before, each line joined the two columns' words, so its sentences interleaved two.
 * 55: a page's running header between the two halves of a sentence ("... we consider events or" / "ADOBE INC." /
 *    "circumstances including ...") is skipped; before, it ended the paragraph and the sentence read as two.
 * 56: a legal citation's abbreviations ("v.", "Sup. Ct.", "Cty.") end no sentence; before, a case name read as two.
 * 57: a heading-like line that ends with a word no heading ends with, goes on in lower case and ends its sentence
 *    within a few lines is the sentence's first line; before, it was dropped as a heading.
 * 58: a page's running head or foot that prints the page number ("MD&A   35", "2017 Financial Report   45") is no
 *    statement (statements/page-marks.ts); before, it was a row ("MD&A: 35") or joined the sentence it broke.
 * 59: the same with the title one space from the number ("2019 FORM 10-K 27", "26 NIKE, INC."); before, three.
 * 60: a title three or more pages of a section print word for word at their top ("Pfizer Inc. and Subsidiary
 *    Companies") is a running head: no statement, and a sentence it cuts reads whole; before, it was prose.
 * 61: a title a page carries over ("Income Taxes (continued)") is a running head on any number of pages.
 * 62: a paragraph open after a table goes on through its short lines, and a line ending in a colon over prose starts
 *    that prose; before, both were held as a row group's label and dropped when no row followed.
 * 63: a line ending on a word no heading ends with ("... Call of Duty: Mobile; and"), inside a sentence an open
 *    paragraph left on such a word, goes on with it; before, a capital at its start made it a heading, dropped.
 * 64: the first line of a title carried over on two lines ("... (amounts in millions, except per share," over "...
 *    data) (Continued)"), printed above the second on three or more pages, is a running head; before, it was prose.
 * 65: column headings comparing years with "vs." ("2018   2017   2016   2018 vs. 2017   2017 vs. 2016"), and lines of
 *    periods alone ("2024   2025   2026   Thereafter   Total"), state nothing; before, only comparing headings with
 *    "change", "increase" or "decrease" were no statement.
 */
export const EXTRACTION_VERSION = 65;

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

/**
 * Pass 1: segments each filing as it arrives (the CPU-heavy part), spills its record to `spillDir`, and sums term
 * statistics. Independent per filing, so it is also what a partitioned build spreads.
 */
export async function segmentCorpus(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  spillDir: string,
  options: Pick<BuildOptions, 'onStage' | 'expectedFilings'> & {
    include?: (doc: FilingDocument) => boolean;
  } = {},
): Promise<SegmentedCorpus> {
  const stage = options.onStage ?? (() => {});
  mkdirSync(spillDir, { recursive: true });
  const stats = new TermStats();
  const entries: FilingEntry[] = [];
  for await (const filing of filings) {
    if (options.include && !options.include(filing.doc)) continue;
    const record = analyzeFiling(filing);
    const file = join(spillDir, `${entries.length}.bin`);
    writeFileSync(file, serialize(record));
    entries.push({ doc: record.doc, file, pageCount: record.pageCount, hash: filingHash(filing) });
    for (const s of record.statements) stats.addStatement(s);
    stage('segment', entries.length, Math.max(entries.length, options.expectedFilings ?? 0));
  }
  return { entries, stats };
}
