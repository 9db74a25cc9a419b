import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireApiKey } from '../../src/auth';

/** `npm run key:new -- <args>`, run as the npm script runs it. */
function keyNew(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('node_modules/.bin/tsx', ['scripts/key-new.ts', ...args], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The printed key, hash and `printf ... | npx wrangler secret put ...` line. */
function parse(stdout: string) {
  const lines = stdout.split('\n').map((l) => l.trim());
  const key = lines[lines.findIndex((l) => l.startsWith('New API key')) + 1]!;
  const hash = lines[lines.findIndex((l) => l.startsWith('SHA-256')) + 1]!;
  const command = lines.find((l) => l.includes('wrangler secret put'))!;
  return { key, hash, command };
}

/** What the printed command pipes into wrangler: the command run by a shell, with wrangler replaced by cat. */
const pipedValue = (command: string) =>
  execFileSync('sh', ['-c', command.replace(/npx wrangler secret put .*$/, 'cat')], { encoding: 'utf8' });

const withKey = (key: string) => new Request('https://evidence.test/', { headers: { 'x-api-key': key } });
const authenticates = (key: string, hashes: string) =>
  requireApiKey(withKey(key), hashes).then(
    () => true,
    () => false,
  );
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('npm run key:new', () => {
  it(`prints a new key, its SHA-256, and the wrangler command whose value makes the Worker accept that \
key`, async () => {
    const r = await keyNew(['--name', 'research-agent']);
    expect(r.code).toBe(0);
    const { key, hash, command } = parse(r.stdout);
    expect(r.stdout).toContain('for research-agent');
    expect(key).toMatch(/^fes_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(sha256(key));
    expect(command).toMatch(/\| npx wrangler secret put API_KEY_HASHES --env production$/);
    const value = pipedValue(command);
    expect(value).toBe(hash);
    // The Worker's own check (src/auth.ts) accepts the key against what the command stores, and nothing else.
    expect(await authenticates(key, value)).toBe(true);
    expect(await authenticates(`${key}x`, value)).toBe(false);
    expect(await authenticates(hash, value)).toBe(false);
    expect(r.stdout).toContain(`API_KEY_HASHES=${hash}`);
  });

  it('--append-to keeps the existing keys working and adds the new one; --env picks the environment', async () => {
    const existing = sha256('local-dev-key');
    const r = await keyNew(['--append-to', existing.toUpperCase(), '--env', 'staging']);
    expect(r.code).toBe(0);
    const { key, hash, command } = parse(r.stdout);
    expect(command).toMatch(/--env staging$/);
    const value = pipedValue(command);
    expect(value).toBe(`${existing},${hash}`);
    expect(await authenticates('local-dev-key', value)).toBe(true);
    expect(await authenticates(key, value)).toBe(true);
  });

  it('makes a different key each time', async () => {
    const [a, b] = await Promise.all([keyNew([]), keyNew([])]);
    expect(parse(a.stdout).key).not.toBe(parse(b.stdout).key);
  });

  it(`--help exits 0 with usage; an unknown option, a bad --env or a key in --append-to exits 2 with \
usage`, async () => {
    const help = await keyNew(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run key:new/);
    for (const args of [['--bogus'], ['--env', 'prod'], ['--append-to', 'fes_notahash'], ['stray']]) {
      const r = await keyNew(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('usage: npm run key:new');
    }
  });

  it('.dev.vars.example configures the documented local key', async () => {
    const line = readFileSync('.dev.vars.example', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('API_KEY_HASHES='))!;
    expect(await authenticates('local-dev-key', line.slice('API_KEY_HASHES='.length))).toBe(true);
  });
});
