import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { readConstituents } from './constituents';
import { isIsoDate } from './fiscal';
import { SEC_BASES, type EdgarBases } from './edgar-api';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './http';
import { DEFAULT_REQUESTS_PER_SECOND, MAX_REQUESTS_PER_SECOND } from './rate-limiter';
import { SUPPORTED_FORMS, type SupportedForm } from './select-filings';

export const USER_AGENT_ENV = 'EDGAR_USER_AGENT';

export interface FetchOptions {
  tickers: string[];
  fromYear: number;
  toYear: number;
  forms: SupportedForm[];
  /** Filings folder: documents go to `<out>/edgar/`. */
  outDir: string;
  userAgent: string;
  /** Requests per second, at most 10; default 5. */
  rate: number;
  timeoutMs: number;
  maxRetries: number;
  bases: EdgarBases;
  /** Optional S&P 500 constituents CSV for GICS (and the ticker list when --tickers is absent). */
  constituentsPath: string | null;
  /** Only filings filed on or after this date. */
  filedSince: string | null;
  /** JSON file holding the last successful run's date: read for --since, written after a run without failures. */
  statePath: string | null;
}

export const FETCH_USAGE = `usage: cli.ts fetch --tickers MMM,AAPL --years 2021-2023 --out <filings dir> --user-agent \
"Name email@example.com"
  --tickers      comma-separated tickers (EDGAR spelling; BRK.B and BRK-B both work)
  --years        fiscal-year labels: 2022, 2021-2023 or 2019,2021
  --forms        10-K,10-Q (default both)
  --out          filings folder; documents and sidecars go to <out>/edgar/ (build with FILINGS_DIR=<out>)
  --user-agent   "Name contact@email" as SEC asks (or env ${USER_AGENT_ENV})
  --rate         requests per second, at most ${MAX_REQUESTS_PER_SECOND} (default ${DEFAULT_REQUESTS_PER_SECOND})
  --timeout      seconds per request (default ${DEFAULT_TIMEOUT_MS / 1000})
  --retries      retries on 429/5xx/network errors (default ${DEFAULT_MAX_RETRIES})
  --constituents CSV with Symbol, GICS Sector, GICS Sub-Industry (e.g. sp500-constituents.csv) for GICS fields;
                 without --tickers, every Symbol in it is fetched
  --since        only filings filed on or after YYYY-MM-DD (then --years may be left out: every fiscal year)
  --state        JSON file of the last successful run ({"since": "YYYY-MM-DD"}): its date is the --since of this
                 run, and a run without failures writes today's date (UTC) into it for the next one
  --www-base, --data-base   other servers for www.sec.gov and data.sec.gov (mirrors, tests)`;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;

/**
 * SEC's fair-access policy asks for a declared User-Agent with a contact email ("Sample Company Name
 * AdminContact@<sample company domain>.com").
 */
export function parseUserAgent(value: string | undefined): string {
  const ua = value?.trim() ?? '';
  if (!ua)
    throw new Error(
      `a User-Agent is required: pass --user-agent "Your Name you@example.com" or set ${USER_AGENT_ENV} (SEC ` +
        `refuses undeclared clients)`,
    );
  if (!EMAIL.test(ua))
    throw new Error(
      `the User-Agent must contain a contact email address, as SEC's fair-access policy asks, got "${ua}"`,
    );
  if (/[\r\n]/.test(ua)) throw new Error('the User-Agent must be one line');
  return ua;
}

export function parseYears(value: string | undefined): { fromYear: number; toYear: number } {
  if (!value) throw new Error('--years is required, e.g. --years 2021-2023');
  const years = value.split(',').flatMap((part) => {
    const m = /^\s*(\d{4})\s*(?:-\s*(\d{4})\s*)?$/.exec(part);
    if (!m) throw new Error(`--years: "${part}" is not a year or a range like 2021-2023`);
    const a = Number(m[1]);
    const b = Number(m[2] ?? m[1]);
    if (b < a) throw new Error(`--years: range ${part} runs backwards`);
    return [a, b];
  });
  const fromYear = Math.min(...years);
  const toYear = Math.max(...years);
  if (fromYear < 1993 || toYear > 2100) throw new Error(`--years: ${value} is outside EDGAR's years (1993 on)`);
  return { fromYear, toYear };
}

export function parseForms(value: string | undefined): SupportedForm[] {
  if (!value) return [...SUPPORTED_FORMS];
  const forms = value.split(',').map((f) =>
    f
      .trim()
      .toUpperCase()
      .replace(/^10([KQ])$/, '10-$1'),
  );
  const bad = forms.filter((f) => !SUPPORTED_FORMS.includes(f as SupportedForm));
  if (bad.length)
    throw new Error(`--forms: unsupported ${bad.join(', ')} (the builder reads ${SUPPORTED_FORMS.join(' and ')})`);
  return [...new Set(forms as SupportedForm[])];
}

function parsePositive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

export function parseFetchArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): FetchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      tickers: { type: 'string' },
      years: { type: 'string' },
      forms: { type: 'string' },
      out: { type: 'string' },
      'user-agent': { type: 'string' },
      rate: { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      constituents: { type: 'string' },
      since: { type: 'string' },
      state: { type: 'string' },
      'www-base': { type: 'string' },
      'data-base': { type: 'string' },
    },
  });
  const userAgent = parseUserAgent(values['user-agent'] ?? env[USER_AGENT_ENV]);
  let tickers = [
    ...new Set(
      (values.tickers ?? '')
        .split(',')
        .map((t) => t.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  if (!tickers.length && values.constituents) tickers = [...readConstituents(values.constituents).keys()];
  if (!tickers.length)
    throw new Error(
      '--tickers is required (or --constituents <csv> to fetch every constituent), e.g. --tickers MMM,AAPL',
    );
  const statePath = values.state ?? null;
  let filedSince = values.since ?? null;
  if (!filedSince && statePath && existsSync(statePath)) filedSince = readFetchState(statePath).since;
  if (filedSince !== null && !isIsoDate(filedSince))
    throw new Error(`--since must be a date YYYY-MM-DD, got "${filedSince}"`);
  if (!values.out) throw new Error('--out is required: the filings folder to write <out>/edgar/ into');
  const rate = parsePositive('--rate', values.rate, DEFAULT_REQUESTS_PER_SECOND);
  if (rate > MAX_REQUESTS_PER_SECOND)
    throw new Error(`--rate ${rate} is above SEC's limit of ${MAX_REQUESTS_PER_SECOND} requests per second`);
  const retries = values.retries === undefined ? DEFAULT_MAX_RETRIES : Number(values.retries);
  if (!Number.isInteger(retries) || retries < 0 || retries > 10)
    throw new Error(`--retries must be an integer from 0 to 10, got "${values.retries}"`);
  return {
    tickers,
    // With --since (or a state file) and no --years, every fiscal year: what is new is decided by the filing date.
    ...(values.years === undefined && (filedSince || statePath)
      ? { fromYear: 1993, toYear: 2100 }
      : parseYears(values.years)),
    forms: parseForms(values.forms),
    outDir: values.out,
    userAgent,
    rate,
    timeoutMs: parsePositive('--timeout', values.timeout, DEFAULT_TIMEOUT_MS / 1000) * 1000,
    maxRetries: retries,
    bases: { www: values['www-base'] ?? SEC_BASES.www, data: values['data-base'] ?? SEC_BASES.data },
    constituentsPath: values.constituents ?? null,
    filedSince,
    statePath,
  };
}

/** The refresh state file: the date the next run fetches from. */
export function readFetchState(path: string): { since: string } {
  let state: { since?: unknown };
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as { since?: unknown };
  } catch (err) {
    throw new Error(`${path}: not a readable fetch state (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof state.since !== 'string' || !isIsoDate(state.since))
    throw new Error(`${path}: "since" must be a date YYYY-MM-DD`);
  return { since: state.since };
}

/**
 * After a run without failures: the next run fetches what is filed from `today` on (re-fetching is skipped by hash).
 */
export function writeFetchState(path: string, today: string, summary: { downloaded: number; skipped: number }): void {
  const { downloaded, skipped } = summary;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ since: today, last_run: today, downloaded, skipped }, null, 2)}\n`);
}
