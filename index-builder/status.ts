import type { EpistemicStatus, StatementKind } from '../src/format/types';

/**
 * Epistemic status of a statement, by ordered cue rules (docs/DECISIONS.md "Epistemic statuses"):
 *   RISK        a conditional or hypothetical adverse outcome: "could adversely affect", "may be unable to",
 *               "there can be no assurance", "if we fail to ...". Risk factors are mostly this.
 *   PREDICTION  forward-looking: expectations, plans, guidance, targets ("we expect", "will", "plan to", "outlook").
 *   ASSESSMENT  a present judgement or belief, not a measured fact: "we believe", "management concluded that ... were
 *               effective", "in our opinion", "adequate", "sufficient".
 *   FACT        everything else: reported figures, events and descriptions. Table rows are FACT.
 * The first rule that matches wins, so "we believe our cash will be sufficient" is a PREDICTION and "we believe the
 * loss of a key customer could harm us" is a RISK.
 */
export function classifyStatus(text: string, kind: StatementKind, itemTag: string | null = null): EpistemicStatus {
  if (kind === 'table_row') return 'FACT';
  // Exhibits (Items 15-16) are contracts and plans: "will", "shall" and "if ... would" state obligations, not
  // expectations, so only explicit expectation verbs count there.
  const exhibit = !!itemTag && /^10K-Item-1[56]$/.test(itemTag);
  if (isRisk(text, itemTag, exhibit)) return 'RISK';
  if ((EXPECTATION.test(text) || (!exhibit && (WILL.test(text) || BELIEF_WILL.test(text)))) && !PAST_PLAN.test(text) && !POLICY.test(text)) return 'PREDICTION';
  if (ASSESSMENT.test(text)) return 'ASSESSMENT';
  return 'FACT';
}

const MODAL = /\b(?:could|might|may(?! \d)|would)\b/i;
// In risk factors "can" is hypothetical too ("harm to our brand can arise from many sources").
const MODAL_IN_RISK_FACTORS = /\b(?:could|might|may(?! \d)|would|can)\b/i;
const ADVERSE =
  /\b(?:advers\w*|harm\w*|negative(?:ly)?|los[se]s?|declin\w*|fail\w*|disrupt\w*|impair\w*|reduc\w*|decreas\w*|unable|inability|litigation|penalt\w*|fines?|damag\w*|interrupt\w*|volatil\w*|uncertain\w*|breach\w*|default\w*|delay\w*|shortage\w*|materially|risks?|threat\w*|unfavorabl\w*|lower|weaken\w*|suffer\w*|incur|liabilit\w*|costly)\b/i;
const NO_ASSURANCE = /\b(?:no|cannot (?:give|provide)) (?:assurance|guarantee)|\bcannot (?:assure|guarantee|predict)\b|\bthere can be no\b/i;
const IF_FAIL = /^\s*(?:if|should|in the event)\b[^,]{0,160},?\s.*\b(?:could|may|might|would)\b/i;

function isRisk(text: string, itemTag: string | null, exhibit: boolean): boolean {
  if (NO_ASSURANCE.test(text)) return true;
  const riskFactors = !!itemTag && /Item-1A$/.test(itemTag);
  if (!(riskFactors ? MODAL_IN_RISK_FACTORS : MODAL).test(text)) return false;
  if (riskFactors) return true; // a modal sentence in Item 1A is a risk even without an adverse word
  if (exhibit) return false;
  if (IF_FAIL.test(text)) return true;
  return ADVERSE.test(text);
}

// Expectations stated by the company: the verbs of the safe-harbour vocabulary, "is expected to", "outlook".
const EXPECTATION =
  /\b(?:(?:we|the company|management|it|they|the corporation|the group)\s+(?:currently\s+|also\s+|now\s+|still\s+)?(?:expects?|anticipates?|intends?|plans?|forecasts?|projects?|aims?|targets?|seeks?)\b(?! and perform)|(?:expects?|anticipates?) (?:to|that)\b|(?:is|are|was|were) (?:currently )?(?:expected|anticipated|scheduled|projected|forecasted|planned) to\b|\boutlook\b|going forward|in the (?:coming|next) (?:year|quarter|\w+ months)|over the next \w+ (?:years|months|quarters)|remainder of (?:fiscal |the )?(?:year|20\d\d)|(?:in|during|for) (?:fiscal )?20\d\d and beyond|estimates? that|on track to)/i;
// A bare "will" is forward-looking when the company or a figure is its subject, not in definitions.
const WILL = /\b(?:we|our|the company|management|it|they|these|this|[\w-]+ (?:costs?|expenses?|commitments?|payments?|contributions?|sales|revenues?|margins?))\s+(?:\w+\s+){0,3}?will\b(?! not be material)/i;
// A belief about what will happen is a forecast: "we believe the liability will not have a material effect".
const BELIEF_WILL = /\bbelieves?\b[^.;]{0,160}\bwill\b/i;
// Accounting-policy boilerplate that uses the verbs without forecasting: "the consideration we expect to receive".
const POLICY = /\bconsideration\b[^.]{0,60}\bexpects? to (?:be entitled to )?receive|\bexpects? to be entitled to\b/i;
// "planned" or "expected" used of the past ("as planned", "than expected") is not a forecast.
const PAST_PLAN = /\b(?:than (?:expected|anticipated|planned)|as (?:expected|anticipated|planned))\b(?![^.]*\b(?:will|expects?)\b)/i;
const ASSESSMENT =
  /\b(?:believes?|believed|in (?:our|management's|management’s) (?:opinion|view)|management considers|concluded that|is of the opinion|(?:are|is|remain|remains) (?:adequate|sufficient|reasonable|appropriate|critical to|essential to|important to)|we are confident|remain confident|we think|consider(?:s|ed)? (?:the|this|such) risks? (?:to be )?remote|we consider\b[^.]{0,80}\bto (?:be|have)\b)/i;
