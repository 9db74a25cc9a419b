import { metricByCode } from '../text/metrics';
import type { Chain } from './model';

/**
 * Glossary entities for the metrics the chains' entries are tagged with (the builder's metric vocabulary), in
 * first-mention order: "Capital expenditure" -> "Capital expenditure = purchases of property, plant and equipment".
 */
export function metricEntities(chains: readonly Chain[]): { name: string; description: string }[] {
  const seen = new Set<number>();
  const out: { name: string; description: string }[] = [];
  for (const c of chains) {
    for (const e of c.entries) {
      if (!e.metric || seen.has(e.metric)) continue;
      seen.add(e.metric);
      const m = metricByCode(e.metric);
      if (m) out.push({ name: m.name, description: m.description });
    }
  }
  return out;
}
