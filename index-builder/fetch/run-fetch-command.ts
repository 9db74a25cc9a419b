import { fetchFilings, formatFetchSummary, type FetchSummary } from './fetch-filings';
import { FETCH_USAGE, parseFetchArgs, writeFetchState, type FetchOptions } from './parse-fetch-args';

interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** `cli.ts fetch ...`: parse, fetch with a progress bar, print the summary; exit code 1 if any filing failed. */
export async function runFetchCommand(argv: readonly string[], progress: Progress, env = process.env): Promise<FetchSummary | null> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(FETCH_USAGE);
    return null;
  }
  let options: FetchOptions;
  try {
    options = parseFetchArgs(argv, env);
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${FETCH_USAGE}`);
    process.exitCode = 2;
    return null;
  }
  let summary: FetchSummary;
  try {
    summary = await fetchFilings(options, {
      onProgress: (done, total) => progress.update(done, total),
      onRetry: ({ url, attempt, waitMs, reason }) => console.error(`\nretry ${attempt} of ${url} in ${(waitMs / 1000).toFixed(1)} s: ${reason}`),
    });
  } finally {
    progress.stop();
  }
  console.log(formatFetchSummary(summary));
  if (summary.failed.length) process.exitCode = 1;
  else if (options.statePath) {
    writeFetchState(options.statePath, new Date().toISOString().slice(0, 10), summary);
    console.log(`fetch state: the next run fetches filings filed from ${new Date().toISOString().slice(0, 10)} on (${options.statePath})`);
  }
  return summary;
}
