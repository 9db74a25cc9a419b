import type { EpistemicStatus, StatementKind } from '../../index-format/types';

/**
 * Epistemic status of a statement, by ordered cue rules (docs/DECISIONS.md "Epistemic statuses"):
 *   RISK        a conditional or hypothetical adverse outcome: "could adversely affect", "may be unable to",
 *               "there can be no assurance", "if we fail to ...". Risk factors are mostly this.
 *   PREDICTION  the company's statement about the future it expects: guidance, plans, expected outcomes and payments
 *               ("we expect", "is expected to", "plan to", "our outlook", "will" with the company or a figure as
 *               subject), not contract terms, accounting policies or definitions that use the same words.
 *   ASSESSMENT  a present judgement or belief, not a measured fact: "we believe", "management concluded that ... were
 *               effective", "in our opinion", "adequate", "sufficient".
 *   FACT        everything else: reported figures, events and descriptions. Table rows are FACT.
 * The first rule that matches wins, so "we believe our cash will be sufficient" is a PREDICTION and "we believe the
 * loss of a key customer could harm us" is a RISK.
 */
export function classifyStatus(text: string, kind: StatementKind, itemTag: string | null = null): EpistemicStatus {
  if (kind === 'table_row') return 'FACT';
  // Exhibits (10-K Items 15-16, 10-Q Part II Item 6) are contracts and plans: "will", "shall" and "if ... would"
  // state obligations, not expectations, so only explicit expectation verbs count there.
  const exhibit = !!itemTag && /^(?:10K-Item-1[56]|10Q-PartII-Item-6)$/.test(itemTag);
  // The company's judgement of a loss contingency's likelihood, in ASC 450's terms ("the Company believes that it is
  // probable that it will incur a loss", "we consider the risk remote"), is an assessment, though it names a loss
  // that may arise.
  if (LIKELIHOOD_JUDGEMENT.test(text) && !JUDGEMENT_AS_CONDITION.test(text) && !NO_ASSURANCE.test(text))
    return 'ASSESSMENT';
  if (isRisk(text, itemTag, exhibit)) return 'RISK';
  if (isPrediction(text, exhibit)) return 'PREDICTION';
  // "We use words such as believes, expects ... to identify forward-looking statements" describes wording.
  if (ASSESSMENT.test(text) && !FLS_WORDS.test(text) && !NOT_AN_ASSESSMENT.test(text)) return 'ASSESSMENT';
  return 'FACT';
}

// A policy states what is done once such a judgement is made ("accruals ... to the extent that we conclude that a loss
// is both probable and reasonably estimable", "when it is determined the likelihood of redemption is remote").
const JUDGEMENT_AS_CONDITION = new RegExp(
  String.raw`\b(?:if|when|whenever|to the extent|unless|once|until|whether)\b[^.,;]{0,40}\b(?:believes?` +
    String.raw`|considers?|concluded?|determined?)\b`,
  'i',
);
const LIKELIHOOD_JUDGEMENT =
  /\b(?:believes?|considers?|concluded?|determined?)\b[^.,;]{0,40}\b(?:probable|remote|reasonably possible)\b/i;
const FLS_WORDS = /\b(?:words|expressions|terms) such as\b|\bsimilar (?:words|expressions)\b/i;

/**
 * A PREDICTION is a statement by the company about the future it expects: guidance, plans and intentions, expected
 * outcomes, expected payments and their timing. Not predictions, though they use the same words: contract and plan
 * terms ("shall", "the Participant", "the notes will mature"), accounting policies and definitions ("revenue will be
 * recognized when", "if it is probable that ... will", "the expected term is the period options are expected to be
 * outstanding"), text about forward-looking statements ("words such as expects"), litigation posture ("intends to
 * defend vigorously"), section titles ("Strategy and Outlook").
 */
function isPrediction(text: string, exhibit: boolean): boolean {
  if (CONTRACT.test(text) || NOT_A_FORECAST.test(text) || POLICY.test(text)) return false;
  if (SORTED_BY_EXPECTATION.test(text) && !JOINED_EXPECTATION.test(text)) return false;
  // An expectation inside a restrictive relative clause defines the noun ("the period the services are expected to be
  // provided", "synergies that are expected to be achieved"); a non-restrictive ", which is expected to" still counts.
  if (EXPECTATION.test(text.replace(DEFINING_EXPECTATION, ' ')) && !PAST_PLAN.test(text)) return true;
  if (exhibit || CONDITIONAL_WILL.test(text)) return false;
  return (WILL.test(text) || BELIEF_WILL.test(text)) && !PAST_PLAN.test(text) && !STANDING_WILL.test(text);
}

const DEFINING_EXPECTATION = new RegExp(
  String.raw`\b(?:that|who|(?:period|periods|life|lives|term|time|date|amount|extent) (?:over which ` +
    String.raw`|during which |in which )?the [\w-]+(?: [\w-]+){0,5}) (?:(?:have|has) [^,.]{0,40} or )?(?:is|are) ` +
    String.raw`(?:currently )?(?:expected|anticipated) to\b`,
  'gi',
);
// A standing commitment is a practice, not a forecast: "we will post any amendments to the code on our website".
const STANDING_WILL = /\bwill (?:post|disclose|provide)\b[^.]{0,80}\b(?:amendments?|waivers?|website|web site)\b/i;

const MODAL = /\b(?:could|might|may(?! \d)|would)\b/i;
// In risk factors "can" is hypothetical too ("harm to our brand can arise from many sources").
const MODAL_IN_RISK_FACTORS = /\b(?:could|might|may(?! \d)|would|can)\b/i;
const ADVERSE = new RegExp(
  String.raw`\b(?:advers\w*|harm\w*|negative(?:ly)?|los[se]s?|declin\w*|fail\w*|disrupt\w*|impair\w*|reduc\w*` +
    String.raw`|decreas\w*|unable|inability|litigation|penalt\w*|fines?|damag\w*|interrupt\w*|volatil\w*` +
    String.raw`|uncertain\w*|breach\w*|default\w*|delay\w*|shortage\w*|materially|risks?|threat\w*|unfavorabl\w*` +
    String.raw`|lower|weaken\w*|suffer\w*|incur|liabilit\w*|costly)\b`,
  'i',
);
const NO_ASSURANCE = new RegExp(
  String.raw`\b(?:no|cannot (?:give|provide)) (?:assurance|guarantee)|\bcannot (?:assure|guarantee|predict)\b` +
    String.raw`|\bthere can be no\b`,
  'i',
);
const IF_WILL = /\b(?:if|should|in the event)\b[^.]{0,200}\bwill\b|\bwill\b[^.]{0,200}\b(?:if|should|in the event)\b/i;
const IF_FAIL = /^\s*(?:if|should|in the event)\b[^,]{0,160},?\s.*\b(?:could|may|might|would)\b/i;

const STRONG_ADVERSE = /\b(?:advers\w*|negatively|harm(?:ed|s|ful)?)\b/i;
// Modal words that are not a hypothetical harm: an accounting consequence ("any resulting gain or loss would be
// recognized in earnings", "excluded as their inclusion would be anti-dilutive"), a pointer to the risk factors ("see
// Item 1A, which could affect our results").
const NOT_A_RISK = new RegExp(
  String.raw`\banti-?dilutive\b|\bgains? or loss(?:es)? (?:would|will|may|could) be (?:recognized|recorded` +
    String.raw`|reclassified)\b|\b(?:see|consider|refer to|discussed (?:in|under)|described (?:in|under)` +
    String.raw`|identify in)\b[^.]{0,60}\b(?:risk factors|Item 1A)\b`,
  'i',
);

function isRisk(text: string, itemTag: string | null, exhibit: boolean): boolean {
  if (NO_ASSURANCE.test(text)) return true;
  const riskFactors = !!itemTag && /Item-1A$/.test(itemTag);
  // In risk factors a conditional "will" with an adverse word is a risk too: "if we are unable to ..., our business
  // will suffer".
  if (riskFactors && IF_WILL.test(text) && ADVERSE.test(text)) return true;
  if (!(riskFactors ? MODAL_IN_RISK_FACTORS : MODAL).test(text)) return false;
  if (riskFactors) return true; // a modal sentence in Item 1A is a risk even without an adverse word
  if (NOT_A_RISK.test(text)) return false;
  // Exhibits are mostly contracts ("the Borrower may ..., damages"), but some filers (Pfizer, Corning, Verizon) put the
  // annual report body there: a modal with a strong adverse word outside contract language is a risk there too.
  if (exhibit) return STRONG_ADVERSE.test(text) && !CONTRACT.test(text);
  if (IF_FAIL.test(text)) return true;
  return ADVERSE.test(text);
}

// Expectations stated by the company: the verbs of the safe-harbour vocabulary, "is expected to", "our outlook".
// "plan", "aim" and "target" are verbs only before "to" ("pension plans", "management plans" are nouns); "seek(s)"
// describes a standing aim, not an expectation, so it is not a cue.
const EXPECTATION = new RegExp(
  [
    String.raw`\b(?:we|the company|management|it|they|the corporation|the group)\s+(?:currently\s+|also\s+` +
      String.raw`|now\s+|still\s+|continue to\s+|do(?:es)? not\s+(?:currently\s+)?)?(?:(?:expects?|anticipates?` +
      String.raw`|intends?|forecasts?)\b(?! and perform)|(?:plans?|aims?|targets?) to\b|projects? (?:that|to)\b)`,
    String.raw`\b(?:expects?|anticipates?) (?:to|that)\b`,
    String.raw`\b(?:is|are|was|were) (?:currently )?(?:expected|anticipated|scheduled|projected|forecasted` +
      String.raw`|planned) to\b`,
    String.raw`\b(?:our|its|the company's|the company’s) (?:[\w-]+ )?outlook\b`,
    // "Going forward, ..." opens a forecast; "the relationship going forward" in a contract description does not.
    String.raw`^\s*going forward\b`,
    String.raw`\bestimates? (?:this|that|the) [\w-]+(?: [\w-]+)? to (?:commence|begin|close|be completed|occur)\b`,
    String.raw`\bin the (?:coming|next) (?:year|quarter|\w+ months)`,
    String.raw`\bover the next \w+ (?:years|months|quarters)`,
    String.raw`\bremainder of (?:fiscal |the )?(?:year|20\d\d)`,
    String.raw`\b(?:in|during|for) (?:fiscal )?20\d\d and beyond`,
    String.raw`\bestimates? that\b[^.]{0,120}\b(?:will|would be|is expected)\b`,
    String.raw`\bon track to\b`,
  ].join('|'),
  'i',
);
// A bare "will" is forward-looking when the company or a figure is its subject, not in definitions.
const WILL = new RegExp(
  String.raw`\b(?:we|our|the company|management|it|they|these|this|[\w-]+ (?:costs?|expenses?|commitments?` +
    String.raw`|payments?|contributions?|sales|revenues?|margins?))\s+(?:\w+\s+){0,3}?will\b(?! not be material)`,
  'i',
);
// A belief about what will happen is a forecast: "we believe the liability will not have a material effect".
const BELIEF_WILL = /\b(?:we|the company|management) believes?\b[^.;]{0,400}\bwill\b/i;
// "will" in a condition or an accounting threshold states a policy, not an expectation: "if the carrying value
// exceeds fair value, the Company will record an impairment", "if it is probable that the costs will be recovered",
// "revenue will be recognized when control transfers", "the notes will mature in 2030" (a contract term).
const CONDITIONAL_WILL = new RegExp(
  [
    String.raw`^\s*(?:if|when|whenever|once|unless|upon|in the event|to the extent|in the case)\b`,
    String.raw`\b(?:reasonably certain|probable|more likely than not|reasonably assured|reasonable likelihood` +
      String.raw`|reasonably possible) that\b`,
    String.raw`\bwill be (?:recognized|recorded|measured|stated|reclassified|classified|accounted for|reported)` +
      String.raw`\b[^.]{0,60}\b(?:when|if|upon|once|at the time)\b`,
    String.raw`\bwill (?:mature|expire|vest|accrue|bear interest|be (?:payable|convertible|redeemable)` +
      '|automatically (?:renew|terminate|extend)|(?:continue to )?remain in effect|terminate|(?:be' +
      String.raw`|become) effective (?:for|as of|beginning|on|in)\b)\b`,
    String.raw`\bevaluating (?:when|whether|how)\b`,
    // a condition clause just before the subject: "For all awards, in the event the results equal the target, the
    // Company will grant ..."
    String.raw`\b(?:if|when|whenever|in the event|to the extent|unless)\b[^,.;]{0,160}, (?:the company|we|it` +
      String.raw`|they) will\b`,
    String.raw`\bupon (?:written )?request\b`,
  ].join('|'),
  'i',
);
// Contract and plan language: obligations and parties, not the company's expectations.
// Case-sensitive: the capitalized defined terms of award agreements ("the Participant"), not "participants" in prose.
const CONTRACT = new RegExp(
  String.raw`\b[Ss]hall\b|\b(?:hereunder|herein|hereof|hereby)\b|\b(?:Participant|Awardee|Grantee|Optionee)\b` +
    String.raw`|\b[Cc]laims? (?:[Aa]dministrator|reviewer)\b|\b[Yy]ou(?:r)?\b`,
);
// Words about the future that do not forecast: forward-looking-statement boilerplate, litigation posture, accounting
// definitions, "reasonable likelihood" of a change in critical accounting estimates, section titles.
const NOT_A_FORECAST = new RegExp(
  [
    'forward-looking (?:statements?|information)|safe harbou?r|words such as|expressions such as',
    String.raw`\b(?:intends?|plans?|expects?) to (?:continue to )?(?:vigorously |defend (?:itself |ourselves ` +
      String.raw`|themselves )?vigorously)|\b(?:intends?|plans?|expects?) to (?:continue to )?(?:defend|contest)` +
      String.raw`\b`,
    String.raw`\bexpected to (?:be outstanding|remain outstanding|hold (?:their|the) (?:options|awards))` +
      String.raw`|\bexpected (?:term|life|lives|volatility)\b[^.]{0,40}\b(?:is|are|represents?)\b`,
    String.raw`\bis a (?:statistical )?measure of\b|[”"] means\b|\bis defined as\b`,
    String.raw`\breasonable likelihood that there will be a material change\b`,
    String.raw`\b(?:difficult|not possible|impossible) to (?:predict|determine|estimate)\b`,
    String.raw`\b(?:intends?|plans?|expects?) to\b[^.]{0,80}\bvigorously\b`,
    // the premises of a pension investment strategy: "the investment strategy expects equity investments to yield"
    String.raw`\b(?:investment|asset allocation) (?:strategy|strategies|policy|policies|objectives?)\b`,
  ].join('|'),
  'i',
);
// Accounting-policy boilerplate that uses the verbs without forecasting: "the consideration we expect to receive",
// "we recognize an asset if we expect the benefit to exceed one year", "tax rates in the years in which we expect the
// differences to reverse".
const POLICY = new RegExp(
  String.raw`\bconsideration\b[^.]{0,60}\bexpects? to (?:be entitled to )?receive|\bexpects? to be entitled\b` +
    String.raw`|\b(?:if|when|whether|unless|in which|where) (?:we|the company|it|management) (?:do(?:es)? not ` +
    String.raw`|currently )?(?:expects?|anticipates?)\b`,
  'i',
);
// A policy that sorts items by an expectation: "liabilities expected to be paid within twelve months are classified as
// current", "recoverability is measured by comparison to the cash flows the asset is expected to generate".
const SORTED_BY_EXPECTATION =
  /\b(?:are|is) (?:classified|recorded|measured|determined|presented) (?:as|by|using|in|at)\b/i;
// ... unless a forecast is joined to the classification: "the notes are classified as current, and we expect to repay
// them in the first quarter".
const JOINED_EXPECTATION =
  /\b(?:and|but|as) (?:we|the company|management) (?:currently )?(?:expects?|intends?|anticipates?|plans? to)\b/i;
// "planned" or "expected" used of the past ("as planned", "than expected") is not a forecast.
const PAST_PLAN =
  /\b(?:than (?:expected|anticipated|planned)|as (?:expected|anticipated|planned))\b(?![^.]*\b(?:will|expects?)\b)/i;
// A belief that is not the company's present judgement: a policy ("if and when we believe"), the reason for a reported
// figure ("a valuation allowance ... because the Company believes"), a belief in a restrictive relative clause ("items
// that management believes do not reflect"), someone else's belief, auditor's boilerplate.
const NOT_AN_ASSESSMENT = new RegExp(
  [
    String.raw`\b(?:if|when|whether|unless)(?: and when)? (?:we|the company|management|it) (?:believes?` +
      String.raw`|considers?|concludes?)\b`,
    String.raw`(?:\$\s?\d|\b(?:recorded|recognized)\b)[^.]*\b(?:because|since) (?:the company|we|management)` +
      String.raw` believes?\b`,
    String.raw`\b(?:because|since) (?:the company|we|management) believes?\b[^.]*\b(?:recorded|recognized)\b`,
    String.raw`\bthat (?:we|management|the company) (?:believes?|considers?)\b`,
    String.raw`\b(?:they|he|she|he/she|it) (?:reasonably )?believes?\b|\bbelieved by\b` +
      String.raw`|\breasonably believe[sd]?\b|\bcause to believe\b`,
    String.raw`\bappropriate in the circumstances\b`,
  ].join('|'),
  'i',
);
const ASSESSMENT = new RegExp(
  String.raw`\b(?:believes?|believed|in (?:our|management's|management’s) (?:opinion|view)|management considers` +
    '|concluded that|is of the opinion|(?:are|is|remain|remains) (?:adequate|sufficient|reasonable' +
    String.raw`|appropriate|critical to|essential to|important to)\b|we are confident|remain confident|we think` +
    String.raw`|consider(?:s|ed)? (?:the|this|such) risks? (?:to be )?remote|we consider\b[^.]{0,80}\bto (?:be` +
    String.raw`|have)\b)`,
  'i',
);
