import type { StatementKind } from './types';

/** Text key under which restatements of one claim merge: case, spacing and punctuation do not matter. */
export function claimKey(text: string): string {
  let key = recentClaimKeys.get(text);
  if (key === undefined) {
    if (recentClaimKeys.size >= RECENT_CLAIM_KEYS) recentClaimKeys.clear();
    recentClaimKeys.set(
      text,
      (key = text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()),
    );
  }
  return key;
}

/**
 * Claim keys of recently seen statement texts. Every merge of a request's passes asks for the keys of the same few
 * dozen texts, and the Unicode regex is costly. A pure function's memo, bounded (cleared when full, at most a few MB
 * of statement text); it holds filing text, never request data.
 */
const recentClaimKeys = new Map<string, string>();
const RECENT_CLAIM_KEYS = 4096;

/**
 * 32-bit FNV-1a hash of a text's claim key: what a shard's head stores per statement (Shard.claim), so chains dedupe
 * restatements before reading any text. Two different claims share a hash with probability 2^-32 per pair; a chain
 * compares a few thousand pairs, so a wrong merge (one entry left out) is about one request in a million.
 */
export function claimHash(text: string): number {
  const key = claimKey(text);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The claim key of a table row's label (the text before its first colon: "Net sales: FY2022 ..."), hashed as claimHash
 * hashes claims; 0 for a sentence. What a shard's head stores per statement (Shard.rowLabel): a row whose figure a
 * shown row restates is recognised by its source, page and label, before its text is read.
 */
export function rowLabelHash(text: string, kind: StatementKind): number {
  return kind === 'table_row' ? claimHash(text.split(':')[0] ?? '') : 0;
}
