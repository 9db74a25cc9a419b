/**
 * What `npm start` prints once the Worker answers: the few lines a newcomer needs (the API's base URL, the key, the
 * reference page, the index served and a first call), set apart from the build's and wrangler's output above them.
 * Pure, so test/unit/start.test.ts checks it without starting anything.
 */

/**
 * The environment wrangler dev runs with. CLOUDFLARE_CF_FETCH_ENABLED=false: Miniflare would otherwise download
 * the placeholder `Request.cf` object (workers.cloudflare.com/cf.json) at every start, and offline it prints the
 * failed lookup as an `Error:` with a stack trace before falling back to its built-in placeholder, which is what it
 * uses with the fetch disabled. The Worker never reads `request.cf`. No usage metrics are sent.
 */
export function wranglerEnv(base: NodeJS.ProcessEnv, colour: boolean): NodeJS.ProcessEnv {
  return {
    ...base,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    // wrangler's output goes through a pipe (so the ready block can follow it); keep its colours on a terminal.
    ...(colour ? { FORCE_COLOR: '1' } : { NO_COLOR: '1', FORCE_COLOR: '0' }),
  };
}

/** The address in wrangler's "Ready on http://..." line, or null for any other line (colour codes ignored). */
export function readyAddress(line: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour sequences are what is stripped here
  const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
  return /\bReady on (https?:\/\/\S+)/.exec(plain)?.[1] ?? null;
}

export interface ServedIndex {
  domain: string;
  version: string;
  statements: number;
  /** The corpus it was built from, as the user named it (or the default). */
  source: string;
}

export interface ReadyInfo {
  /** http://127.0.0.1:<port> */
  origin: string;
  key: string;
  index: ServedIndex;
}

const bold = (text: string, colour: boolean) => (colour ? `\u001b[1m${text}\u001b[22m` : text);

/** The ready block: a rule, then one labelled line per thing to remember, then a call to paste. */
export function readyBlock(info: ReadyInfo, colour: boolean): string {
  const base = `${info.origin}/v2/${info.index.domain}`;
  const { index } = info;
  const rows: [string, string][] = [
    ['API', `${base}`],
    ['API key', `${info.key}  (header X-API-Key)`],
    ['reference', `${base}/docs  (read and try every operation: Authorize with the key)`],
    [
      'index',
      `${index.domain} ${index.version}, ${index.statements.toLocaleString('en-US')} statements from ${index.source}`,
    ],
  ];
  const call =
    `curl -s ${base}/query -H 'X-API-Key: ${info.key}' -H 'Content-Type: application/json' ` +
    `-d '{"query":"purchases of property, plant and equipment"}'`;
  const rule = '-'.repeat(72);
  return [
    '',
    rule,
    bold('Filing Evidence Retrieval Service is running', colour),
    ...rows.map(([label, value]) => `  ${label.padEnd(10)} ${bold(value, colour)}`),
    '',
    `  try:  ${call}`,
    `  Ctrl-C stops it. Request log lines follow.`,
    rule,
    '',
  ].join('\n');
}
