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
  if (isRisk(text, itemTag)) return 'RISK';
  if (PREDICTION.test(text) && !PAST_PLAN.test(text)) return 'PREDICTION';
  if (ASSESSMENT.test(text)) return 'ASSESSMENT';
  return 'FACT';
}

const MODAL = /\b(?:could|might|may(?! \d)|would)\b/i;
const ADVERSE =
  /\b(?:advers\w*|harm\w*|negative(?:ly)?|los[se]s?|declin\w*|fail\w*|disrupt\w*|impair\w*|reduc\w*|decreas\w*|unable|inability|litigation|penalt\w*|fines?|damag\w*|interrupt\w*|volatil\w*|uncertain\w*|breach\w*|default\w*|delay\w*|shortage\w*|materially|risks?|threat\w*|unfavorabl\w*|lower|weaken\w*|suffer\w*|incur|liabilit\w*)\b/i;
const NO_ASSURANCE = /\b(?:no|cannot (?:give|provide)) (?:assurance|guarantee)|\bcannot (?:assure|guarantee|predict)\b|\bthere can be no\b/i;
const IF_FAIL = /^\s*(?:if|should|in the event)\b[^,]{0,160},?\s.*\b(?:could|may|might|would)\b/i;

function isRisk(text: string, itemTag: string | null): boolean {
  if (NO_ASSURANCE.test(text)) return true;
  if (!MODAL.test(text)) return false;
  if (IF_FAIL.test(text)) return true;
  // Inside Item 1A (and 10-Q Part II Item 1A) a modal sentence is a risk even without an adverse word.
  if (itemTag && /Item-1A$/.test(itemTag)) return true;
  return ADVERSE.test(text);
}

const PREDICTION =
  /\b(?:expects?|expected to|expectations?|anticipates?|anticipated|intends?|intended to|plans? to|planned|will(?! not be material)|forecasts?|projects?|projected|projections?|outlook|guidance|targets?|aims? to|estimates? (?:that|to)|going forward|in the (?:coming|next) (?:year|quarter|\w+ months)|over the next|remainder of (?:fiscal |the )?(?:year|20\d\d)|(?:in|during|for) (?:fiscal )?20\d\d and beyond|future periods?|is scheduled to|are scheduled to|seeks? to|on track to|committed to)\b/i;
// "planned" or "expected" used of the past ("as planned", "than expected") is not a forecast.
const PAST_PLAN = /\b(?:than (?:expected|anticipated|planned)|as (?:expected|anticipated|planned))\b(?![^.]*\b(?:will|expects?)\b)/i;
const ASSESSMENT =
  /\b(?:believes?|believed|in (?:our|management's|management’s) (?:opinion|view|judgment)|we consider|management considers|concluded that|is of the opinion|are (?:adequate|sufficient|reasonable|appropriate)|is (?:adequate|sufficient|reasonable|appropriate)|effective(?:ly)? (?:at|in) (?:a|the) reasonable|reasonable assurance|we are confident|remain confident|we think|judg(?:e)?ment|significant estimates|critical accounting)\b/i;
