import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of a byte range. It guards blocks read by range against corruption
 * and truncation in storage or a cache; authenticity is the seal's job (SHA-256 of the whole artifact, checked on
 * whole reads) and the content-addressed key's.
 *
 * The platform's zlib computes it (node:zlib in Node and, under nodejs_compat, in workerd): a fresh isolate checks a
 * few hundred KB of heads and records before it has compiled any of its own loops, and a table loop in JavaScript
 * ran there at interpreter speed (about 6 ms of a first query, measured in Node). test/unit/range-reads.test.ts
 * checks it against a table implementation.
 */
export function crc32(bytes: Uint8Array): number {
  return zlibCrc32(bytes) >>> 0;
}
