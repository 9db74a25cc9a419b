/**
 * npm run key:new -- [--name <label>] [--env production|staging] [--append-to <hashes>]
 *
 * Makes a new API key and prints it once, with its SHA-256 (the only form the Worker stores: API_KEY_HASHES, a
 * comma-separated list, src/auth.ts) and the wrangler command that installs it. Nothing is written anywhere: the
 * key exists only in this output.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const USAGE = `usage: npm run key:new -- [--name <label>] [--env production|staging] [--append-to <hashes>]

Prints a new API key (once), its SHA-256 hash, and the wrangler command that sets API_KEY_HASHES.
  --name <label>        a label for your own records (who holds the key); not part of the key
  --env <env>           the wrangler environment the command targets (default production)
  --append-to <hashes>  the current comma-separated API_KEY_HASHES (hashes, not keys): the command then sets
                        that list plus the new hash. Wrangler cannot read a secret back, so keep the list of
                        hashes in your own records.
  -h, --help            this text`;

const ENVS = new Set(['production', 'staging']);
const HEX = /^[0-9a-f]{64}$/;

/** A key: a fixed prefix (so secret scanners and people can tell what it is) and 256 random bits, base64url. */
export function newApiKey(random: Uint8Array = randomBytes(32)): string {
  return `fes_${Buffer.from(random).toString('base64url')}`;
}

export const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The hashes API_KEY_HASHES should hold: the existing ones (validated, de-duplicated) and the new one last. */
export function hashList(existing: string | undefined, added: string): string {
  const old = (existing ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = old.filter((h) => !HEX.test(h));
  if (bad.length)
    throw new Error(
      `--append-to holds ${bad.length} value(s) that are not SHA-256 hex hashes (keys are never listed there)`,
    );
  return [...new Set([...old, added])].join(',');
}

export function keyReport(opts: { key: string; name?: string; env: string; appendTo?: string }): string {
  const hash = keyHash(opts.key);
  const list = hashList(opts.appendTo, hash);
  const label = opts.name ? ` for ${opts.name}` : '';
  return [
    `New API key${label} (shown once; hand it to its holder now):`,
    `  ${opts.key}`,
    '',
    `SHA-256 (record it with the label; this is what the Worker stores):`,
    `  ${hash}`,
    '',
    opts.appendTo
      ? `Set API_KEY_HASHES to the existing hashes plus this one:`
      : `Set API_KEY_HASHES (this replaces the whole list; to keep existing keys, rerun with --append-to ` +
        `'<current hashes>'):`,
    `  printf '%s' '${list}' | npx wrangler secret put API_KEY_HASHES --env ${opts.env}`,
    '',
    `Locally (wrangler dev reads .dev.vars):`,
    `  API_KEY_HASHES=${list}`,
  ].join('\n');
}

const parseKeyArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      env: { type: 'string', default: 'production' },
      'append-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }).values;

function main(argv: string[]): number {
  let values: ReturnType<typeof parseKeyArgs>;
  try {
    values = parseKeyArgs(argv);
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!ENVS.has(values.env)) {
    console.error(`--env must be production or staging\n\n${USAGE}`);
    return 2;
  }
  try {
    console.log(keyReport({ key: newApiKey(), name: values.name, env: values.env, appendTo: values['append-to'] }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2));
