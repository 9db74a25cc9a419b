// The refresh workflow's chain (.github/workflows/refresh-index.yml), run here step for step against real local R2/KV
// and recorded EDGAR responses on loopback. Each run starts from an empty data folder, as a fresh CI runner does:
// everything it knows of earlier runs comes from the bucket (index-builder/publish/refresh.ts). Run 1 (EDGAR as of
// 2024-02-22) builds and publishes everything; run 2 (2024-02-26) finds the one 10-K filed between them and rebuilds
// that issuer alone; run 3 finds nothing and stops before building; run 4, after a builder change, rebuilds everything.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../index-builder/cli/cli-args';
import { latestVersionDir, runBuild } from '../../index-builder/cli/cli';
import { runFetchCommand } from '../../index-builder/fetch/run-fetch-command';
import { collectGarbage } from '../../index-builder/publish/gc';
import { publishVersion, type PublishTarget } from '../../index-builder/publish/publish';
import {
  beginRefresh,
  finishRefresh,
  prepareRefresh,
  readRefreshState,
  refreshKeys,
  refreshLayout,
  type RefreshPlan,
} from '../../index-builder/publish/refresh';
import { EXTRACTION_VERSION } from '../../index-builder/build';
import { pointerKey } from '../../index-format/keys';
import { startRecordedEdgar, type RecordedEdgar } from '../support/edgar-server';
import { readFullCatalog } from '../support/file-index';
import { openLocalBindings } from '../support/local-bindings';

const UA = 'Refresh Test refresh@example.com';
const quiet = { update() {}, stop() {} };
const silent: CliIo = { out() {}, err() {} };
let edgar: RecordedEdgar;
let work: string;
let constituents: string;
beforeAll(async () => {
  edgar = await startRecordedEdgar();
  work = mkdtempSync(join(tmpdir(), 'fers-refresh-'));
  constituents = join(work, 'sp500-constituents.csv');
  writeFileSync(
    constituents,
    'Symbol,Security,GICS Sector,GICS Sub-Industry\nQSEP,Q Separator,Industrials,Industrial ' +
      'Machinery\nQVLT,Q Vault,Information Technology,Technology Hardware\nZNHF,Zenith Health,Health ' +
      'Care,Health Care Services\n',
  );
});
afterAll(async () => {
  await edgar.close();
  rmSync(work, { recursive: true, force: true });
});

interface RunResult {
  plan: RefreshPlan;
  found: number;
  version: string | null;
  rebuilt: string[] | null;
  /** Whether the build learned its embedding model (null: no build). */
  learnedModel: boolean | null;
}

/** One run of the workflow on a fresh data folder, on `today`, with EDGAR as it stood that day. */
async function refreshRun(
  target: PublishTarget,
  name: string,
  today: string,
  relearnModel = false,
): Promise<RunResult> {
  const layout = refreshLayout(join(work, name));
  mkdirSync(join(work, name));
  edgar.asOf(today);
  await beginRefresh(target, layout);
  const fetchArgs = [
    '--constituents',
    constituents,
    '--forms',
    '10-K,10-Q',
    '--state',
    layout.fetchState,
    '--years',
    '2016-2100',
    '--out',
    layout.filings,
  ];
  const servers = ['--rate', '10', '--www-base', edgar.bases.www, '--data-base', edgar.bases.data];
  const fetched = await runFetchCommand(
    [...fetchArgs, ...servers],
    quiet,
    { EDGAR_USER_AGENT: UA },
    silent,
    () => today,
  );
  expect(fetched.code).toBe(0);
  const plan = await prepareRefresh(target, layout, { relearnModel });
  let version: string | null = null;
  let rebuilt: string[] | null = null;
  let learnedModel: boolean | null = null;
  if (plan.full || plan.changed.length) {
    // As the workflow's build step: a full build gets the plan's model, an incremental one reuses its previous
    // version's.
    const how = plan.full
      ? plan.model
        ? { embeddingModel: plan.model }
        : {}
      : { incremental: true, partialCorpus: true };
    const built = await runBuild(layout.filings, layout.artifacts, {
      quiet: true,
      graphMinStatements: Infinity,
      ...how,
    });
    version = built.version;
    rebuilt = 'rebuiltIssuers' in built ? (built.rebuiltIssuers as string[]) : null;
    learnedModel = built.summary.embeddingSampleFilings !== null;
    await publishVersion(latestVersionDir(layout.artifacts)!, target);
  }
  await finishRefresh(target, layout);
  await collectGarbage(target, 'sp500', 3);
  return { plan, found: fetched.summary!.found, version, rebuilt, learnedModel };
}

const contentKeys = async (target: PublishTarget) =>
  new Set((await target.listObjects('sp500/objects/')).map((o) => o.key));

describe('refresh from R2: two runs of the workflow chain, then one with nothing new', () => {
  it('runs the workflow with no cache: its steps read and write the bucket', () => {
    const workflow = readFileSync('.github/workflows/refresh-index.yml', 'utf8');
    expect(workflow).not.toMatch(/actions\/cache/);
    const steps = [
      'index:refresh -- begin',
      'fetch:edgar',
      'index:refresh -- prepare',
      'index:build',
      'index:publish',
      'index:refresh -- finish',
      'index:gc',
    ];
    const at = steps.map((s) => workflow.indexOf(`npm run ${s}`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it(`adds the filing received between runs incrementally, rewriting only its issuer, and stops early when nothing is \
new`, async () => {
    const storage = await openLocalBindings(join(work, 'state'));
    try {
      const { target } = storage;
      const first = await refreshRun(target, 'run-1', '2024-02-22');
      expect(first.plan).toEqual({ full: true, changed: ['QSEP', 'QVLT', 'ZNHF'], previous: null, model: null });
      expect(first.learnedModel).toBe(true);
      const model = (await readRefreshState(target))!.embedding_model;
      expect(first.found).toBe(9);
      expect(await target.getPointer(pointerKey('sp500'))).toBe(first.version);
      expect(await readRefreshState(target)).toMatchObject({ since: '2024-02-22', version: first.version });
      const before = await contentKeys(target);

      const second = await refreshRun(target, 'run-2', '2024-02-26');
      expect(second.found).toBe(1); // ZNHF's 10-K for 2023, filed 2024-02-23
      expect(second.plan).toEqual({ full: false, changed: ['ZNHF'], previous: first.version, model });
      expect(second.rebuilt).toEqual(['ZNHF']);
      expect(second.version).not.toBe(first.version);
      expect(await target.getPointer(pointerKey('sp500'))).toBe(second.version);
      const added = [...(await contentKeys(target))].filter((k) => !before.has(k));
      expect(added.length).toBeGreaterThan(0);
      expect(added.filter((k) => !/\/ZNHF[-.]/.test(k))).toEqual([]);
      const catalog = readFullCatalog(latestVersionDir(join(work, 'run-2', 'artifacts'))!);
      expect(new Set(catalog.sources.map((s) => s.doc_id)).size).toBe(10);
      expect(catalog.sources.some((s) => s.doc_id === 'EDGAR_9990202_10K_2023-12-31')).toBe(true);

      // The incremental version is the one a full build of all ten filings gives with the same embedding model.
      const all = refreshLayout(join(work, 'all'));
      const fetchAll = [
        '--constituents',
        constituents,
        '--years',
        '2016-2100',
        '--out',
        all.filings,
        '--rate',
        '10',
        '--www-base',
        edgar.bases.www,
        '--data-base',
        edgar.bases.data,
      ];
      expect((await runFetchCommand(fetchAll, quiet, { EDGAR_USER_AGENT: UA }, silent)).summary!.found).toBe(10);
      const modelFile = join(work, 'run-1', 'artifacts', 'sp500', 'models', `${model}.bin`);
      const full = await runBuild(all.filings, all.artifacts, {
        quiet: true,
        graphMinStatements: Infinity,
        embeddingModel: modelFile,
      });
      expect(full.version).toBe(second.version);

      const third = await refreshRun(target, 'run-3', '2024-02-27');
      expect(third).toEqual({
        plan: { full: false, changed: [], previous: second.version, model },
        found: 0,
        version: null,
        rebuilt: null,
        learnedModel: null,
      });
      expect(await readRefreshState(target)).toMatchObject({ since: '2024-02-27', version: second.version });
      expect(await target.getPointer(pointerKey('sp500'))).toBe(second.version);

      // A builder that extracts filings differently from the one that built the live version (EXTRACTION_VERSION):
      // nothing is new at EDGAR, yet every issuer is rebuilt from the archived filings, none carried over, with the
      // live
      // version's embedding model pulled from the bucket.
      const state = (await readRefreshState(target))!;
      await target.putObject(
        refreshKeys.state('sp500'),
        new TextEncoder().encode(JSON.stringify({ ...state, build: { ...state.build, extraction_version: 1 } })),
      );
      const fourth = await refreshRun(target, 'run-4', '2024-02-28');
      expect(fourth.plan).toEqual({ full: true, changed: ['QSEP', 'QVLT', 'ZNHF'], previous: null, model });
      expect(fourth.found).toBe(0);
      expect(fourth.rebuilt).toBeNull();
      expect(fourth.learnedModel).toBe(false);
      expect(
        readFileSync(join(latestVersionDir(join(work, 'run-4', 'artifacts'))!, 'manifest.json'), 'utf8'),
      ).toContain(`"embedding_model": "${model}"`);
      expect(await target.getPointer(pointerKey('sp500'))).toBe(fourth.version);
      const rebuiltCatalog = readFullCatalog(latestVersionDir(join(work, 'run-4', 'artifacts'))!);
      expect(new Set(rebuiltCatalog.sources.map((s) => s.doc_id)).size).toBe(10);
      expect((await readRefreshState(target))!.build.extraction_version).toBe(EXTRACTION_VERSION);

      // Asked to relearn: a full build from the archive that learns its model.
      const fifth = await refreshRun(target, 'run-5', '2024-02-29', true);
      expect(fifth.plan).toEqual({ full: true, changed: ['QSEP', 'QVLT', 'ZNHF'], previous: null, model: null });
      expect(fifth.learnedModel).toBe(true);

      // Another analyzer: a full build (postings and lengths change), with the live model kept, as for a builder fix.
      const live = (await readRefreshState(target))!;
      await target.putObject(
        refreshKeys.state('sp500'),
        new TextEncoder().encode(JSON.stringify({ ...live, build: { ...live.build, analyzer_version: 1 } })),
      );
      const sixth = await refreshRun(target, 'run-6', '2024-03-01');
      expect(sixth.plan).toMatchObject({ full: true, previous: null, model: live.embedding_model });
      expect(sixth.learnedModel).toBe(false);
      expect(
        readFileSync(join(latestVersionDir(join(work, 'run-6', 'artifacts'))!, 'manifest.json'), 'utf8'),
      ).toContain(`"embedding_model": "${live.embedding_model}"`);
    } finally {
      await storage.dispose();
      edgar.asOf(null);
    }
  });
});
