import porter2 from 'wink-porter2-stemmer';
import { tokenize } from '../../index-format/tokenize';

/**
 * The index terms a query term's inflections and derivations may take, as the Porter2 (Snowball English) stemmer
 * groups words: "acquire" -> "acquired", "acquiring"; "impairment" -> "impaired". The analyzer strips plurals only, so
 * these are different index terms; the lexical leg scores each as a weaker stand-in for the query term
 * (RANKING.standIns.stemForm), so the index keeps its terms and only the query is widened. Forms are made by swapping
 * English suffixes on the term and kept when Porter2 stems them as it stems the term and the analyzer would index
 * them as they are (not a plural); forms no filing uses are not in the lexicon, and no shard is read for them.
 */
export function stemForms(term: string): string[] {
  if (term.length < 4 || !/^[a-z]+$/.test(term)) return [];
  const stem = porter2(term);
  const roots = new Set([term]);
  for (const suffix of SUFFIXES) {
    if (!suffix || !term.endsWith(suffix) || term.length - suffix.length < 3) continue;
    const root = term.slice(0, -suffix.length);
    roots.add(root);
    // "planned" -> "plann" -> "plan": a doubled final consonant before a suffix.
    if (/([b-df-hj-np-tv-z])\1$/.test(root)) roots.add(root.slice(0, -1));
  }
  const out = new Set<string>();
  for (const root of roots)
    for (const suffix of SUFFIXES) {
      const form = root + suffix;
      if (form === term || out.has(form) || porter2(form) !== stem) continue;
      const indexed = tokenize(form);
      if (indexed.length === 1 && indexed[0] === form) out.add(form);
    }
  return [...out].sort();
}

// The endings English inflects verbs with and derives their nouns of action and agent with; '' keeps the bare
// root. Adjective and adverb endings stay out: Porter2 strips them too, and most forms they make are no words.
const SUFFIXES = ['', 'e', 'ed', 'd', 'ing', 'ion', 'ment', 'er', 'or'];
