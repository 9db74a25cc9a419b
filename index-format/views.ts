import type {
  CatalogCompany,
  CatalogHeader,
  CatalogSource,
  ClaimOccurrence,
  Directory,
  DirectoryCompany,
  EmbeddingModel,
  IssuerItem,
  IssuerTable,
  Lexicon,
  Shard,
  TermBlock,
} from './types';
import { NO_VECTOR } from './types';

/**
 * The partitioned index seen as the core's plain values: a catalog scoped to some issuers, and the lexicon and
 * word vectors of some terms. Pure functions over decoded artifacts, shared by the Worker's R2 reader and the file
 * reader of tests and benchmarks, so both hand the core exactly the same values.
 */

const FISCAL_YEAR_TERM = /^fy\d{4}$/;

/**
 * The term block holding a term: FNV-1a of its UTF-16 code units (of the bare year for `fy<year>`), modulo the block
 * count. Builder and Worker agree.
 */
export function termBlockOf(term: string, blocks: number): number {
  // `fy<year>` lies in the block of `<year>`: a question that names a year looks up both (src/question/terms.ts),
  // so they cost one read.
  const key = FISCAL_YEAR_TERM.test(term) ? term.slice(2) : term;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % blocks;
}

export const termBlockFile = (block: number) => `terms/${block}.bin`;
export const issuerFile = (ticker: string) => `issuers/${ticker}.bin`;

/** Lookups over a directory: companies by ticker and the owner of a shard number. */
export class DirectoryIndex {
  private readonly byTicker = new Map<string, DirectoryCompany>();
  /** Companies ordered by their first shard, for a binary search by shard number. */
  private readonly byFirstShard: DirectoryCompany[];

  constructor(readonly directory: Directory) {
    for (const c of directory.companies) this.byTicker.set(c.ticker, c);
    this.byFirstShard = [...directory.companies].sort((a, b) => a.shards.first - b.shards.first);
  }

  company(ticker: string): DirectoryCompany | undefined {
    return this.byTicker.get(ticker);
  }

  /** The company whose shard range holds `shard`, or undefined. */
  ownerOfShard(shard: number): DirectoryCompany | undefined {
    let lo = 0;
    let hi = this.byFirstShard.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.byFirstShard[mid]!;
      if (shard < c.shards.first) hi = mid - 1;
      else if (shard >= c.shards.first + c.shards.fiscal_years.length) lo = mid + 1;
      else return c;
    }
    return undefined;
  }
}

function catalogCompany(c: DirectoryCompany, table: IssuerTable | undefined): CatalogCompany {
  const out: CatalogCompany = {
    ticker: c.ticker,
    company: c.company,
    cik: c.cik,
    sector: c.sector,
    sub_industry: c.sub_industry,
    aliases: c.aliases,
  };
  if (table?.segments?.length) out.segments = table.segments;
  if (table?.entities?.length) out.entities = table.entities;
  return out;
}

/**
 * One item of an issuer table as a catalog source in shard `shard`: the shape the builder gives a filing's items
 * (index-builder/build.ts catalogSources), metadata fields in the same order.
 */
export function itemSource(table: IssuerTable, item: IssuerItem, shard: number): CatalogSource {
  const f = table.filings[item.filing]!;
  return {
    id: item.id,
    type: f.type,
    date: f.date,
    doc_id: f.doc_id,
    company: f.company,
    period_of_report: f.period_of_report,
    fiscal_period: f.fiscal_period,
    item_title: item.item_title,
    page_start: item.page_start,
    page_end: item.page_end,
    shard,
    meta: {
      report_filing_date: f.meta.report_filing_date,
      sec_fiscal_year: f.meta.sec_fiscal_year,
      sec_fiscal_year_end: f.meta.sec_fiscal_year_end,
      sec_form_type: f.meta.sec_form_type,
      sec_gics_sector: f.meta.sec_gics_sector,
      sec_gics_sub_industry: f.meta.sec_gics_sub_industry,
      sec_item_tag: item.item_tag,
      sec_ticker: f.meta.sec_ticker,
    },
  };
}

/** The catalog sources of one issuer table, with their global source indices (placed by its directory entry). */
export function issuerSources(
  table: IssuerTable,
  company: DirectoryCompany,
): { index: number; source: CatalogSource }[] {
  return table.items.map((item, k) => ({
    index: company.sources.first + k,
    source: itemSource(table, item, company.shards.first + item.shard),
  }));
}

/**
 * The indexes a catalog's `sources` (or `shards`) array holds, ascending. A scoped catalog's arrays hold its issuers'
 * entries at their global numbers and nothing else; walking them with forEach or filter visits every hole, time in
 * proportion to the corpus (about 0.5 ms per walk at 400,000 sources, several walks per request). scopedCatalog
 * records what it filled; any other array is walked once and remembered.
 */
export function heldIndexes(entries: readonly unknown[]): readonly number[] {
  let held = HELD.get(entries);
  if (!held) {
    const out: number[] = [];
    entries.forEach((_, i) => {
      out.push(i);
    });
    HELD.set(entries, (held = out));
  }
  return held;
}

/** The sources a catalog holds (heldIndexes). */
export const heldSources = (sources: readonly CatalogSource[]): readonly number[] => heldIndexes(sources);

/** The held sources themselves, in index order (for filters over a catalog's sources). */
export function heldSourceList(sources: readonly CatalogSource[]): CatalogSource[] {
  return heldSources(sources).map((i) => sources[i]!);
}

const HELD = new WeakMap<readonly unknown[], readonly number[]>();

/**
 * catalogCompany per table (its issuer in scope) or per directory entry (out of scope); weak, so eviction frees them.
 */
function cachedCatalogCompany(c: DirectoryCompany, table: IssuerTable | undefined): CatalogCompany {
  if (!table) {
    let out = COMPANY_WITHOUT_TABLE.get(c);
    if (!out) COMPANY_WITHOUT_TABLE.set(c, (out = catalogCompany(c, undefined)));
    return out;
  }
  const cached = COMPANY_WITH_TABLE.get(table);
  if (cached && cached.entry === c) return cached.company;
  const company = catalogCompany(c, table);
  COMPANY_WITH_TABLE.set(table, { entry: c, company });
  return company;
}
const COMPANY_WITHOUT_TABLE = new WeakMap<DirectoryCompany, CatalogCompany>();
const COMPANY_WITH_TABLE = new WeakMap<IssuerTable, { entry: DirectoryCompany; company: CatalogCompany }>();

/**
 * The catalog the core works on, scoped to the issuers whose tables are given: every company, and the sources and
 * shards of the scoped issuers at their global indices. `sources` and `shards` are sparse arrays: positions of
 * other issuers are holes, and code that visits them goes through heldIndexes. Nothing here costs time in proportion
 * to the corpus: the arrays are not sized to the index (sizing one to 40,000 sources costs 0.7 ms a request), so
 * they end after the last scoped entry; company entries are built once per directory entry (and table), so a
 * request does not rebuild one per issuer of the index; they only reference the directory's and tables' arrays.
 */
export function scopedCatalog(directory: Directory, tables: readonly IssuerTable[]): CatalogHeader {
  const byTicker = new Map(tables.map((t) => [t.ticker, t]));
  const sources: CatalogSource[] = [];
  const shards: CatalogHeader['shards'] = [];
  const heldSourceIndexes: number[] = [];
  const heldShardIndexes: number[] = [];
  const scoped = tables.flatMap((table) => {
    const company = directory.companies.find((c) => c.ticker === table.ticker);
    return company ? [{ table, company }] : [];
  });
  // Filled from the highest index down: an array first written far from its start stays sparse (a hash of what it
  // holds), where writing upwards from a low index would grow a dense store up to the highest.
  scoped.sort((a, b) => b.company.shards.first - a.company.shards.first);
  for (const { table, company } of scoped) {
    const own = issuerSources(table, company);
    for (let k = own.length - 1; k >= 0; k--) {
      sources[own[k]!.index] = own[k]!.source;
      heldSourceIndexes.push(own[k]!.index);
    }
    for (let k = table.shards.length - 1; k >= 0; k--) {
      shards[company.shards.first + k] = table.shards[k]!;
      heldShardIndexes.push(company.shards.first + k);
    }
  }
  HELD.set(
    sources,
    heldSourceIndexes.sort((a, b) => a - b),
  );
  HELD.set(
    shards,
    heldShardIndexes.sort((a, b) => a - b),
  );
  return {
    domain: directory.domain,
    schema_version: directory.schema_version,
    analyzer_version: directory.analyzer_version,
    built_from: directory.built_from,
    stats: directory.stats,
    sources,
    companies: directory.companies.map((c) => cachedCatalogCompany(c, byTicker.get(c.ticker))),
    shards,
    field_values: directory.field_values,
    numeric_bounds: directory.numeric_bounds,
    embedding_dim: directory.embedding_dim,
  };
}

/** Lexicon and word vectors of `terms` (those in the index), from the blocks that hold them. */
export function termTable(
  directory: Directory,
  blocks: ReadonlyMap<number, TermBlock>,
  terms: Iterable<string>,
): { lexicon: Lexicon; model: EmbeddingModel } {
  const dim = directory.embedding_dim;
  const found: { term: string; block: TermBlock; at: number }[] = [];
  for (const term of new Set(terms)) {
    const block = blocks.get(termBlockOf(term, directory.terms.blocks));
    if (!block) continue;
    const at = binarySearch(block.terms, term);
    if (at >= 0) found.push({ term, block, at });
  }
  found.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  const n = found.length;
  const df = new Uint32Array(n);
  const restImpact = new Uint8Array(n);
  const shardOffsets = new Uint32Array(n + 1);
  let postings = 0;
  found.forEach(({ block, at }, i) => {
    df[i] = block.df[at]!;
    restImpact[i] = block.restImpact[at]!;
    shardOffsets[i] = postings;
    postings += block.shardOffsets[at + 1]! - block.shardOffsets[at]!;
  });
  shardOffsets[n] = postings;
  const shardIds = new Uint16Array(postings);
  const shardImpact = new Uint8Array(postings);
  const vocab: string[] = [];
  const withVector = found.filter(({ block, at }) => block.vectorRow[at] !== NO_VECTOR);
  const weights = new Float32Array(withVector.length);
  const vectors = new Int8Array(withVector.length * dim);
  found.forEach(({ block, at }, i) => {
    const a = block.shardOffsets[at]!;
    const b = block.shardOffsets[at + 1]!;
    shardIds.set(block.shardIds.subarray(a, b), shardOffsets[i]!);
    shardImpact.set(block.shardImpact.subarray(a, b), shardOffsets[i]!);
  });
  withVector.forEach(({ term, block, at }, row) => {
    const r = block.vectorRow[at]!;
    vocab.push(term);
    weights[row] = block.weights[r]!;
    vectors.set(block.vectors.subarray(r * dim, (r + 1) * dim), row * dim);
  });
  const termList = found.map((f) => f.term);
  return {
    lexicon: {
      terms: termList,
      termIndex: new Map(termList.map((t, i) => [t, i])),
      df,
      shardOffsets,
      shardIds,
      shardImpact,
      restImpact,
      impactScale: directory.terms.impact_scale,
      totalStatements: directory.terms.total_statements,
      avgLen: directory.terms.avg_len,
      byteSize:
        df.byteLength + restImpact.byteLength + shardOffsets.byteLength + shardIds.byteLength + shardImpact.byteLength,
    },
    model: {
      dim,
      vocab,
      vocabIndex: new Map(vocab.map((t, i) => [t, i])),
      weights,
      vectors,
      byteSize: weights.byteLength + vectors.byteLength,
    },
  };
}

/** Index of `key` in `sorted` (ascending by `<`), or -1. Term blocks are stored sorted. */
function binarySearch(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === key) return mid;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * A decoded shard numbers its sources within its issuer (so its bytes depend on that issuer's filings only); the core
 * works with global source numbers. Shifts them in place: statements, restated rows and consensus occurrences alike.
 */
export function withGlobalSources(shard: Shard, company: DirectoryCompany): Shard {
  const base = company.sources.first;
  if (base === 0) return shard;
  // Records read later by range are shifted as they are filled in.
  if (shard.parts) shard.parts.sourceBase = base;
  for (let i = 0; i < shard.source.length; i++) shard.source[i] = shard.source[i]! + base;
  for (let i = 0; i < shard.restated.source.length; i++) shard.restated.source[i] = shard.restated.source[i]! + base;
  const shift = (lists: ClaimOccurrence[][]) =>
    lists.map((list) => (list.length ? list.map((o) => ({ ...o, source: o.source + base })) : list));
  shard.agree = shift(shard.agree);
  shard.disagree = shift(shard.disagree);
  return shard;
}
