import { consoleIo, type CliIo } from '../cli/cli-args';
import type { StageProgress } from '../cli/progress';
import { fetchFilings, formatFetchSummary, type FetchSummary } from './fetch-filings';
import { FETCH_USAGE, parseFetchArgs, writeFetchState, type FetchOptions } from './parse-fetch-args';

export interface FetchCommandResult {
  /** The exit code: 0, 1 when a filing failed, 2 for a wrong flag. */
  code: number;
  summary: FetchSummary | null;
}

const utcToday = () => new Date().toISOString().slice(0, 10);

/**
 * `cli.ts fetch ...`: parse, fetch with progress, print the summary. `today` is the date a run without failures
 * writes to --state (the next run fetches from it); tests set it.
 */
export async function runFetchCommand(
  argv: readonly string[],
  progress: StageProgress,
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = consoleIo,
  today: () => string = utcToday,
): Promise<FetchCommandResult> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(FETCH_USAGE);
    return { code: 0, summary: null };
  }
  let options: FetchOptions;
  try {
    options = parseFetchArgs(argv, env);
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n\n${FETCH_USAGE}`);
    return { code: 2, summary: null };
  }
  let summary: FetchSummary;
  try {
    summary = await fetchFilings(options, {
      onProgress: (done, total) => progress.update(done, total),
      onRetry: ({ url, attempt, waitMs, reason }) =>
        io.err(`retry ${attempt} of ${url} in ${(waitMs / 1000).toFixed(1)} s: ${reason}`),
    });
  } finally {
    progress.stop();
  }
  io.out(formatFetchSummary(summary));
  if (summary.failed.length) return { code: 1, summary };
  if (options.statePath) {
    const date = today();
    writeFetchState(options.statePath, date, summary);
    io.out(`fetch state: the next run fetches filings filed from ${date} on (${options.statePath})`);
  }
  return { code: 0, summary };
}
