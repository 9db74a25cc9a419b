import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Binary container for every index artifact: a magic number, a format version, an artifact kind, a JSON header
 * and 8-byte-aligned typed sections, sealed with the SHA-256 of everything after the seal. Decoding checks
 * everything before anything is trusted; the loader verifies the seal before decoding, so an
 * artifact needs no checksum from anywhere else and a reader can fetch one without reading a list of them first.
 * The header and any section may be stored deflated (raw DEFLATE, RFC 1951): what every query reads whole (the
 * directory, issuer tables, term blocks, a shard's head) costs a third of its bytes; sections read by byte range
 * stay plain. Decoding inflates them, synchronously, with the platform's zlib (node:zlib in Node and, under
 * nodejs_compat, in workerd: native code, where a JavaScript inflate runs at interpreter speed in a fresh isolate),
 * so readers see plain sections either way.
 */
export const MAGIC = 0x53524546; // "FERS" little-endian
/**
 * 4: partitioned index (directory, issuer tables, term blocks), sealed artifacts; shards, graphs and issuer tables
 * stored by content. 5: shards laid out for range reads (index-format/shard-layout.ts). 6: claim hashes and row
 * agreement groups in the shard head (chains are ranked from the head, records read for the chains kept). 7: the
 * agree occurrences of agreed table rows in the head (drafting reads no record). 8: the binary codes follow the head
 * and are read with it (one range); record vectors moved to their own section, read only with a whole shard. 9:
 * `fy<year>` terms in the term block of `<year>`.
 */
export const FORMAT_VERSION = 9;

export type ArtifactKind = 'shard' | 'graph' | 'directory' | 'issuer' | 'terms' | 'model';
const KIND_CODES: Record<ArtifactKind, number> = { shard: 2, graph: 5, directory: 6, issuer: 7, terms: 8, model: 9 };

export type SectionData = Uint8Array | Int8Array | Uint16Array | Uint32Array | Float32Array;
type SectionType = 'u8' | 'i8' | 'u16' | 'u32' | 'f32';

interface SectionEntry {
  name: string;
  type: SectionType;
  offset: number;
  length: number; // elements
  /** Stored deflated, in this many bytes (absent: stored plain, length x element size bytes). */
  z?: number;
}

/** Bit of the preamble's kind word: the JSON header is stored deflated. */
const HEADER_DEFLATED = 0x8000;
/** A section or header is stored deflated only when that saves at least this share of its bytes. */
const MIN_DEFLATE_SAVING = 0.1;

/** What an encoder stores deflated: these sections (when it pays), and the JSON header. */
export interface DeflateOptions {
  sections?: readonly string[];
  header?: boolean;
}

/**
 * `bytes` deflated, or null when that does not save MIN_DEFLATE_SAVING. zlib's output buffer is sized to the input:
 * its default, a fresh 16 KB per call, outweighs deflating a term block's small sections. Output that does not fit
 * (bytes that do not compress, stored plain anyway) takes more buffers; the bytes do not depend on it.
 */
function deflated(bytes: Uint8Array): Uint8Array | null {
  const z = deflateRawSync(bytes, { level: 9, chunkSize: Math.max(64, bytes.byteLength + 64) });
  return z.byteLength <= bytes.byteLength * (1 - MIN_DEFLATE_SAVING) ? z : null;
}

/** Inflates stored bytes that must give exactly `expected` bytes. */
function inflated(stored: Uint8Array, expected: number, what: string): Uint8Array {
  let out: Uint8Array;
  try {
    // No maxOutputLength: workerd's rejects valid streams of some sizes (42,719 bytes capped at 42,720, measured).
    // Inflated bytes are authenticated first (a whole artifact's seal, a head's or block's CRC from its parent).
    out = inflateRawSync(stored);
  } catch {
    throw new ArtifactFormatError(`${what} does not inflate`);
  }
  if (out.byteLength !== expected)
    throw new ArtifactFormatError(`${what} inflates to ${out.byteLength} bytes, expected ${expected}`);
  // Typed sections are viewed from offset 0 of their own buffer (aligned); a small result may sit in a shared pool.
  return out.byteOffset === 0 && out.buffer.byteLength === expected ? out : new Uint8Array(out);
}

export class ArtifactFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactFormatError';
  }
}

function typeOf(data: SectionData): SectionType {
  if (data instanceof Int8Array) return 'i8';
  if (data instanceof Uint16Array) return 'u16';
  if (data instanceof Uint32Array) return 'u32';
  if (data instanceof Float32Array) return 'f32';
  return 'u8';
}

const ALIGN = 8;
const align = (n: number) => Math.ceil(n / ALIGN) * ALIGN;
/** magic u32, version u16, kind u16, header length u32, total length u32, then the seal. */
const SEAL_OFFSET = 16;
const SEAL_BYTES = 32;
const PREAMBLE_BYTES = SEAL_OFFSET + SEAL_BYTES;

/**
 * Sections are stored in name order, or in `order` when given (a shard puts what every query reads first, so that
 * part is one byte range; names left out of `order` follow in name order).
 */
export function encodeArtifact(
  kind: ArtifactKind,
  header: unknown,
  sections: Record<string, SectionData> = {},
  order: readonly string[] = [],
  deflate: DeflateOptions = {},
): Uint8Array {
  const names = [
    ...order.filter((n) => n in sections),
    ...Object.keys(sections)
      .filter((n) => !order.includes(n))
      .sort(),
  ];
  const table: SectionEntry[] = [];
  const stored: Uint8Array[] = [];
  let cursor = 0;
  for (const name of names) {
    const data = sections[name]!;
    const plain = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const z = deflate.sections?.includes(name) ? deflated(plain) : null;
    table.push({ name, type: typeOf(data), offset: cursor, length: data.length, ...(z ? { z: z.byteLength } : {}) });
    stored.push(z ?? plain);
    cursor = align(cursor + (z ?? plain).byteLength);
  }
  const json = new TextEncoder().encode(JSON.stringify({ header, sections: table }));
  const zHeader = deflate.header ? deflated(json) : null;
  const headerBytes = zHeader ?? json;
  const dataStart = align(PREAMBLE_BYTES + headerBytes.length);
  const out = new Uint8Array(dataStart + cursor);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint16(4, FORMAT_VERSION, true);
  view.setUint16(6, KIND_CODES[kind] | (zHeader ? HEADER_DEFLATED : 0), true);
  view.setUint32(8, headerBytes.length, true);
  view.setUint32(12, out.byteLength, true);
  out.set(headerBytes, PREAMBLE_BYTES);
  stored.forEach((bytes, i) => {
    out.set(bytes, dataStart + table[i]!.offset);
  });
  return out;
}

/** The bytes a seal covers: everything after it. */
export const sealedPart = (bytes: Uint8Array): Uint8Array => bytes.subarray(PREAMBLE_BYTES);

/** Writes the seal (SHA-256 of sealedPart, computed by the caller: the builder hashes synchronously) in place. */
export function writeSeal(bytes: Uint8Array, digest: Uint8Array): Uint8Array {
  if (digest.byteLength !== SEAL_BYTES) throw new Error('a seal is a 32-byte SHA-256 digest');
  bytes.set(digest, SEAL_OFFSET);
  return bytes;
}

/**
 * Whether `bytes` is a container whose seal matches its content (false for anything truncated, altered or unsealed).
 */
export async function verifySeal(bytes: Uint8Array): Promise<boolean> {
  if (bytes.byteLength < PREAMBLE_BYTES) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(12, true) !== bytes.byteLength) return false;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', sealedPart(bytes)));
  for (let i = 0; i < SEAL_BYTES; i++) if (digest[i] !== bytes[SEAL_OFFSET + i]) return false;
  return true;
}

export interface DecodedArtifact<H> {
  header: H;
  sections: Record<string, SectionData>;
}

/** Where a section lies in its artifact: absolute byte offset and size (for reading it as a byte range). */
export interface SectionPlace {
  type: SectionType;
  start: number;
  /** Stored bytes (deflated ones when `deflated`). */
  bytes: number;
  /** Elements. */
  length: number;
  /** Stored deflated: whole only, never by range. */
  deflated?: true;
}

/** A decoded artifact prefix: the header, the sections wholly inside the prefix, and where every section lies. */
export interface DecodedHead<H> extends DecodedArtifact<H> {
  places: Record<string, SectionPlace>;
  /** The artifact's whole length (from its preamble). */
  total: number;
}

const BYTES: Record<SectionType, number> = { u8: 1, i8: 1, u16: 2, u32: 4, f32: 4 };

/** A whole artifact: its length must be the one its preamble states (then every section lies inside it). */
export function decodeArtifact<H>(bytes: Uint8Array, expectedKind: ArtifactKind): DecodedHead<H> {
  // Checked before the header is parsed, so a truncated or padded artifact says so whatever else is wrong.
  const view = bytes.byteLength >= PREAMBLE_BYTES ? new DataView(bytes.buffer, bytes.byteOffset, PREAMBLE_BYTES) : null;
  if (view && view.getUint32(0, true) === MAGIC && view.getUint32(12, true) !== bytes.byteLength) {
    throw new ArtifactFormatError('artifact truncated or padded: length mismatch');
  }
  return decodeArtifactHead<H>(bytes, expectedKind);
}

/**
 * Decodes the start of an artifact (its first bytes, or all of it): preamble, header and every section that lies
 * wholly inside `bytes`; the others are only placed. A reader of byte ranges decodes a head like this and fetches
 * the rest by place. The seal is not checked here (it covers the whole artifact; verifySeal does that).
 */
export function decodeArtifactHead<H>(bytes: Uint8Array, expectedKind: ArtifactKind): DecodedHead<H> {
  if (bytes.byteLength < PREAMBLE_BYTES) throw new ArtifactFormatError('artifact truncated: no preamble');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new ArtifactFormatError('not an index artifact (bad magic)');
  const version = view.getUint16(4, true);
  if (version !== FORMAT_VERSION) {
    throw new ArtifactFormatError(`artifact format version ${version}, this code reads ${FORMAT_VERSION}`);
  }
  const kindWord = view.getUint16(6, true);
  if ((kindWord & ~HEADER_DEFLATED) !== KIND_CODES[expectedKind]) {
    throw new ArtifactFormatError(`artifact is not a ${expectedKind}`);
  }
  const total = view.getUint32(12, true);
  if (total < bytes.byteLength) throw new ArtifactFormatError('artifact truncated or padded: length mismatch');
  const headerLength = view.getUint32(8, true);
  if (PREAMBLE_BYTES + headerLength > bytes.byteLength) throw new ArtifactFormatError('artifact truncated: header');
  let headerBytes = bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength);
  if (kindWord & HEADER_DEFLATED) {
    try {
      headerBytes = inflateRawSync(headerBytes);
    } catch {
      throw new ArtifactFormatError('artifact header does not inflate');
    }
  }
  let parsed: { header: H; sections: SectionEntry[] };
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(headerBytes));
  } catch {
    throw new ArtifactFormatError('artifact header is not valid JSON');
  }
  if (!parsed || !Array.isArray(parsed.sections)) throw new ArtifactFormatError('artifact header has no section table');
  const dataStart = align(PREAMBLE_BYTES + headerLength);
  // Copy into an aligned buffer once so typed views are legal whatever the caller's byteOffset.
  const body = bytes.slice(Math.min(dataStart, bytes.byteLength));
  const sections: Record<string, SectionData> = {};
  const places: Record<string, SectionPlace> = {};
  for (const s of parsed.sections) {
    const size = BYTES[s.type];
    if (
      !size ||
      !Number.isInteger(s.offset) ||
      !Number.isInteger(s.length) ||
      s.offset % ALIGN !== 0 ||
      s.offset < 0 ||
      s.length < 0
    ) {
      throw new ArtifactFormatError(`bad section entry ${String(s.name)}`);
    }
    if (s.z !== undefined && (!Number.isInteger(s.z) || s.z < 0))
      throw new ArtifactFormatError(`bad section entry ${String(s.name)}`);
    const storedBytes = s.z ?? s.length * size;
    if (dataStart + s.offset + storedBytes > total) throw new ArtifactFormatError(`section ${s.name} out of bounds`);
    places[s.name] = {
      type: s.type,
      start: dataStart + s.offset,
      bytes: storedBytes,
      length: s.length,
      ...(s.z !== undefined ? { deflated: true } : {}),
    };
    if (s.offset + storedBytes > body.byteLength) continue;
    if (s.z === undefined) sections[s.name] = sectionView(s.type, body.buffer, body.byteOffset + s.offset, s.length);
    else
      sections[s.name] = sectionView(
        s.type,
        inflated(body.subarray(s.offset, s.offset + s.z), s.length * size, `section ${s.name}`).buffer,
        0,
        s.length,
      );
  }
  return { header: parsed.header, sections, places, total };
}

function sectionView(type: SectionType, buf: ArrayBufferLike, at: number, length: number): SectionData {
  return type === 'i8'
    ? new Int8Array(buf, at, length)
    : type === 'u16'
      ? new Uint16Array(buf, at, length)
      : type === 'u32'
        ? new Uint32Array(buf, at, length)
        : type === 'f32'
          ? new Float32Array(buf, at, length)
          : new Uint8Array(buf, at, length);
}

export function requireSection<T extends SectionData>(
  decoded: DecodedArtifact<unknown>,
  name: string,
  ctor: { new (...args: never[]): T },
  length?: number,
): T {
  const s = decoded.sections[name];
  if (!(s instanceof ctor)) throw new ArtifactFormatError(`missing or mistyped section ${name}`);
  if (length !== undefined && s.length !== length)
    throw new ArtifactFormatError(`section ${name} has ${s.length} elements, expected ${length}`);
  return s as T;
}
