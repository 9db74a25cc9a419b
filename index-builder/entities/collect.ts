import type { CatalogEntity } from '../../index-format/types';
import { entityMatcher, segmentNeedsContext, type EntityKind } from '../../index-format/entities';
import type { EntityCandidate } from './candidate';
import { counterpartyCandidates } from './counterparties';
import { productCandidates } from './products';
import { namedSegmentCandidates, segmentNames, segmentRowKey } from './segments';

/** Where a sentence comes from: its catalog source id, its filing and a label such as "FY2022 10-K". */
export interface EntitySourceRef {
  id: string;
  filing: number;
  period: string;
  label: string;
}

/**
 * Support thresholds (DECISIONS.md "Entities"). A listed segment needs only its explicit list; a segment named
 * without a list must be called "the X segment" in NAMED_SEGMENT_MIN_SENTENCES sentences of two or more filings;
 * a product needs PRODUCT_MIN_MENTIONS statements of the issuer naming it; customers and suppliers need their one
 * explicit sentence; acquisitions and agreement parties also need COUNTERPARTY_MIN_MENTIONS mentions.
 */
export const NAMED_SEGMENT_MIN_SENTENCES = 6;
/**
 * A named segment that also labels table rows (the segment note's tables) needs only TABLE_SEGMENT_MIN_SENTENCES
 * sentences: in one filing when a row label itself says so ("FedEx Ground segment", "Total X segment"), else
 * ("Graphics", "Rigid Packaging" as bare row labels) sentences and rows each in TABLE_SEGMENT_MIN_FILINGS filings.
 */
export const TABLE_SEGMENT_MIN_SENTENCES = 3;
export const TABLE_SEGMENT_MIN_FILINGS = 2;
export const PRODUCT_MIN_MENTIONS = 3;
export const COUNTERPARTY_MIN_MENTIONS = 2;
/** Caps per issuer, so the catalog stays small: the best supported first. */
export const MAX_PER_KIND: Record<EntityKind, number> = { segment: 10, counterparty: 12, product: 12 };

interface Observed {
  candidate: EntityCandidate;
  hits: number;
  filings: Set<number>;
  first: EntitySourceRef;
  latest: EntitySourceRef;
  latestDetail: string;
}

const ROLE_RANK: Record<string, number> = { customer: 0, supplier: 1, acquisition: 2, 'agreement party': 3 };

const SUFFIXES = new RegExp(
  String.raw`(?:\s+(?:Inc|Incorporated|Corp|Corporation|Company|Co|LLC|Ltd|Limited|plc|PLC|NA|AG|SE|SA|NV|BV` +
    '|GmbH|LP|Holdings|Group|Stores))+$',
);

/**
 * A company name without punctuation, corporate suffixes (and "Stores"), hyphens, apostrophes and spaces: the key
 * that groups its variants, so "Walmart Inc.", "Wal-Mart Stores, Inc." and "Walmart" are one counterparty. A name
 * that is only a suffix word keeps it.
 */
export function baseName(name: string): string {
  const plain = name.replace(/[.,]/g, '').replace(/\s+/g, ' ').trim();
  return (plain.replace(SUFFIXES, '') || plain).replace(/[\s\-'’]/g, '').toLowerCase();
}

function newer(a: EntitySourceRef, b: EntitySourceRef): boolean {
  return a.period > b.period || (a.period === b.period && a.filing > b.filing);
}

export interface CompanyEntities {
  segments: string[];
  entities: CatalogEntity[];
}

/**
 * Collects entity candidates from every sentence of the corpus (builder loop), then keeps the supported ones per
 * issuer. Deterministic: the output depends only on the sentences and their order.
 */
export class EntityCollector {
  private readonly observed = new Map<string, Map<string, Observed>>(); // ticker -> kind|role|name -> observation
  private readonly segmentLists = new Map<
    number,
    { ticker: string; ref: EntitySourceRef; counts: Map<string, number> }
  >();
  private readonly rowLabels = new Map<string, Map<string, Set<number>>>(); // ticker -> segmentRowKey -> filings
  private readonly explicitRows = new Map<string, Set<string>>(); // ticker -> keys of rows labelled "X segment"

  /** A table row's label (with its group: "Net sales: Americas"): evidence for named segments. */
  observeTableRow(ticker: string, label: string, ref: EntitySourceRef): void {
    const { key, explicit } = segmentRowKey(label);
    if (!key) return;
    if (explicit) {
      const set = this.explicitRows.get(ticker) ?? new Set<string>();
      set.add(key);
      this.explicitRows.set(ticker, set);
    }
    const byKey = this.rowLabels.get(ticker) ?? new Map<string, Set<number>>();
    this.rowLabels.set(ticker, byKey);
    const filings = byKey.get(key) ?? new Set<number>();
    filings.add(ref.filing);
    byKey.set(key, filings);
  }

  observeSentence(ticker: string, text: string, ref: EntitySourceRef): void {
    const list = segmentNames(text);
    if (list.length) {
      const f = this.segmentLists.get(ref.filing) ?? { ticker, ref, counts: new Map<string, number>() };
      const key = list.join('\u0000');
      f.counts.set(key, (f.counts.get(key) ?? 0) + 1);
      this.segmentLists.set(ref.filing, f);
    }
    for (const c of [...namedSegmentCandidates(text), ...productCandidates(text), ...counterpartyCandidates(text)]) {
      const byKey = this.observed.get(ticker) ?? new Map<string, Observed>();
      this.observed.set(ticker, byKey);
      const key = `${c.kind}|${c.role}|${c.name}`;
      const o = byKey.get(key);
      if (!o)
        byKey.set(key, {
          candidate: c,
          hits: 1,
          filings: new Set([ref.filing]),
          first: ref,
          latest: ref,
          latestDetail: c.detail,
        });
      else {
        o.hits++;
        o.filings.add(ref.filing);
        if (newer(o.first, ref)) o.first = ref;
        if (newer(ref, o.latest) || ref === o.latest) {
          o.latest = ref;
          o.latestDetail = c.detail;
        }
      }
    }
  }

  /** The segment list most sentences of the issuer's latest listing filing name. */
  private latestLists(): Map<string, { names: string[]; ref: EntitySourceRef }> {
    const latest = new Map<string, { names: string[]; ref: EntitySourceRef }>();
    for (const { ticker, ref, counts } of this.segmentLists.values()) {
      const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
      const prev = latest.get(ticker);
      if (!prev || newer(ref, prev.ref)) latest.set(ticker, { names: best[0].split('\u0000'), ref });
    }
    return latest;
  }

  /**
   * Keeps the supported entities of each issuer. `statementsOf` yields every statement text of an issuer (sentences
   * and table rows): mentions are counted there with the same matcher the Worker uses on entry text.
   */
  finish(
    companies: readonly { ticker: string; company: string; aliases: readonly string[] }[],
    statementsOf: (ticker: string) => Iterable<string>,
  ): Map<string, CompanyEntities> {
    const lists = this.latestLists();
    const firstListRef = new Map<string, EntitySourceRef>();
    for (const { ticker, ref } of this.segmentLists.values()) {
      const prev = firstListRef.get(ticker);
      if (!prev || newer(prev, ref)) firstListRef.set(ticker, ref);
    }
    const out = new Map<string, CompanyEntities>();
    for (const co of companies) {
      const obs = [...(this.observed.get(co.ticker)?.values() ?? [])];
      const list = lists.get(co.ticker);
      const isIssuer = (name: string) => {
        const lower = name.toLowerCase().replace(/[.,]/g, '');
        return co.aliases.some((a) => a === lower || lower.startsWith(`${a} `)) || lower === co.company.toLowerCase();
      };
      // Candidate names: the listed segments (or, with no list, recurring named segments), products, counterparties.
      const rowFilings = (name: string) => this.rowLabels.get(co.ticker)?.get(name)?.size ?? 0;
      const segmentObs = list
        ? []
        : obs.filter(
            (o) =>
              o.candidate.kind === 'segment' &&
              ((o.hits >= NAMED_SEGMENT_MIN_SENTENCES && o.filings.size >= 2) ||
                (o.hits >= TABLE_SEGMENT_MIN_SENTENCES &&
                  (this.explicitRows.get(co.ticker)?.has(o.candidate.name) ||
                    (o.filings.size >= TABLE_SEGMENT_MIN_FILINGS &&
                      rowFilings(o.candidate.name) >= TABLE_SEGMENT_MIN_FILINGS)))),
          );
      const segments = list
        ? list.names
        : segmentObs
            .sort((a, b) => b.hits - a.hits || (a.candidate.name < b.candidate.name ? -1 : 1))
            .map((o) => o.candidate.name)
            .slice(0, MAX_PER_KIND.segment);
      const names = [...new Set([...segments, ...obs.map((o) => o.candidate.name)])];
      const segmentSet = new Set(segments);
      const matcher = entityMatcher(
        names,
        names.map((n) => segmentSet.has(n) && segmentNeedsContext('segment', n)),
      );
      const mentions = new Uint32Array(names.length);
      // Counterparty variants count together: a statement naming "Walmart" or "Wal-Mart Stores" mentions the group.
      const keyOf = names.map((n) => baseName(n));
      const keyMentions = new Map<string, number>();
      for (const text of statementsOf(co.ticker)) {
        const hit = matcher.mentioned(text);
        for (const i of hit) mentions[i]!++;
        for (const k of new Set(hit.map((i) => keyOf[i]!))) keyMentions.set(k, (keyMentions.get(k) ?? 0) + 1);
      }
      const mentionsOf = (name: string) => mentions[names.indexOf(name)] ?? 0;
      const groupMentionsOf = (name: string) => keyMentions.get(baseName(name)) ?? 0;

      const entities: CatalogEntity[] = [];
      const taken = new Set<string>();
      const label = `${co.company} (${co.ticker})`;
      for (const name of segments) {
        taken.add(name);
        const o = obs.find((x) => x.candidate.kind === 'segment' && x.candidate.name === name);
        const first = list ? firstListRef.get(co.ticker)! : o!.first;
        const latest = list ? list.ref : o!.latest;
        const rows = rowFilings(name);
        const how = list
          ? `one of ${segments.length} business segments listed in ${latest.label}`
          : `named as a segment in ${o!.hits} sentences` +
            (o!.hits < NAMED_SEGMENT_MIN_SENTENCES || o!.filings.size < 2
              ? ` and labelling segment table rows in ${rows} filing${rows === 1 ? '' : 's'}`
              : '');
        entities.push({
          name,
          kind: 'segment',
          description: `Segment of ${label}: ${how}${first.label !== latest.label ? `; first ${first.label}` : ''}.`,
          first: first.id,
          latest: latest.id,
          mentions: mentionsOf(name),
        });
      }
      entities.push(...counterpartyEntities(obs, { label, taken, isIssuer, groupMentionsOf }));
      entities.push(...productEntities(obs, { label, taken, isIssuer, mentionsOf }));
      if (segments.length || entities.length) out.set(co.ticker, { segments, entities });
    }
    return out;
  }
}

/** What the entity lists of one issuer are built with. */
interface IssuerContext {
  label: string;
  /** Names already listed (segments, then counterparties): a name is one entity only. */
  taken: Set<string>;
  isIssuer: (name: string) => boolean;
}

/** The issuer's counterparties, ranked by role then by the statements naming any variant. */
function counterpartyEntities(
  obs: readonly Observed[],
  { label, taken, isIssuer, groupMentionsOf }: IssuerContext & { groupMentionsOf: (name: string) => number },
): CatalogEntity[] {
  const out: CatalogEntity[] = [];
  // Variants of one company ("Acelity Inc.", "Acelity, Inc.", "Acelity"; "Walmart Inc.", "Wal-Mart Stores, Inc.")
  // are one entity, shown under the shortest variant the filings use, the others kept as aliases so the
  // glossary matches every spelling; support counts statements naming any variant.
  const counterparties = new Map<string, Observed[]>();
  for (const o of obs) {
    if (o.candidate.kind !== 'counterparty' || taken.has(o.candidate.name) || isIssuer(o.candidate.name)) continue;
    const explicit = o.candidate.role === 'customer' || o.candidate.role === 'supplier';
    if (!explicit && groupMentionsOf(o.candidate.name) < COUNTERPARTY_MIN_MENTIONS) continue;
    const key = baseName(o.candidate.name);
    const list2 = counterparties.get(key) ?? [];
    list2.push(o);
    counterparties.set(key, list2);
  }
  const cpRanked = [...counterparties.values()].map((os) => {
    os.sort((a, b) => ROLE_RANK[a.candidate.role]! - ROLE_RANK[b.candidate.role]! || b.hits - a.hits);
    const name = os.map((o) => o.candidate.name).sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0]!;
    return { name, os, rank: ROLE_RANK[os[0]!.candidate.role]!, score: groupMentionsOf(name) };
  });
  cpRanked.sort((a, b) => a.rank - b.rank || b.score - a.score || (a.name < b.name ? -1 : 1));
  for (const { name, os } of cpRanked.slice(0, MAX_PER_KIND.counterparty)) {
    taken.add(name);
    const aliases = [...new Set(os.map((x) => x.candidate.name))].filter((n) => n !== name).sort();
    for (const a of aliases) taken.add(a);
    const o = os[0]!;
    const first = os.reduce((f, x) => (newer(f, x.first) ? x.first : f), o.first);
    const latest = os.reduce((l, x) => (newer(x.latest, l) ? x.latest : l), o.latest);
    const roles = [...new Set(os.map((x) => x.candidate.role))].join(' and ');
    out.push({
      name,
      kind: 'counterparty',
      description:
        `${roles[0]!.toUpperCase()}${roles.slice(1)} of ${label}: ${o.latestDetail} ` +
        `(${o.latest.label})${first.label !== latest.label ? `; named ${first.label} to ${latest.label}` : ''}.`,
      first: first.id,
      latest: latest.id,
      mentions: groupMentionsOf(name),
      ...(aliases.length ? { aliases } : {}),
    });
  }
  return out;
}

/** The issuer's products and brands named often enough, not another owner's trademarks. */
function productEntities(
  obs: readonly Observed[],
  { label, taken, isIssuer, mentionsOf }: IssuerContext & { mentionsOf: (name: string) => number },
): CatalogEntity[] {
  const out: CatalogEntity[] = [];
  // Names the filings call another owner's trademarks ("Xbox ... are trademarks of Microsoft Corporation") are
  // not the issuer's products.
  const thirdParty = new Set(
    obs
      .filter((o) => o.candidate.role === 'trademark' && !isIssuer(o.candidate.detail.replace(/^trademark of /, '')))
      .map((o) => o.candidate.name),
  );
  const products = obs.filter(
    (o) =>
      o.candidate.kind === 'product' &&
      o.candidate.role === 'product' &&
      !taken.has(o.candidate.name) &&
      !thirdParty.has(o.candidate.name) &&
      !isIssuer(o.candidate.name) &&
      mentionsOf(o.candidate.name) >= PRODUCT_MIN_MENTIONS,
  );
  products.sort(
    (a, b) =>
      mentionsOf(b.candidate.name) - mentionsOf(a.candidate.name) || (a.candidate.name < b.candidate.name ? -1 : 1),
  );
  for (const o of products.slice(0, MAX_PER_KIND.product)) {
    out.push({
      name: o.candidate.name,
      kind: 'product',
      description:
        `Product or brand of ${label}: ${o.latestDetail}; named in ${mentionsOf(o.candidate.name)} ` +
        `statements ` +
        `(${o.first.label === o.latest.label ? o.latest.label : `${o.first.label} to ${o.latest.label}`}).`,
      first: o.first.id,
      latest: o.latest.id,
      mentions: mentionsOf(o.candidate.name),
    });
  }
  return out;
}
