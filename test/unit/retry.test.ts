import { describe, expect, it } from 'vitest';
import { retry, retryWaitMs, RetriesExhaustedError, RetryableError } from '../../index-builder/publish/retry';

/** A call that fails with the given errors in turn, then answers 'ok'. */
function failing(errors: unknown[]) {
  let calls = 0;
  return {
    call: async () => {
      const err = errors[calls++];
      if (err !== undefined) throw err;
      return 'ok';
    },
    calls: () => calls,
  };
}

describe('retry (index-builder/publish/retry.ts)', () => {
  it('backs off exponentially with jitter: half of base * 2^attempt fixed, half random', () => {
    expect([0, 1, 2].map((a) => retryWaitMs(a, 1000, null, () => 0))).toEqual([500, 1000, 2000]);
    expect([0, 1, 2].map((a) => retryWaitMs(a, 1000, null, () => 0.999999))).toEqual([1000, 2000, 4000]);
    expect(retryWaitMs(1, 1000, null, () => 0.5)).toBe(1500);
  });

  it('spreads the waits of calls that failed together', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const waits = new Set(Array.from({ length: 20 }, () => retryWaitMs(2, 1000, null, random)));
    expect(waits.size).toBeGreaterThan(15);
    for (const w of waits) {
      expect(w).toBeGreaterThanOrEqual(2000);
      expect(w).toBeLessThanOrEqual(4000);
    }
  });

  it('waits at least what Retry-After asks, and stops when that is above maxWaitMs', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const a = failing([new RetryableError('HTTP 429', 7000), new RetryableError('HTTP 503')]);
    expect(await retry('get x', a.call, { retries: 5, baseMs: 100, sleep, random: () => 0 })).toBe('ok');
    expect(waits).toEqual([7000, 100]);

    const b = failing([new RetryableError('HTTP 429', 600_000)]);
    const err = await retry('get y', b.call, {
      retries: 5,
      baseMs: 100,
      maxWaitMs: 120_000,
      sleep,
      random: () => 0,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as Error).message).toBe('get y: HTTP 429, giving up: asked to wait 600 s');
    expect(b.calls()).toBe(1);
  });

  it('gives up after retries + 1 attempts with the last reason, and reports each retry', async () => {
    const seen: string[] = [];
    const c = failing(Array.from({ length: 9 }, (_, i) => new Error(`reset ${i}`)));
    const err = (await retry('put z', c.call, {
      retries: 2,
      baseMs: 1,
      sleep: async () => {},
      onRetry: (r) => void seen.push(`${r.attempt}:${r.reason}`),
    }).catch((e: unknown) => e)) as RetriesExhaustedError;
    expect(err.message).toBe('put z: reset 2, giving up after 3 attempts');
    expect(err.attempts).toBe(3);
    expect((err.lastError as Error).message).toBe('reset 2');
    expect(seen).toEqual(['1:reset 0', '2:reset 1']);
  });

  it('throws a failure that is not retryable at once, as it is', async () => {
    const fatal = new Error('403 forbidden');
    const d = failing([fatal]);
    await expect(
      retry('get w', d.call, { retries: 5, baseMs: 1, retryable: () => false, sleep: async () => {} }),
    ).rejects.toBe(fatal);
    expect(d.calls()).toBe(1);
    // A RetryableError is retried whatever `retryable` says.
    const e = failing([new RetryableError('HTTP 500')]);
    expect(await retry('get v', e.call, { retries: 1, baseMs: 1, retryable: () => false, sleep: async () => {} })).toBe(
      'ok',
    );
  });
});
