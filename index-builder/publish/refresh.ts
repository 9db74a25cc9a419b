/**
 * The scheduled refresh keeps its state in the same R2 bucket as the index it publishes, so a run needs nothing from
 * the run before it but the bucket (docs/decisions/refresh-from-r2.md). Under `refresh/<domain>/` (outside the
 * `<domain>/` prefix gc manages):
 *   state.json               the fetch date of the next run, the published version it describes, its embedding model
 *                            and its build state (every filing's hash, metadata and page count)
 *   models/<id>.bin          the embedding models of published versions (an incremental build reuses its model)
 *   filings/<TICKER>/<file>  every EDGAR document and sidecar a published version was built from
 *
 * A run, as .github/workflows/refresh-index.yml lays it out in one data folder:
 *   begin    state.json -> fetch-state.json (the date `fetch --state` fetches from); nothing on a first run
 *   fetch    (cli.ts fetch) what EDGAR received since then -> filings/edgar/
 *   prepare  which issuers changed (a filing new or different from the build state); none: the run is over. Else
 *            their archived filings and the previous version (manifest and objects, build state, model) are pulled,
 *            so that `build --incremental --partial-corpus` rebuilds only those issuers
 *   build, publish
 *   finish   after the publish: the new filings and the model archived, then state.json written (last)
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeFileList, decodeManifest } from '../../index-format/codec';
import { manifestKey, objectKey, pointerKey, storedKey } from '../../index-format/keys';
import { BUILD_STATE, DOMAIN, filingHash, sameExtraction, type BuildState } from '../build';
import { readFetchState } from '../fetch/parse-fetch-args';
import { MODELS_DIR } from '../vectors/model-store';
import { type PartitionMap, type PartitionSpec, partitionOfIssuer } from '../partition-map';
import type { PublishTarget } from './publish';
import { edgarFilings } from '../segment/read-corpus';

export const refreshKeys = {
  state: (domain: string) => `refresh/${domain}/state.json`,
  model: (domain: string, id: string) => `refresh/${domain}/models/${id}.bin`,
  filings: (domain: string, ticker: string) => `refresh/${domain}/filings/${ticker}/`,
};

export interface RefreshState {
  /** The date (YYYY-MM-DD) the next run fetches filings filed from; null when unknown (a full fetch). */
  since: string | null;
  version: string;
  embedding_model: string;
  build: BuildState;
}

/** What `prepare` decided, for `finish` and for the workflow's later steps. */
export interface RefreshPlan {
  /**
   * A full build: no state in the bucket yet (of everything fetched), or the last version was built by a builder that
   * reads filings differently (EXTRACTION_VERSION, ANALYZER_VERSION): every archived filing is pulled and rebuilt.
   */
  full: boolean;
  /** Tickers with a new or changed filing; empty: nothing to build or publish. */
  changed: string[];
  /** The published version the incremental build starts from (null for a full build). */
  previous: string | null;
  /**
   * The embedding model the build uses, pulled into the models folder: the live version's, also on a full build, so
   * that a builder change or a new filing does not move every vector too (docs/DECISIONS.md "Word-vector model").
   * Null on a first run, or when `prepare --relearn-model` asked for a full build that learns a new one. A new analyzer
   * (ANALYZER_VERSION) keeps it too: its words are the old analyzer's tokens, which the new one still produces almost
   * everywhere (docs/decisions/refresh-from-r2.md), and a relearned model is a release of its own.
   */
  model: string | null;
}

export interface PrepareOptions {
  /** A full build that learns a new embedding model from the archived filings. */
  relearnModel?: boolean;
}

/** The data folder of a run. */
export function refreshLayout(data: string) {
  return {
    filings: join(data, 'filings'),
    edgar: join(data, 'filings', 'edgar'),
    artifacts: join(data, 'artifacts'),
    fetchState: join(data, 'fetch-state.json'),
    plan: join(data, 'refresh-plan.json'),
  };
}
export type RefreshLayout = ReturnType<typeof refreshLayout>;

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value)}\n`);

export async function readRefreshState(target: PublishTarget, domain = DOMAIN): Promise<RefreshState | null> {
  const bytes = await target.getObject(refreshKeys.state(domain));
  return bytes ? (JSON.parse(text(bytes)) as RefreshState) : null;
}

/** Step 1: the date this run fetches from, as `fetch --state` reads it. */
export async function beginRefresh(target: PublishTarget, layout: RefreshLayout): Promise<RefreshState | null> {
  const state = await readRefreshState(target);
  rmSync(layout.fetchState, { force: true });
  if (state?.since) {
    mkdirSync(dirname(layout.fetchState), { recursive: true });
    writeFileSync(layout.fetchState, `${JSON.stringify({ since: state.since })}\n`);
  }
  return state;
}

/** The ticker of each fetched document (from its sidecar), by file name: .htm and .json alike. */
function fetchedFiles(edgarDir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(edgarDir)) return out;
  for (const name of readdirSync(edgarDir).filter((n) => n.endsWith('.json'))) {
    const ticker = (JSON.parse(readFileSync(join(edgarDir, name), 'utf8')) as { ticker: string }).ticker;
    out.set(name, ticker);
    for (const html of [name.replace(/\.json$/, '.htm'), name.replace(/\.json$/, '.html')])
      if (existsSync(join(edgarDir, html))) out.set(html, ticker);
  }
  return out;
}

/** Step 3: which issuers changed; for those, their archived filings and the previous version, pulled. */
export async function prepareRefresh(
  target: PublishTarget,
  layout: RefreshLayout,
  options: PrepareOptions = {},
): Promise<RefreshPlan> {
  const state = await readRefreshState(target);
  const files = fetchedFiles(layout.edgar);
  let plan: RefreshPlan;
  if (!state) plan = { full: true, changed: [...new Set(files.values())].sort(), previous: null, model: null };
  else if (!sameExtraction(state.build) || options.relearnModel) {
    // Carrying issuers over would mix what two builders (or two models) made: every issuer is rebuilt from the archive.
    const tickers = new Set([...files.values(), ...Object.values(state.build.filings).map((f) => f.ticker)]);
    for (const ticker of tickers) await pullFilings(target, ticker, layout.edgar);
    if (!options.relearnModel) await pullModel(target, state, layout.artifacts);
    plan = {
      full: true,
      changed: [...tickers].sort(),
      previous: null,
      model: options.relearnModel ? null : state.embedding_model,
    };
  } else {
    const changed = new Set<string>();
    for (const filing of edgarFilings(layout.edgar)) {
      if (state.build.filings[filing.doc.doc_id]?.hash !== filingHash(filing)) changed.add(filing.doc.ticker);
    }
    plan = { full: false, changed: [...changed].sort(), previous: state.version, model: state.embedding_model };
    // Filings fetched again but unchanged belong to issuers the build carries over: a partial corpus must hold
    // all of an issuer's filings or none.
    for (const [name, ticker] of files) if (!changed.has(ticker)) rmSync(join(layout.edgar, name));
    if (plan.changed.length) {
      for (const ticker of plan.changed) await pullFilings(target, ticker, layout.edgar);
      await pullVersion(target, state, layout.artifacts);
    }
  }
  mkdirSync(dirname(layout.plan), { recursive: true });
  writeFileSync(layout.plan, `${JSON.stringify(plan)}\n`);
  return plan;
}

/** An issuer's archived documents, except those this run fetched anew. */
async function pullFilings(target: PublishTarget, ticker: string, edgarDir: string): Promise<void> {
  const prefix = refreshKeys.filings(DOMAIN, ticker);
  mkdirSync(edgarDir, { recursive: true });
  for (const o of await target.listObjects(prefix)) {
    const path = join(edgarDir, o.key.slice(prefix.length));
    if (existsSync(path)) continue;
    const bytes = await target.getObject(o.key);
    if (bytes) writeFileSync(path, bytes);
  }
}

/**
 * The archived filings of every issuer, or of one partition's (partitionOf), into <data>/filings/edgar, and with
 * `model` that embedding model into <data>/artifacts: what a job of .github/workflows/build-index.yml builds from
 * when no caller hands it the filings.
 */
export async function pullArchive(
  target: PublishTarget,
  layout: RefreshLayout,
  options: { partition?: PartitionSpec; map?: PartitionMap; model?: string; noFilings?: boolean } = {},
): Promise<{ tickers: string[] }> {
  if (options.model) await pullModelById(target, options.model, layout.artifacts);
  if (options.noFilings) return { tickers: [] };
  const { partition, map } = options;
  const tickers = [...(await archiveFilingCounts(target)).keys()]
    .filter((t) => !partition || partitionOfIssuer(t, partition, map) === partition.index)
    .sort();
  for (const ticker of tickers) await pullFilings(target, ticker, layout.edgar);
  return { tickers };
}

/**
 * How many filings each issuer has in the bucket's archive, from its listing alone (one HTML primary document a
 * filing, beside its JSON sidecar): what the model job packs a partition map from when it has no filings of its own.
 */
export async function archiveFilingCounts(target: PublishTarget): Promise<Map<string, number>> {
  const prefix = refreshKeys.filings(DOMAIN, '').slice(0, -1); // refresh/<domain>/filings/
  const counts = new Map<string, number>();
  for (const o of await target.listObjects(prefix)) {
    const [ticker, name = ''] = o.key.slice(prefix.length).split('/');
    counts.set(ticker!, (counts.get(ticker!) ?? 0) + (/\.html?$/i.test(name) ? 1 : 0));
  }
  return counts;
}

/** The published version the state describes, as a local version folder an incremental build starts from. */
async function pullVersion(target: PublishTarget, state: RefreshState, artifacts: string): Promise<void> {
  const domainDir = join(artifacts, DOMAIN);
  const dir = join(domainDir, state.version);
  const get = async (key: string) => {
    const bytes = await target.getObject(key);
    if (!bytes)
      throw new Error(
        `${key} is not in the bucket: the version the refresh state names is gone; run a full refresh ` +
          `(delete ${refreshKeys.state(DOMAIN)})`,
      );
    return bytes;
  };
  const write = (path: string, bytes: Uint8Array | string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  };
  const manifestText = text(await get(manifestKey(DOMAIN, state.version)));
  const manifest = decodeManifest(manifestText);
  const listBytes = await get(objectKey(DOMAIN, state.version, manifest.files.file));
  write(join(dir, manifest.files.file), listBytes);
  for (const ref of decodeFileList(text(listBytes)).files) {
    const bytes = await get(storedKey(DOMAIN, state.version, ref));
    if (bytes.byteLength !== ref.bytes)
      throw new Error(`${ref.file}: ${bytes.byteLength} bytes in the bucket, the version lists ${ref.bytes}`);
    write(join(dir, ref.file), bytes);
  }
  write(join(dir, 'manifest.json'), manifestText);
  write(join(dir, BUILD_STATE), `${JSON.stringify(state.build)}\n`);
  await pullModel(target, state, artifacts);
  write(join(domainDir, 'LATEST'), state.version);
}

/** The live version's embedding model, into the models folder a build looks a model id up in. */
const pullModel = (target: PublishTarget, state: RefreshState, artifacts: string) =>
  pullModelById(target, state.embedding_model, artifacts);

async function pullModelById(target: PublishTarget, id: string, artifacts: string): Promise<void> {
  const key = refreshKeys.model(DOMAIN, id);
  const bytes = await target.getObject(key);
  if (!bytes)
    throw new Error(`${key} is not in the bucket: run \`refresh prepare --relearn-model\` to learn a new model`);
  const path = join(artifacts, DOMAIN, MODELS_DIR, `${id}.bin`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

function readPlan(layout: RefreshLayout): RefreshPlan {
  if (!existsSync(layout.plan))
    throw new Error(`${layout.plan} not found: run \`refresh prepare\` before \`refresh finish\``);
  return JSON.parse(readFileSync(layout.plan, 'utf8')) as RefreshPlan;
}

/** Uploads what is not stored yet (same key and size); returns how many objects were uploaded. */
async function uploadMissing(target: PublishTarget, items: Iterable<{ key: string; path: string }>): Promise<number> {
  let uploaded = 0;
  for (const { key, path } of items) {
    if (await target.hasObject(key, statSync(path).size)) continue;
    await target.putObject(key, new Uint8Array(readFileSync(path)));
    uploaded++;
  }
  return uploaded;
}

/**
 * Step 6, after a successful publish: archives the filings the new version was built from and its model, then
 * writes state.json (last, so a run that fails before it leaves the previous state to start from). After a run with
 * nothing new, only the fetch date moves on.
 */
export async function finishRefresh(
  target: PublishTarget,
  layout: RefreshLayout,
): Promise<{ state: RefreshState; archived: number }> {
  const plan = readPlan(layout);
  const since = existsSync(layout.fetchState) ? readFetchState(layout.fetchState).since : null;
  if (!plan.full && !plan.changed.length) {
    const state = await readRefreshState(target);
    if (!state) throw new Error(`${refreshKeys.state(DOMAIN)} is gone since \`refresh prepare\` read it`);
    const next = { ...state, since: since ?? state.since };
    await target.putObject(refreshKeys.state(DOMAIN), json(next));
    return { state: next, archived: 0 };
  }
  const domainDir = join(layout.artifacts, DOMAIN);
  const version = readFileSync(join(domainDir, 'LATEST'), 'utf8').trim();
  const dir = join(domainDir, version);
  const manifest = decodeManifest(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const live = await target.getPointer(pointerKey(DOMAIN));
  if (live !== version)
    throw new Error(
      `the live version is ${live ?? 'none'}, not the built ${version}: publish it before \`refresh finish\``,
    );
  const model = manifest.embedding_model;
  if (!model) throw new Error(`${dir}/manifest.json records no embedding model`);
  const files = fetchedFiles(layout.edgar);
  const archived = await uploadMissing(target, [
    ...[...files].map(([name, ticker]) => ({
      key: refreshKeys.filings(DOMAIN, ticker) + name,
      path: join(layout.edgar, name),
    })),
    { key: refreshKeys.model(DOMAIN, model), path: join(domainDir, MODELS_DIR, `${model}.bin`) },
  ]);
  const build = JSON.parse(readFileSync(join(dir, BUILD_STATE), 'utf8')) as BuildState;
  const state: RefreshState = { since, version, embedding_model: model, build };
  await target.putObject(refreshKeys.state(DOMAIN), json(state));
  return { state, archived };
}

/** GitHub Actions step outputs (`changed`, `full`, `model`), when the step runs there. */
export function writeStepOutputs(plan: RefreshPlan, outputFile = process.env.GITHUB_OUTPUT): void {
  if (outputFile)
    appendFileSync(
      outputFile,
      `changed=${plan.full || plan.changed.length > 0}\nfull=${plan.full}\nmodel=${plan.model ?? ''}\n`,
    );
}
