import type { EntityKind } from '../../index-format/entities';

/**
 * One entity named by one sentence through an explicit pattern, with what the sentence says about it: `role` is
 * the relation to the issuer ("customer", "acquisition", "product") and `detail` the fact that describes it
 * ("accounted for 15% of net sales"), both written from the evidence for the glossary.
 */
export interface EntityCandidate {
  kind: EntityKind;
  name: string;
  role: string;
  detail: string;
}
