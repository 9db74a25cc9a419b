/**
 * Default byte budget of the per-isolate cache: half of the 128 MB isolate limit, leaving room for requests. It covers
 * the hnswlib wasm heap too (an arena, see ArtifactCache.setArena), which is 16 MiB from the first graph on.
 */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface CacheEntry {
  value: unknown;
  bytes: number;
  arena: string | null;
  onEvict: ((value: unknown) => void) | null;
}

export interface CacheStats {
  /** Accounted bytes: plain entries plus, per arena, the larger of its size and its live entries. */
  bytes: number;
  /** Part of `bytes` held by arenas (the wasm heap), live or not. */
  arenaBytes: number;
  entries: number;
  hits: number;
  misses: number;
  evictions: number;
  budget: number;
}

export interface CacheSetOptions<T> {
  /**
   * Memory the value lives in instead of the JS heap (e.g. 'hnswlib': the wasm heap). Its bytes then count as part
   * of the arena's size, not on top of it; setArena reports that size.
   */
  arena?: string;
  /** Called once when the entry is evicted (e.g. to free native memory). Not called for values never stored. */
  onEvict?: (value: T) => void;
}

/**
 * Per-isolate LRU cache of decoded artifacts under a byte budget. Check-then-set: each request loads what it
 * misses itself (no request awaits another request's in-flight promise), and a set never replaces an entry
 * another request already stored. Values that cannot fit in the whole budget are returned but not cached.
 *
 * Arenas model memory that is allocated outside the JS heap and never shrinks, like a wasm linear memory: an arena of
 * size S holding live entries of L bytes costs max(S, L). Evicting an arena entry therefore frees no budget (only
 * room inside the arena, for the next entry of that arena), so budget evictions skip such entries; evictFromArena
 * makes room inside an arena before it would have to grow.
 */
export class ArtifactCache {
  private readonly entries = new Map<string, CacheEntry>();
  private plainBytes = 0;
  private readonly arenaSize = new Map<string, number>();
  private readonly arenaLive = new Map<string, number>();
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(readonly budget: number = DEFAULT_CACHE_BYTES) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Removes one entry (calling its onEvict), e.g. a memo that went stale. Returns whether it was there. */
  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.evict(key, entry);
    this.evictions--; // not a budget eviction
    return true;
  }

  set<T>(key: string, value: T, bytes: number, options: CacheSetOptions<T> = {}): T {
    const existing = this.entries.get(key);
    if (existing) return existing.value as T;
    const arena = options.arena ?? null;
    const added = (): number => (arena === null ? bytes : this.arenaCost(arena, bytes) - this.arenaCost(arena, 0));
    if (added() > this.budget) return value;
    this.evictUntil(() => this.total() + added() <= this.budget);
    if (this.total() + added() > this.budget) return value;
    this.entries.set(key, {
      value,
      bytes,
      arena,
      onEvict: (options.onEvict as ((v: unknown) => void) | undefined) ?? null,
    });
    if (arena === null) this.plainBytes += bytes;
    else this.arenaLive.set(arena, (this.arenaLive.get(arena) ?? 0) + bytes);
    return value;
  }

  /**
   * Changes an entry's accounted size (a shard read by ranges grows as requests fill in its parts), then evicts
   * least recently used other entries until the total fits the budget; an entry larger than the budget goes alone.
   */
  resize(key: string, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry || entry.arena !== null) return;
    this.plainBytes += bytes - entry.bytes;
    entry.bytes = bytes;
    if (bytes > this.budget) this.evict(key, entry);
    this.evictUntil(() => this.total() <= this.budget, key);
    if (this.total() > this.budget && this.entries.has(key)) this.evict(key, entry);
  }

  /**
   * Reports the current size of an arena (it only matters that it is accurate; for a wasm heap it only grows), then
   * evicts least recently used entries until the total fits the budget again, if it can.
   */
  setArena(name: string, bytes: number): void {
    this.arenaSize.set(name, bytes);
    this.evictUntil(() => this.total() <= this.budget);
  }

  /** Live bytes and size of an arena (0/0 if unknown). */
  arena(name: string): { size: number; live: number } {
    return { size: this.arenaSize.get(name) ?? 0, live: this.arenaLive.get(name) ?? 0 };
  }

  /**
   * Evicts least recently used entries of one arena until it has `free` unused bytes (size - live) or no entries
   * left, so a new arena value reuses memory instead of growing the arena. Returns the free bytes after.
   */
  evictFromArena(name: string, free: number): number {
    const room = () => (this.arenaSize.get(name) ?? 0) - (this.arenaLive.get(name) ?? 0);
    for (const [key, entry] of [...this.entries]) {
      if (room() >= free) break;
      if (entry.arena === name) this.evict(key, entry);
    }
    return room();
  }

  /** Each entry's key and accounted bytes, least recently used first (for benchmarks: bench/cache-memory.ts). */
  charges(): [key: string, bytes: number][] {
    return [...this.entries].map(([key, entry]) => [key, entry.bytes]);
  }

  stats(): CacheStats {
    let arenaBytes = 0;
    for (const name of this.arenaNames()) arenaBytes += this.arenaCost(name, 0);
    return {
      bytes: this.plainBytes + arenaBytes,
      arenaBytes,
      entries: this.entries.size,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      budget: this.budget,
    };
  }

  private arenaNames(): Set<string> {
    return new Set([...this.arenaSize.keys(), ...this.arenaLive.keys()]);
  }

  /** What an arena costs with `extra` more live bytes. */
  private arenaCost(name: string, extra: number): number {
    return Math.max(this.arenaSize.get(name) ?? 0, (this.arenaLive.get(name) ?? 0) + extra);
  }

  private total(): number {
    let sum = this.plainBytes;
    for (const name of this.arenaNames()) sum += this.arenaCost(name, 0);
    return sum;
  }

  /** Evicts in LRU order, skipping entries whose eviction would free no budget, until `done()` or nothing helps. */
  private evictUntil(done: () => boolean, keep?: string): void {
    for (const [key, entry] of [...this.entries]) {
      if (done()) return;
      if (key === keep) continue;
      if (entry.arena !== null && this.arenaCost(entry.arena, -entry.bytes) === this.arenaCost(entry.arena, 0))
        continue;
      this.evict(key, entry);
    }
  }

  private evict(key: string, entry: CacheEntry): void {
    this.entries.delete(key);
    if (entry.arena === null) this.plainBytes -= entry.bytes;
    else this.arenaLive.set(entry.arena, (this.arenaLive.get(entry.arena) ?? 0) - entry.bytes);
    this.evictions++;
    try {
      entry.onEvict?.(entry.value);
    } catch (err) {
      // The entry is gone either way; a failing callback must not leave the cache half-updated mid-loop.
      console.error(JSON.stringify({ level: 'error', event: 'cache_on_evict_failed', key, error: String(err) }));
    }
  }
}
