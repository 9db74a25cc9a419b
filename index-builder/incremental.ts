import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decodeDirectory, decodeIssuerTable, decodeManifest, decodeShard } from '../index-format/codec';
import type { IssuerTable } from '../index-format/types';
import { ANALYZER_VERSION } from '../index-format/tokenize';
import {
  addShardStats,
  BUILD_STATE,
  DOMAIN,
  EXTRACTION_VERSION,
  filingHash,
  sameExtraction,
  segmentCorpus,
  type BuildOptions,
  type BuildResult,
  type BuildState,
  type FilingEntry,
} from './build';
import { assembleIndex } from './pipeline';
import type { Filing } from './segment/read-corpus';

/**
 * `index:build -- --incremental`: a new version from the previous one plus what changed in the corpus. A filing is
 * processed again when its content hash (filingHash) is new or differs from the previous build's; an issuer with
 * any such filing, or with a filing gone from the corpus, is rebuilt whole (consensus, entities and every shard of
 * it, since consensus spans its filings). Every other issuer's shards, graphs and table are taken byte for byte, and
 * the corpus-wide tables (directory, term blocks) are computed again, their statistics read back from the reused
 * shards. With the previous version's embedding model, the result is the version a full build of the same corpus
 * gives with that model (test/unit/incremental.test.ts checks it byte for byte).
 *
 * `filings` is called twice: a first read hashes every filing; the second segments only the rebuilt issuers'.
 * With `partialCorpus`, an issuer with no filing in the corpus is carried over unchanged instead of removed.
 */
export async function incrementalBuild(
  filings: () => AsyncIterable<Filing> | Iterable<Filing>,
  previousDir: string,
  options: BuildOptions & { embeddingModel: NonNullable<BuildOptions['embeddingModel']>; partialCorpus?: boolean },
): Promise<BuildResult & { rebuiltIssuers: string[] }> {
  const statePath = join(previousDir, BUILD_STATE);
  if (!existsSync(statePath))
    throw new Error(`${previousDir} has no ${BUILD_STATE}: build the index once without --incremental`);
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as BuildState;
  if (!sameExtraction(state)) {
    throw new Error(
      `the previous version was built by analyzer version ${state.analyzer_version}, extraction version ` +
        `${state.extraction_version ?? 1}; this builder is ${ANALYZER_VERSION}, ${EXTRACTION_VERSION}: build ` +
        `without --incremental`,
    );
  }
  const manifest = decodeManifest(readFileSync(join(previousDir, 'manifest.json'), 'utf8'));
  if (manifest.embedding_model !== options.embeddingModel.id) {
    throw new Error(
      `an incremental build reuses the previous version's embedding model ` +
        `(${manifest.embedding_model ?? 'none recorded'}), not ${options.embeddingModel.id}`,
    );
  }

  // First read: which issuers have a new, changed or removed filing.
  const seen = new Map<string, Pick<FilingEntry, 'doc' | 'hash' | 'pageCount'>>();
  const touched = new Set<string>();
  for await (const filing of filings()) {
    const hash = filingHash(filing);
    seen.set(filing.doc.doc_id, { doc: filing.doc, hash, pageCount: filing.pages.length });
    if (state.filings[filing.doc.doc_id]?.hash !== hash) touched.add(filing.doc.ticker);
  }
  // A partial corpus (a refresh: only the issuers with new filings, their older filings pulled from the archive)
  // says nothing of the issuers it leaves out: they are carried over from the previous version's build state.
  const present = new Set([...seen.values()].map((f) => f.doc.ticker));
  for (const [docId, { ticker }] of Object.entries(state.filings))
    if (!seen.has(docId) && (!options.partialCorpus || present.has(ticker))) touched.add(ticker);
  if (options.partialCorpus) {
    for (const [docId, f] of Object.entries(state.filings)) {
      if (present.has(f.ticker)) continue;
      if (!f.doc || f.pages === undefined)
        throw new Error(`${statePath} records no metadata for ${docId}: build the index once without --incremental`);
      seen.set(docId, { doc: f.doc, hash: f.hash, pageCount: f.pages });
    }
  }
  const rebuiltFilings = [...seen.values()].filter((f) => touched.has(f.doc.ticker)).length;

  const directory = decodeDirectory(new Uint8Array(readFileSync(join(previousDir, manifest.directory.file))));
  const tables = new Map<string, IssuerTable>();
  for (const c of directory.companies) {
    if (touched.has(c.ticker)) continue;
    tables.set(c.ticker, decodeIssuerTable(new Uint8Array(readFileSync(join(previousDir, c.table))), c.ticker));
  }

  // Second read: segment the rebuilt issuers' filings; the reused issuers' statistics come from their shards.
  const spill = join(options.outDir, DOMAIN, `.spill-${process.pid}`);
  rmSync(spill, { recursive: true, force: true });
  try {
    const corpus = await segmentCorpus(filings(), spill, {
      ...options,
      expectedFilings: rebuiltFilings,
      include: (doc) => touched.has(doc.ticker),
    });
    for (const table of tables.values()) {
      for (const info of table.shards)
        addShardStats(corpus.stats, decodeShard(new Uint8Array(readFileSync(join(previousDir, info.file)))));
    }
    for (const { doc, hash, pageCount } of seen.values())
      if (tables.has(doc.ticker)) corpus.entries.push({ doc, hash, pageCount, file: '' });
    const result = await assembleIndex({ ...corpus, reuse: { dir: previousDir, tables } }, options);
    return { ...result, rebuiltIssuers: [...touched].sort() };
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}
