/**
 * A strict reader of the `evidence` string (spec 2.5), line by line: it accepts only the documented blocks in the
 * documented order and throws on anything else, so a test that parses a response proves its structure is intact
 * (complete chains, no injected tags, every text escaped). Text content may not contain "<" (escaped as &lt;).
 */
export interface ParsedSource {
  id: string;
  attrs: Record<string, string>;
}
export interface ParsedEntry {
  confidence: string;
  sources: string[];
  statuses: { status: string; source: string }[];
  consensus: string;
  context: { source: string; text: string }[];
}
export interface ParsedEvidence {
  registry: ParsedSource[];
  glossary: { name: string; description: string }[];
  chains: { relevance: number; entries: ParsedEntry[] }[];
  sourceKey: { id: string; pairs: string }[] | null;
}

const TEXT = '([^<]*)';
const ATTR_VALUE = '[^"<]*';

function unescapeXml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function parseEvidence(evidence: string): ParsedEvidence {
  const lines = evidence.split('\n');
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`evidence line ${i + 1}: expected ${what}, got ${JSON.stringify(lines[i]?.slice(0, 160))}`);
  };
  const take = (re: RegExp, what: string): RegExpMatchArray => {
    const m = re.exec(lines[i] ?? '');
    if (!m) fail(what);
    i++;
    return m!;
  };
  const peek = (re: RegExp) => re.test(lines[i] ?? '');

  take(/^<source_registry>$/, '<source_registry>');
  const registry: ParsedSource[] = [];
  while (peek(/^<source /)) {
    const m = take(new RegExp(`^<source ((?:[a-z_]+="${ATTR_VALUE}" ?)+)/>$`), '<source .../>');
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(new RegExp(`([a-z_]+)="(${ATTR_VALUE})"`, 'g'))) attrs[a[1]!] = unescapeXml(a[2]!);
    if (!attrs.id) fail('a source id');
    registry.push({ id: attrs.id!, attrs });
  }
  if (!registry.length) fail('at least one <source>');
  take(/^<\/source_registry>$/, '</source_registry>');

  take(/^<entity_glossary>$/, '<entity_glossary>');
  const glossary: ParsedEvidence['glossary'] = [];
  while (peek(/^<entity>$/)) {
    i++;
    const name = take(new RegExp(`^<name>${TEXT}</name>$`), '<name>')[1]!;
    const description = take(new RegExp(`^<description>${TEXT}</description>$`), '<description>')[1]!;
    take(/^<\/entity>$/, '</entity>');
    glossary.push({ name: unescapeXml(name), description: unescapeXml(description) });
  }
  take(/^<\/entity_glossary>$/, '</entity_glossary>');

  const chains: ParsedEvidence['chains'] = [];
  while (peek(/^<evidence_chain /)) {
    const relevance = Number(
      take(/^<evidence_chain relevance_score="(10|[0-9])">$/, '<evidence_chain relevance_score="0..10">')[1],
    );
    const entries: ParsedEntry[] = [];
    while (peek(/^<entry /)) {
      const m = take(/^<entry confidence_score='(High|Medium|Low)' sources='([^'<]+)'>$/, '<entry ...>');
      const sources = m[2]!.split(', ').map(unescape);
      take(/^<observed_epistemic_statuses>$/, '<observed_epistemic_statuses>');
      const statuses: ParsedEntry['statuses'] = [];
      while (peek(/^- /)) {
        const s = take(/^- ([A-Z_]+) \[([^\]<]+)\]$/, '- STATUS [id]');
        statuses.push({ status: s[1]!, source: unescapeXml(s[2]!) });
      }
      take(/^<\/observed_epistemic_statuses>$/, '</observed_epistemic_statuses>');
      const consensus = unescapeXml(take(new RegExp(`^<consensus>${TEXT}</consensus>$`), '<consensus>')[1]!);
      take(/^<additional_context>$/, '<additional_context>');
      const context: ParsedEntry['context'] = [];
      while (peek(/^- /)) {
        const c = take(new RegExp(`^- \\[([^\\]<]+)\\] ${TEXT}$`), '- [id] text');
        context.push({ source: unescapeXml(c[1]!), text: unescapeXml(c[2]!) });
      }
      take(/^<\/additional_context>$/, '</additional_context>');
      take(/^<\/entry>$/, '</entry>');
      entries.push({ confidence: m[1]!, sources, statuses, consensus, context });
    }
    if (!entries.length) fail('at least one <entry>');
    take(/^<\/evidence_chain>$/, '</evidence_chain>');
    chains.push({ relevance, entries });
  }
  if (!chains.length) fail('at least one <evidence_chain>');

  let sourceKey: ParsedEvidence['sourceKey'] = null;
  if (peek(/^<source_key>$/)) {
    i++;
    sourceKey = [];
    while (!peek(/^<\/source_key>$/)) {
      const m = take(new RegExp(`^([^:<]+): ${TEXT}$`), 'id: name=value, ...');
      sourceKey.push({ id: unescapeXml(m[1]!), pairs: unescapeXml(m[2]!) });
    }
    i++;
  }
  if (i !== lines.length) fail('the end of the evidence');
  return { registry, glossary, chains, sourceKey };
}
