/**
 * Where a built index is published: the R2 bucket and KV namespace of wrangler.toml, reached through wrangler's
 * own bindings (getPlatformProxy), locally (the state `wrangler dev --persist-to <dir>` serves) or remotely (the
 * Cloudflare account wrangler is logged in to). One code path for both; only the bindings differ.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PublishTarget, StoredObject } from './publish';
import { retry } from './retry';

export const DEFAULT_PERSIST_DIR = '.wrangler/state';
export const DEFAULT_CONFIG = 'wrangler.toml';

/** The subset of the R2 and KV binding APIs publishing and gc use (Miniflare's and wrangler's bindings fit). */
export interface BucketLike {
  head(key: string): Promise<{ size: number } | null>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: Uint8Array): Promise<unknown>;
  delete(keys: string | string[]): Promise<void>;
  list(options: { prefix: string; cursor?: string; limit?: number }): Promise<{
    objects: { key: string; size: number; uploaded: Date }[];
    truncated: boolean;
    cursor?: string;
  }>;
}
export interface KvLike {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}

/**
 * Retries a storage call (five attempts, backoff from 0.5 s with jitter): remote R2/KV calls fail now and then (a
 * dropped connection, a 5xx) and a long publish should not stop for one of them.
 */
export const withRetries = <T>(
  what: string,
  call: () => Promise<T>,
  sleep?: (ms: number) => Promise<void>,
  random?: () => number,
): Promise<T> =>
  retry(what, call, { retries: 4, baseMs: 500, ...(sleep ? { sleep } : {}), ...(random ? { random } : {}) });

/** A publish target over R2/KV bindings, every call retried. */
export function bindingsTarget(bucket: BucketLike, kv: KvLike, sleep?: (ms: number) => Promise<void>): PublishTarget {
  return {
    hasObject: (key, bytes) => withRetries(`head ${key}`, async () => (await bucket.head(key))?.size === bytes, sleep),
    getObject: (key) =>
      withRetries(
        `get ${key}`,
        async () => {
          const object = await bucket.get(key);
          return object ? new Uint8Array(await object.arrayBuffer()) : null;
        },
        sleep,
      ),
    // A plain Uint8Array: Miniflare's bindings refuse a Node Buffer (DESIGN.md section 6).
    putObject: (key, bytes) =>
      withRetries(
        `put ${key}`,
        () =>
          bucket.put(key, new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))),
        sleep,
      ).then(() => {}),
    getPointer: (key) => withRetries(`get ${key}`, () => kv.get(key, 'text'), sleep),
    putPointer: (key, value) => withRetries(`put pointer ${key}`, () => kv.put(key, value), sleep),
    listObjects: async (prefix) => {
      const out: StoredObject[] = [];
      let cursor: string | undefined;
      do {
        const page = await withRetries(
          `list ${prefix}`,
          () => bucket.list({ prefix, limit: 1000, ...(cursor ? { cursor } : {}) }),
          sleep,
        );
        for (const o of page.objects) out.push({ key: o.key, bytes: o.size, uploaded: o.uploaded.getTime() });
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out;
    },
    deleteObjects: async (keys) => {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        await withRetries(`delete ${batch.length} objects`, () => bucket.delete(batch), sleep);
      }
    },
  };
}

/**
 * Refuses a remote publish before any upload when wrangler has no Cloudflare login, with what to run. `wrangler
 * whoami --json` answers {"loggedIn":false} without a login; any other failure (no network) is reported as is.
 */
export function checkWranglerLogin(
  wrangler = resolve('node_modules/.bin/wrangler'),
  env: NodeJS.ProcessEnv = process.env,
): void {
  const run = spawnSync(wrangler, ['whoami', '--json'], {
    encoding: 'utf8',
    env: { ...env, WRANGLER_SEND_METRICS: 'false' },
    timeout: 60_000,
  });
  const lastJson = (run.stdout ?? '')
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  let loggedIn: boolean | undefined;
  try {
    loggedIn = lastJson ? (JSON.parse(lastJson) as { loggedIn?: boolean }).loggedIn : undefined;
  } catch {
    loggedIn = undefined;
  }
  if (loggedIn === true) return;
  if (loggedIn === false) {
    throw new Error(
      'wrangler is not logged in to Cloudflare, so nothing was uploaded. Run `npx wrangler login` ' +
        '(interactive), or set ' +
        'CLOUDFLARE_API_TOKEN (a token with R2 and Workers KV edit rights) and CLOUDFLARE_ACCOUNT_ID, then ' +
        'publish again.',
    );
  }
  const detail = `${run.stderr ?? ''}\n${run.stdout ?? ''}`
    .split('\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from wrangler's output
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim())
    .find((l) => /error|unable|✘/i.test(l));
  throw new Error(
    `could not check the Cloudflare login (\`wrangler whoami\` failed${detail ? `: ${detail}` : ''}); ` +
      `nothing was uploaded.`,
  );
}

/**
 * wrangler.toml with `remote = true` on the index bindings, written beside it (relative paths keep their meaning), so
 * wrangler's bindings reach the account's bucket and namespace instead of local state.
 */
function remoteConfig(configPath: string): string {
  const lines = readFileSync(configPath, 'utf8').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    out.push(line);
    if (/^\s*binding\s*=\s*"(INDEX_BUCKET|INDEX_KV)"\s*$/.test(line)) out.push('remote = true');
  }
  const path = join(dirname(resolve(configPath)), '.wrangler', 'publish-remote.toml');
  mkdirSync(dirname(path), { recursive: true });
  // main is not needed for bindings, and it would resolve relative to .wrangler/.
  writeFileSync(path, out.filter((l) => !/^\s*main\s*=/.test(l)).join('\n'));
  return path;
}

export interface Storage {
  target: PublishTarget;
  /** Where it publishes, for messages: the local state directory or "remote". */
  where: string;
  dispose(): Promise<void>;
}

/** Opens the index bindings of wrangler.toml through wrangler: local state or, with `remote`, the real account. */
export async function openStorage(opts: {
  remote: boolean;
  persistTo?: string;
  configPath?: string;
}): Promise<Storage> {
  const configPath = opts.configPath ?? DEFAULT_CONFIG;
  if (opts.remote) checkWranglerLogin();
  const { getPlatformProxy } = await import('wrangler');
  const persistTo = resolve(opts.persistTo ?? DEFAULT_PERSIST_DIR);
  const proxy = await getPlatformProxy<{ INDEX_BUCKET: BucketLike; INDEX_KV: KvLike }>(
    opts.remote
      ? { configPath: remoteConfig(configPath), persist: false, remoteBindings: true }
      : // wrangler dev --persist-to <dir> keeps its state in <dir>/v3.
        { configPath, persist: { path: join(persistTo, 'v3') }, remoteBindings: false },
  );
  return {
    target: bindingsTarget(proxy.env.INDEX_BUCKET, proxy.env.INDEX_KV),
    where: opts.remote ? 'remote R2/KV' : `local R2/KV (${persistTo})`,
    dispose: () => proxy.dispose(),
  };
}
