/**
 * Which partition of a split each issuer goes to (an issuer's filings always go together: its consensus, entities
 * and shards need them). Two rules:
 * - the ticker hash (partitionOf): stable with no shared state, but uneven; at 8x with 8 partitions it gave one
 *   partition 1.74x the mean, and the slowest job sets a matrix's wall time;
 * - a partition map: issuers packed by filing count, so that no partition holds much more than its share.
 *
 * The model job writes the map once, from the filings it can count (the local corpus or the bucket's archive
 * listing); every partition job and the pull of each job's filings read the same file, and each partial output
 * records the map's id, so a merge refuses partitions split by different maps (an issuer in two partitions or in
 * none). An issuer the map does not name (filed after the map was made) goes where the ticker hash sends it: every
 * job applies the same rule, so it still lands in exactly one partition.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface PartitionSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** "2/4" -> { index: 2, count: 4 }. */
export function parsePartition(text: string): PartitionSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new Error(`--partition takes i/n with 1 <= i <= n, got "${text}"`);
  return { index, count };
}

/**
 * The partition (1-based) an issuer's filings go to: a hash of the ticker, so it is stable across runs and machines.
 */
export function partitionOf(ticker: string, count: number): number {
  return 1 + (createHash('sha256').update(ticker).digest().readUInt32BE(0) % count);
}

const FORMAT = 'filing-evidence-partition-map';

export interface PartitionMap {
  format: typeof FORMAT;
  /** How many partitions the split has. */
  count: number;
  /** Ticker -> its partition, 1-based. */
  issuers: Record<string, number>;
}

/**
 * Longest-processing-time-first packing (Graham 1969): issuers by filing count, largest first (ties by ticker), each
 * into the partition with the fewest filings so far (ties: the lowest index). Deterministic for the same counts; the
 * largest partition is within 4/3 of the best possible split, and within one issuer of the mean when issuers are
 * small against a partition, as they are here (about 40 filings an issuer, hundreds a partition).
 */
export function mapPartitions(filingsPerIssuer: ReadonlyMap<string, number>, count: number): PartitionMap {
  if (!Number.isInteger(count) || count < 1) throw new Error(`a partition map needs a count >= 1, got ${count}`);
  const issuers = [...filingsPerIssuer].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const load = new Array<number>(count).fill(0);
  const out: Record<string, number> = {};
  for (const [ticker, filings] of issuers) {
    let k = 0;
    for (let j = 1; j < count; j++) if (load[j]! < load[k]!) k = j;
    load[k]! += filings;
    out[ticker] = k + 1;
  }
  return { format: FORMAT, count, issuers: sortedKeys(out) };
}

/** The partition an issuer's filings go to under `map` (if given), or under the ticker hash. */
export function partitionOfIssuer(ticker: string, spec: Pick<PartitionSpec, 'count'>, map?: PartitionMap): number {
  return map?.issuers[ticker] ?? partitionOf(ticker, spec.count);
}

/** The map's id: a digest of its content, recorded in each partial output and compared by the merge. */
export function partitionMapId(map: PartitionMap): string {
  return createHash('sha256').update(JSON.stringify(map)).digest('hex').slice(0, 16);
}

export function writePartitionMap(file: string, map: PartitionMap): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(map)}\n`);
}

/** Reads and checks a map file; `spec`, when given, must be a partition of the map's split. */
export function readPartitionMap(file: string, spec?: PartitionSpec): PartitionMap {
  let map: PartitionMap;
  try {
    map = JSON.parse(readFileSync(file, 'utf8')) as PartitionMap;
  } catch (err) {
    throw new Error(`${file}: not a readable partition map (${(err as Error).message})`);
  }
  const bad = (why: string): never => {
    throw new Error(`${file}: not a partition map: ${why}`);
  };
  if (map?.format !== FORMAT) bad(`format is not ${FORMAT}`);
  if (!Number.isInteger(map.count) || map.count < 1) bad('count is not a positive integer');
  if (typeof map.issuers !== 'object' || map.issuers === null) bad('no issuers');
  for (const [ticker, k] of Object.entries(map.issuers))
    if (!Number.isInteger(k) || k < 1 || k > map.count) bad(`${ticker} is given partition ${k}, not 1..${map.count}`);
  if (spec && spec.count !== map.count)
    throw new Error(`${file} splits issuers into ${map.count} partitions, not ${spec.count} as --partition says`);
  // Canonical key order, so the id does not depend on how the file was written.
  return { format: FORMAT, count: map.count, issuers: sortedKeys(map.issuers) };
}

/** How many filings each partition of the map receives (the map's balance, for reports). */
export function partitionLoads(map: PartitionMap, filingsPerIssuer: ReadonlyMap<string, number>): number[] {
  const load = new Array<number>(map.count).fill(0);
  for (const [ticker, n] of filingsPerIssuer) load[partitionOfIssuer(ticker, map, map) - 1]! += n;
  return load;
}

function sortedKeys(o: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}
