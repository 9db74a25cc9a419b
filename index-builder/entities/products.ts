import type { EntityCandidate } from './candidate';
import { cleanName, splitNameList } from './names';

/**
 * Products and brands, named by an explicit pattern:
 *  - a registered or trademarked name: "XARELTO®", "Post-it™ Notes" (the capitalized words just before the mark);
 *  - a list after "brands include/such as/including" or "products include/such as/including" whose every item is a
 *    proper noun ("brands include the NIKE Brand, Jordan Brand, Hurley and Converse"); a list of common nouns
 *    ("products such as personal computers, tablets") is not a product list and yields nothing;
 *  - "the A, B and C franchises/brands".
 * Support (mentions in several statements) is checked by the collector, so a one-off ® in a footnote stays out.
 */
const MARKED = /((?:[A-Z0-9][\w'’\-.]*\s+(?:(?:of|and|&)\s+)?){0,2}[A-Z0-9][\w'’-]*?)\s?(?:[®™]|(?<=[a-z])TM\b)/g;
/** "Microsoft, Windows and Xbox are registered trademarks of Microsoft Corporation": another owner's names. */
const TRADEMARKS_OF = new RegExp(
  String.raw`(?:^|[.;:]\s)([^.;:]{3,240}?)\s+(?:are|is)\s+(?:either\s+)?(?:an?\s+)?(?:registered\s+)` +
    String.raw`?trademarks?(?:\s+or\s+(?:registered\s+)?trademarks)?\s+of\s+([A-Z][\w&.,' -]{1,60}?)(?=\s+(?:in` +
    String.raw`|or)\b|[.;]|$)`,
  'g',
);
/** Certification and index marks are not anyone's product. */
const NOT_PRODUCT =
  /^(?:LEED|ENERGY STAR|Energy Star|Euronext Vigeo|Dow Jones|NASDAQ|Nasdaq|NYSE|S&P|Bluetooth|Wi-Fi)$/;
const LIST = new RegExp(
  String.raw`\b(brands|products|product lines|franchises)\s*,?\s+(?:include|includes|including|such as|like` +
    String.raw`|are)\s+(?:the\s+)?(.{3,200}?)(?:[.;:]|\s+(?:and\s+)?(?:other|others|many|among)\b|$)`,
  'g',
);
const BEFORE_KIND = /\bthe\s+((?:[A-Z0-9][^,]{0,40},\s*)+(?:and\s+)?[A-Z0-9][\w'’\- ]{0,40}?)\s+(franchises|brands)\b/g;

/**
 * Every word of a marked name is capitalized and it is not a company or legal term. The mark's regex may take a
 * word or two before the name ("Sales of Kettlewise®"): the longest tail that is a name wins ("Kettlewise"), so
 * "Call of Duty®" stays whole.
 */
function markedName(raw: string): string | null {
  const words = raw.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    if (/^(?:of|and|&|the)$/i.test(words[i]!)) continue;
    const name = oneMarkedName(words.slice(i).join(' '));
    if (name) return name;
  }
  return null;
}

function oneMarkedName(raw: string): string | null {
  const name = cleanName(raw);
  if (!name) return null;
  if (name.split(' ').some((w) => !/^[A-Z0-9]/.test(w) && !/^(?:of|and|&|the)$/.test(w))) return null;
  if (/\b(?:Inc|Corp|Corporation|Company|LLC|Ltd)\b/.test(name) || NOT_PRODUCT.test(name)) return null;
  return name;
}

export function productCandidates(sentence: string): EntityCandidate[] {
  const out: EntityCandidate[] = [];
  const add = (name: string | null, detail: string) => {
    if (name && !out.some((c) => c.name === name)) out.push({ kind: 'product', name, role: 'product', detail });
  };
  for (const m of sentence.matchAll(MARKED)) {
    // "Call of Duty®" must not yield "Duty": a mark whose name starts right after a connector is a truncated name.
    if (/[A-Z][\w'’-]*\s+(?:of|&)\s+$/.test(sentence.slice(0, m.index))) continue;
    add(markedName(m[1]!), 'registered or trademarked name');
  }
  for (const m of sentence.matchAll(LIST)) {
    const names = splitNameList(m[2]!.replace(/[®™]/g, ''));
    if (!names || names.length < 2) continue;
    const kind = m[1]!.toLowerCase().replace(/s$/, '').replace('product line', 'product line');
    for (const n of names) add(markedName(n), `${kind} named in a list`);
  }
  for (const m of sentence.matchAll(BEFORE_KIND)) {
    const names = splitNameList(m[1]!.replace(/[®™]/g, ''));
    if (!names || names.length < 2) continue;
    for (const n of names) add(markedName(n), `${m[2]!.replace(/s$/, '')} named in a list`);
  }
  for (const m of sentence.matchAll(TRADEMARKS_OF)) {
    const owner = m[2]!.replace(/[,\s]+$/, '');
    for (const part of m[1]!.split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
      const name = markedName(part);
      if (name) out.push({ kind: 'product', name, role: 'trademark', detail: `trademark of ${owner}` });
    }
  }
  return out;
}
