// The workflows validate (@action-validator/cli, the schema GitHub Actions reads them by), and build-index.yml's
// chain runs here on the sample corpus through the same CLI its steps call (npm run index:build / index:publish /
// index:refresh): the model job, every partition job, the merge, the publish to real local R2/KV. Its version must be
// the one a single build gives, byte for byte.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../index-builder/cli/cli-args';
import { main } from '../../index-builder/cli/cli';
import { MERGE_NODE_OPTIONS } from '../../index-builder/merge';
import { mapPartitions, partitionLoads, partitionOf } from '../../index-builder/partition-map';
import { archiveFilingCounts, pullArchive, refreshKeys, refreshLayout } from '../../index-builder/publish/refresh';
import { decodeFileList } from '../../index-format/codec';
import { pointerKey, storedKey } from '../../index-format/keys';
import { filesOf } from '../support/files';
import { openLocalBindings } from '../support/local-bindings';
import { tempDirs } from '../support/temp-dirs';

const WORKFLOWS = '.github/workflows';
const SAMPLE = 'fixtures/sample-corpus/filings';
const tmp = tempDirs('fers-build-index-');
const silent: CliIo = { out() {}, err() {} };
/** A CliIo that keeps what it was told. */
function captured(): CliIo & { text(): string } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), text: () => lines.join('\n') };
}

describe('GitHub Actions workflows', () => {
  const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));

  it.each(files)('%s validates against the workflow schema', (file) => {
    const run = spawnSync('node_modules/.bin/action-validator', [join(WORKFLOWS, file)], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('the validator refuses a workflow with a misspelt key (the check can fail)', () => {
    const dir = tmp();
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n');
    const run = spawnSync('node_modules/.bin/action-validator', [bad], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
  });

  it('build-index.yml runs the steps this file runs, and refresh-index.yml calls it', () => {
    const text = readFileSync(join(WORKFLOWS, 'build-index.yml'), 'utf8');
    // GitHub's expressions, ${{ ... }}, written with a placeholder the linter does not read as a template.
    const gh = (expr: string) => `$\{{ ${expr} }}`;
    const part = `${gh('matrix.index')}/${gh('inputs.partitions')}`;
    for (const step of [
      'npm run index:build -- --learn-model',
      `npm run index:build -- --map-partitions ${gh('inputs.partitions')} --partition-map data/partitions.json`,
      `--map-partitions ${gh('inputs.partitions')} --partition-map data/partitions.json`,
      `npm run index:build -- --partition ${part}`,
      '--partition-map data/partitions.json\n',
      `--embedding-model ${gh('needs.model.outputs.id')}`,
      'npm run index:build -- --merge data/partials/*',
      'npm run index:build -- --merge data/partials/* --objects-published',
      `NODE_OPTIONS: ${MERGE_NODE_OPTIONS}`,
      `npm run index:publish -- --remote --partial data/partials/${gh('matrix.index')}`,
      'npm run index:publish -- --remote',
      `npm run index:refresh -- pull --data data --remote --partition ${part}`,
    ])
      expect(text).toContain(step);
    expect(text).toMatch(/workflow_dispatch:[\s\S]*workflow_call:/);
    expect(readFileSync(join(WORKFLOWS, 'refresh-index.yml'), 'utf8')).toContain(
      'uses: ./.github/workflows/build-index.yml',
    );
  });
});

describe('build-index.yml chain on the sample corpus', () => {
  const N = 3;
  let work: string;
  let storage: Awaited<ReturnType<typeof openLocalBindings>>;
  beforeAll(async () => {
    work = tmp();
    storage = await openLocalBindings(join(work, 'state'));
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  it('model job, N partition jobs, merge and publish give the single build and serve it', async () => {
    const env = { FILINGS_DIR: SAMPLE, ARTIFACTS_DIR: join(work, 'artifacts'), GRAPH_MIN_STATEMENTS: '200' };
    const single = { ...env, ARTIFACTS_DIR: join(work, 'single') };
    expect(await main(['build'], single, silent)).toBe(0);
    const singleVersion = readFileSync(join(work, 'single/sp500/LATEST'), 'utf8').trim();

    // model job
    expect(await main(['build', '--learn-model'], env, silent)).toBe(0);
    const models = readdirSync(join(work, 'artifacts/sp500/models')).map((f) => f.replace(/\.bin$/, ''));
    expect(models).toHaveLength(1);
    const map = join(work, 'partitions.json');
    expect(await main(['build', '--map-partitions', String(N), '--partition-map', map], env, silent)).toBe(0);
    // partition jobs, each on a runner of its own: only the model, the map and the corpus in common
    for (let i = 1; i <= N; i++) {
      const job = { ...env, ARTIFACTS_DIR: join(work, 'artifacts') };
      const out = join(work, `partials/${i}`);
      const args = ['build', '--partition', `${i}/${N}`, '--out', out, '--embedding-model', models[0]!];
      expect(await main([...args, '--partition-map', map], job, silent)).toBe(0);
    }
    // merge job, then publish
    const partials = Array.from({ length: N }, (_, i) => join(work, `partials/${i + 1}`));
    expect(await main(['build', '--merge', ...partials], env, silent)).toBe(0);
    const version = readFileSync(join(work, 'artifacts/sp500/LATEST'), 'utf8').trim();
    expect(version).toBe(singleVersion);
    const a = filesOf(join(work, 'artifacts/sp500', version));
    const b = filesOf(join(work, 'single/sp500', version));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
    await storage.dispose();
    expect(await main(['publish', '--local', '--persist-to', join(work, 'state')], env, silent)).toBe(0);
    storage = await openLocalBindings(join(work, 'state'));
    expect(await storage.target.getPointer(pointerKey('sp500'))).toBe(version);
  });

  it('partition jobs upload their objects, the merge gets only their tables, the publish completes it', async () => {
    // After the chain above: its partials, its model, and the single build to compare with.
    const env = { FILINGS_DIR: SAMPLE, ARTIFACTS_DIR: join(work, 'pub-artifacts'), GRAPH_MIN_STATEMENTS: '200' };
    cpSync(join(work, 'artifacts/sp500/models'), join(work, 'pub-artifacts/sp500/models'), { recursive: true });
    const state = join(work, 'pub-state');
    const partials = Array.from({ length: N }, (_, i) => join(work, `pub-partials/${i + 1}`));
    const io = captured();
    for (let i = 0; i < N; i++) {
      cpSync(join(work, `partials/${i + 1}`), partials[i]!, { recursive: true });
      const args = ['publish', '--local', '--persist-to', state, '--partial', partials[i]!];
      expect(await main(args, env, io), io.text()).toBe(0);
      rmSync(join(partials[i]!, 'objects'), { recursive: true });
    }
    expect(await main(['build', '--merge', ...partials], env, io)).not.toBe(0);
    expect(io.text()).toMatch(/objects\/.* is missing: .*merge with --objects-published/);
    expect(await main(['build', '--merge', ...partials, '--objects-published'], env, io), io.text()).toBe(0);
    const version = readFileSync(join(work, 'pub-artifacts/sp500/LATEST'), 'utf8').trim();
    const single = readFileSync(join(work, 'single/sp500/LATEST'), 'utf8').trim();
    expect(version).toBe(single);
    const dir = join(work, 'pub-artifacts/sp500', version);
    expect(readFileSync(join(dir, 'files.json'))).toEqual(
      readFileSync(join(work, 'single/sp500', version, 'files.json')),
    );
    expect(existsSync(join(dir, 'shards'))).toBe(false);
    // A bucket without the partitions' objects refuses the publish, naming what is missing.
    expect(await main(['publish', '--local', '--persist-to', join(work, 'empty-state')], env, io)).not.toBe(0);
    expect(io.text()).toMatch(/shards\/.* is neither in .* nor stored in the bucket/);
    expect(await main(['publish', '--local', '--persist-to', state], env, io), io.text()).toBe(0);
    const bucket = await openLocalBindings(state);
    try {
      expect(await bucket.target.getPointer(pointerKey('sp500'))).toBe(version);
      const list = decodeFileList(readFileSync(join(dir, 'files.json'), 'utf8')).files;
      for (const ref of list)
        expect(await bucket.target.hasObject(storedKey('sp500', version, ref), ref.bytes)).toBe(true);
    } finally {
      await bucket.dispose();
    }
  });

  it('a partition job pulls only its own issuers from the archive', async () => {
    const archived = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'];
    for (const t of archived)
      await storage.target.putObject(`${refreshKeys.filings('sp500', t)}${t}-10K.json`, new Uint8Array([123, 125]));
    const layout = refreshLayout(join(work, 'pull'));
    const { tickers } = await pullArchive(storage.target, layout, { partition: { index: 2, count: 2 } });
    expect(tickers).toEqual(archived.filter((t) => partitionOf(t, 2) === 2));
    expect(tickers.length).toBeGreaterThan(0);
    expect(readdirSync(layout.edgar).sort()).toEqual(tickers.map((t) => `${t}-10K.json`));
  });

  it("a partition job pulls the issuers the map packed from the archive's listing", async () => {
    const archived = { FFF: 5, GGG: 4, HHH: 3, III: 2, JJJ: 2 };
    for (const [t, n] of Object.entries(archived))
      for (let k = 0; k < n; k++) {
        const key = `${refreshKeys.filings('sp500', t)}${t}-${k}`;
        await storage.target.putObject(`${key}.htm`, new Uint8Array([60, 62]));
        await storage.target.putObject(`${key}.json`, new Uint8Array([123, 125]));
      }
    const counts = await archiveFilingCounts(storage.target);
    for (const [t, n] of Object.entries(archived)) expect(counts.get(t)).toBe(n);
    const map = mapPartitions(counts, 2);
    // Largest first into the lighter partition: 5 + 2 + 2 and 4 + 3 (the earlier test's issuers count 0 filings).
    expect(partitionLoads(map, counts).sort()).toEqual([7, 9]);
    const pulled = [];
    for (const index of [1, 2]) {
      const layout = refreshLayout(join(work, `pull-map-${index}`));
      const { tickers } = await pullArchive(storage.target, layout, { partition: { index, count: 2 }, map });
      expect(tickers).toEqual([...counts.keys()].filter((t) => map.issuers[t] === index).sort());
      pulled.push(...tickers);
    }
    expect(pulled.sort()).toEqual([...counts.keys()].sort());
  });
});
