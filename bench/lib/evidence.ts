/**
 * Reads the `evidence` string of a response back into entries: the consensus text and, for each source that
 * states it, the source id and the 0-based corpus page. The renderer prints "page N" (1-based) on each source's
 * additional_context line (src/render/evidence.ts, describeOccurrence); that is the page provenance the scores use.
 */
export interface Occurrence {
  sourceId: string;
  /** 0-based page index of the filing, as in the corpus's pages.jsonl (renderer prints page + 1). */
  page: number;
}

export interface EvidenceEntry {
  chain: number;
  text: string;
  occurrences: Occurrence[];
}

export function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

export function parseEvidence(evidence: string | undefined): EvidenceEntry[] {
  if (!evidence) return [];
  const entries: EvidenceEntry[] = [];
  let chain = 0;
  for (const c of evidence.matchAll(/<evidence_chain\b[^>]*>([\s\S]*?)<\/evidence_chain>/g)) {
    for (const e of c[1]!.matchAll(/<entry\b[^>]*>([\s\S]*?)<\/entry>/g)) {
      const body = e[1]!;
      const text = unescapeXml(/<consensus>([\s\S]*?)<\/consensus>/.exec(body)?.[1] ?? '');
      const context = /<additional_context>([\s\S]*?)<\/additional_context>/.exec(body)?.[1] ?? '';
      const occurrences: Occurrence[] = [];
      for (const line of context.split('\n')) {
        const m = /^- \[([^\]]+)\].*?\bpage (\d+)\b/.exec(line.trim());
        if (m) occurrences.push({ sourceId: unescapeXml(m[1]!), page: Number(m[2]) - 1 });
      }
      entries.push({ chain, text, occurrences });
    }
    chain++;
  }
  return entries;
}
