// Every command-line entry answers --help with its usage (exit 0) and a flag it does not know with the usage on
// stderr (exit 2); no npm script is named after an npm lifecycle event, so `npm publish` never runs the index publish.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../index-builder/cli/cli';
import { runWithUsage, type CliIo } from '../../index-builder/cli/cli-args';
import { parseReplicateArgs, REPLICATE_USAGE } from '../../scripts/replicate-corpus';

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t) };
}

const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(cmd, args, { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

describe('index CLIs: --help and unknown options (index-builder/cli/cli.ts)', () => {
  const commands: [string, RegExp][] = [
    ['build', /^usage: npm run index:build/],
    ['publish', /^usage: npm run index:publish/],
    ['gc', /^usage: npm run index:gc/],
    ['refresh', /^usage: npm run index:refresh/],
    ['fetch', /^usage: cli.ts fetch/],
  ];

  it.each(commands)('%s --help prints the usage on stdout and exits 0', async (command, usage) => {
    for (const flag of ['--help', '-h']) {
      const io = capture();
      expect(await main([command, flag], {}, io)).toBe(0);
      expect(io.stdout.join('\n')).toMatch(usage);
      expect(io.stderr).toEqual([]);
    }
  });

  it.each(commands)(
    '%s with an unknown option prints why and the usage on stderr and exits 2',
    async (command, usage) => {
      const io = capture();
      expect(await main([command, '--no-such-flag'], {}, io)).toBe(2);
      const err = io.stderr.join('\n');
      expect(err).toMatch(/Unknown option '--no-such-flag'/);
      expect(err.split('\n\n')[1]).toMatch(usage);
      expect(io.stdout).toEqual([]);
    },
  );

  it('refuses a wrong value with exit 2, and a missing or unknown command', async () => {
    const cases: [string[], RegExp][] = [
      [['gc', '--keep', 'three'], /--keep needs a positive integer/],
      [['gc'], /gc needs --keep/],
      [['build', '--partition', '5/4', '--out', 'x'], /--partition takes i\/n/],
      [['build', 'stray'], /unexpected argument stray/],
      [['build', '--partial-corpus'], /--partial-corpus is for --incremental/],
      [['publish', '--local', '--remote'], /either --local or --remote/],
      [['refresh', 'rewind'], /unknown refresh step rewind/],
      [['refresh', 'finish', '--relearn-model'], /--relearn-model is an option of refresh prepare/],
      [['index'], /unknown command index/],
      [[], /no command/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await main(argv, {}, io), argv.join(' ')).toBe(2);
      expect(io.stderr.join('\n')).toMatch(message);
    }
    const io = capture();
    expect(await main(['--help'], {}, io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/index:build, index:publish/);
  });

  it('reads build flags: --merge takes the directories after it', async () => {
    const { parseBuildArgs } = await import('../../index-builder/cli/cli');
    expect(parseBuildArgs(['--merge', 'a', 'b', '--embedding-model', 'm'])).toEqual({
      merge: ['a', 'b'],
      embeddingModel: 'm',
    });
    expect(parseBuildArgs(['--partition', '2/4', '--out', 'p', '--embedding-model', 'm'])).toEqual({
      partition: { index: 2, count: 4 },
      out: 'p',
      embeddingModel: 'm',
    });
    expect(() => parseBuildArgs(['--partition', '2/4', '--out', 'p'])).toThrow(/needs --embedding-model/);
    expect(() => parseBuildArgs(['--learn-model', '--merge', 'a'])).toThrow(/--learn-model is a step of its own/);
    expect(parseBuildArgs(['--incremental', '--partial-corpus'])).toEqual({ incremental: true, partialCorpus: true });
    expect(parseBuildArgs(['--merge', 'a', '--objects-published'])).toEqual({ merge: ['a'], objectsPublished: true });
    expect(() => parseBuildArgs(['--objects-published'])).toThrow(/is for --merge/);
    expect(parseBuildArgs(['--map-partitions', '8', '--partition-map', 'f'])).toEqual({
      mapPartitions: 8,
      partitionMap: 'f',
    });
    expect(
      parseBuildArgs(['--partition', '2/4', '--out', 'p', '--embedding-model', 'm', '--partition-map', 'f']),
    ).toMatchObject({ partition: { index: 2, count: 4 }, partitionMap: 'f' });
    for (const [args, why] of [
      [['--map-partitions', '8'], /needs --partition-map/],
      [['--map-partitions', '0', '--partition-map', 'f'], /positive integer/],
      [['--map-partitions', '8', '--partition-map', 'f', '--merge', 'a'], /a step of its own/],
      [['--partition-map', 'f'], /is for --partition or --map-partitions/],
    ] as const)
      expect(() => parseBuildArgs(args), args.join(' ')).toThrow(why);
  });

  it('reads refresh flags: prepare may ask for a new embedding model', async () => {
    const { parseRefreshArgs } = await import('../../index-builder/cli/cli');
    expect(parseRefreshArgs(['prepare', '--relearn-model'], 'p')).toMatchObject({
      step: 'prepare',
      relearnModel: true,
    });
    expect(parseRefreshArgs(['prepare'], 'p')).toMatchObject({ step: 'prepare', relearnModel: false });
    expect(parseRefreshArgs(['pull', '--partition', '3/8', '--model', 'm'], 'p')).toMatchObject({
      step: 'pull',
      partition: { index: 3, count: 8 },
      model: 'm',
    });
    expect(() => parseRefreshArgs(['pull', '--no-filings'], 'p')).toThrow(/give --model/);
    expect(() => parseRefreshArgs(['finish', '--partition', '1/2'], 'p')).toThrow(/options of refresh pull/);
    expect(parseRefreshArgs(['pull', '--partition', '3/8', '--partition-map', 'f'], '/p')).toMatchObject({
      partition: { index: 3, count: 8 },
      partitionMap: expect.stringMatching(/\/f$/),
    });
    expect(
      parseRefreshArgs(['pull', '--no-filings', '--model', 'm', '--map-partitions', '16', '--partition-map', 'f'], 'p'),
    ).toMatchObject({ mapPartitions: 16, noFilings: true });
    expect(() => parseRefreshArgs(['pull', '--map-partitions', '4'], 'p')).toThrow(/needs --partition-map/);
    expect(() => parseRefreshArgs(['pull', '--partition-map', 'f'], 'p')).toThrow(/is for --partition/);
    expect(() =>
      parseRefreshArgs(['pull', '--partition', '1/4', '--map-partitions', '4', '--partition-map', 'f'], 'p'),
    ).toThrow(/not with --partition/);
    expect(() => parseRefreshArgs(['finish', '--partition-map', 'f'], 'p')).toThrow(/options of refresh pull/);
  });
});

describe('scripts/replicate-corpus.ts flags', () => {
  const runReplicate = (argv: string[]) => {
    const io = capture();
    return runWithUsage(REPLICATE_USAGE, async () => void parseReplicateArgs(argv), io).then((code) => ({
      code,
      ...io,
    }));
  };

  it('answers --help with exit 0 and an unknown option or a missing flag with exit 2', async () => {
    expect(await runReplicate(['--help'])).toMatchObject({ code: 0, stdout: [REPLICATE_USAGE] });
    expect((await runReplicate(['--from', 'a', '--out', 'b', '--copies', '3'])).code).toBe(2);
    expect((await runReplicate(['--from', 'a'])).stderr.join('')).toMatch(/--from and --out are required/);
    expect(parseReplicateArgs(['--from', 'a', '--out', 'b', '--factor', '2']).factor).toBe(2);
  });
});

describe('npm scripts', () => {
  it('names no script after an npm lifecycle event of publish or pack', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
    );
    const lifecycle = [
      'prepublish',
      'prepare',
      'prepublishOnly',
      'prepack',
      'postpack',
      'publish',
      'postpublish',
      'prepublishOnly',
    ];
    expect(scripts.filter((s) => lifecycle.includes(s))).toEqual([]);
    expect(scripts).toEqual(
      expect.arrayContaining(['index:build', 'index:publish', 'index:gc', 'index:refresh', 'fetch:edgar']),
    );
  });

  it('npm publish --dry-run runs no index command, and npm run index:publish -- --help prints the usage', async () => {
    const dry = await run('npm', ['publish', '--dry-run', '--offline']);
    expect(dry.code).toBe(0);
    expect(`${dry.stdout}\n${dry.stderr}`).not.toMatch(/^> .*cli\.ts/m);
    const help = await run('npm', ['run', '--silent', 'index:publish', '--', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run index:publish/);
  }, 120_000);
});
