import { retry, RetriesExhaustedError, RetryableError, parseRetryAfter } from '../publish/retry';
import type { IntervalLimiter } from './rate-limiter';

/** An HTTP answer EDGAR gave that ends the request (after retries where retrying makes sense). */
export class EdgarHttpError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'EdgarHttpError';
  }
}

/** 403: SEC refuses undeclared user agents and clients it has throttled. Retrying would only prolong the block. */
export class EdgarForbiddenError extends EdgarHttpError {
  constructor(url: string, userAgent: string) {
    super(
      `EDGAR refused the request with 403 Forbidden: ${url}\n` +
        `SEC answers 403 to requests without a declared User-Agent (a name and a contact email) and to clients it ` +
        `has blocked for exceeding 10 requests per second. Sent User-Agent: "${userAgent}". Check --user-agent ` +
        `(or EDGAR_USER_AGENT), keep --rate at or below 10, and wait about 10 minutes before retrying.`,
      url,
      403,
    );
    this.name = 'EdgarForbiddenError';
  }
}

export interface EdgarHttpOptions {
  userAgent: string;
  limiter: IntervalLimiter;
  /** Per attempt, default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429, 5xx, timeouts and network errors; default 5. */
  maxRetries?: number;
  /** First backoff (with jitter, index-builder/publish/retry.ts); doubles per retry. Default 1 s. */
  backoffBaseMs?: number;
  /** Backoff and Retry-After above this end the request instead of waiting; default 120 s. */
  maxWaitMs?: number;
  /** Called before each retry, for logs. */
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string }) => void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_BACKOFF_BASE_MS = 1_000;
const DEFAULT_MAX_WAIT_MS = 120_000;

const isRetryableStatus = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** GETs from EDGAR: declared User-Agent, gzip, the shared rate limit on every attempt, bounded retries. */
export class EdgarHttp {
  requests = 0;
  retries = 0;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoffBaseMs: number;
  private readonly maxWaitMs: number;

  constructor(private readonly options: EdgarHttpOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.backoffBaseMs = options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  }

  async getJson(url: string): Promise<unknown> {
    const body = await this.get(url);
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      throw new EdgarHttpError(`EDGAR answered ${url} with something that is not JSON`, url, 200);
    }
  }

  async get(url: string): Promise<Buffer> {
    try {
      return await retry(url, () => this.attempt(url), {
        retries: this.maxRetries,
        baseMs: this.backoffBaseMs,
        maxWaitMs: this.maxWaitMs,
        retryable: () => false, // only what attempt() marks as RetryableError
        onRetry: ({ attempt, waitMs, reason }) => {
          this.retries++;
          this.options.onRetry?.({ url, attempt, waitMs, reason });
        },
      });
    } catch (err) {
      if (!(err instanceof RetriesExhaustedError)) throw err;
      const status = /^HTTP (\d+)/.exec((err.lastError as Error).message);
      throw new EdgarHttpError(err.message, url, status ? Number(status[1]) : null);
    }
  }

  /** One request under the rate limit: the body, a RetryableError (429, 5xx, timeout, network), or a final error. */
  private async attempt(url: string): Promise<Buffer> {
    const release = await this.options.limiter.take();
    this.requests++;
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': this.options.userAgent, 'accept-encoding': 'gzip, deflate' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'follow',
      });
      if (response.ok) return Buffer.from(await response.arrayBuffer()); // fetch has undone the gzip
      await response.body?.cancel();
      if (response.status === 403) throw new EdgarForbiddenError(url, this.options.userAgent);
      if (!isRetryableStatus(response.status)) {
        throw new EdgarHttpError(
          `EDGAR answered ${response.status} ${response.statusText} for ${url}`,
          url,
          response.status,
        );
      }
      throw new RetryableError(`HTTP ${response.status}`, parseRetryAfter(response.headers.get('retry-after')));
    } catch (err) {
      if (err instanceof EdgarHttpError || err instanceof RetryableError) throw err;
      const e = err as Error & { cause?: { code?: string } };
      throw new RetryableError(
        e.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : `network error (${e.cause?.code ?? e.message})`,
      );
    } finally {
      release(); // the answer is read (or the attempt is over): the limiter's window counts from here
    }
  }
}
