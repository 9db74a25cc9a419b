/**
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of a byte range. It guards blocks read by range against corruption
 * and truncation in storage or a cache; authenticity is the seal's job (SHA-256 of the whole artifact, checked on
 * whole reads) and the content-addressed key's.
 */
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
