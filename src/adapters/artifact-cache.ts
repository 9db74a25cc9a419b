/** Default byte budget of the per-isolate cache: half of the 128 MB isolate limit, leaving room for requests. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface CacheEntry {
  value: unknown;
  bytes: number;
}

export interface CacheStats {
  bytes: number;
  entries: number;
  hits: number;
  misses: number;
  evictions: number;
  budget: number;
}

/**
 * Per-isolate LRU cache of decoded artifacts under a byte budget. Check-then-set: each request loads what it
 * misses itself (no request awaits another request's in-flight promise), and a set never replaces an entry
 * another request already stored. Values larger than the whole budget are returned but not cached.
 */
export class ArtifactCache {
  private readonly entries = new Map<string, CacheEntry>();
  private bytes = 0;
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

  set<T>(key: string, value: T, bytes: number): T {
    const existing = this.entries.get(key);
    if (existing) return existing.value as T;
    if (bytes > this.budget) return value;
    while (this.bytes + bytes > this.budget && this.entries.size) {
      const [oldest, entry] = this.entries.entries().next().value as [string, CacheEntry];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
      this.evictions++;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    return value;
  }

  stats(): CacheStats {
    return { bytes: this.bytes, entries: this.entries.size, hits: this.hits, misses: this.misses, evictions: this.evictions, budget: this.budget };
  }
}
