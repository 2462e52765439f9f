//! The oracle's tokenisers: how each [`WordRule`] cuts text into words and each
//! [`QueryTerms`] cuts a query into terms, which words are dropped and how words are stemmed
//! ([`Stemming`]), and when a term matches an event.

use std::collections::HashSet;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_segmentation::UnicodeSegmentation;

use super::{
    CaseMapping, Profile, QueryTerms, RemoveDiacritics, Separators, Stemming, ToolData, WordRule,
};
use crate::{Content, Part};

/// The words of `text` under `rule`, lowercased with the full case mapping, in order
/// (repeats kept, for phrase matching).
pub(crate) fn text_words(rule: WordRule, text: &str) -> Vec<String> {
    text_words_in(rule, CaseMapping::Full, text)
}

/// The words of `text` under `rule`, lowercased under `case` where the rule lowercases (FTS5's
/// own folding and the ASCII letters' are the same under both), in order, repeats kept.
pub(crate) fn text_words_in(rule: WordRule, case: CaseMapping, text: &str) -> Vec<String> {
    match rule {
        WordRule::AsciiLetters => crate::tokenize::event_words(text).collect(),
        WordRule::UnicodeWords { script_runs } => {
            let nfc: String = text.nfc().collect();
            let mut words: Vec<String> = Vec::new();
            for run in nfc
                .split(|c: char| !is_unicode_word_char(c))
                .filter(|w| !w.is_empty())
            {
                let word = case.lowercase(run);
                if script_runs && !word.is_ascii() {
                    words.extend(script_runs_of(&word).filter(|r| *r != word));
                }
                words.push(word);
            }
            words
        }
        WordRule::UnicodeSegmentation => {
            let nfc: String = text.nfc().collect();
            nfc.unicode_words()
                .map(|word| case.lowercase(word))
                .collect()
        }
        WordRule::Whitespace {
            separators,
            cjk_ngrams,
        } => {
            let mut words = Vec::new();
            for token in text
                .split(|c| separators.contains(c))
                .filter(|t| !t.is_empty())
            {
                let token = case.lowercase(token);
                if cjk_ngrams {
                    words.extend(cjk_grams(&token));
                }
                words.push(token);
            }
            words
        }
        WordRule::FullText {
            remove_diacritics,
            script_runs,
        } => {
            let text: std::borrow::Cow<'_, str> = if script_runs {
                cut_script_runs(text).into()
            } else {
                text.into()
            };
            text.split(|c: char| !is_full_text_char(c))
                .map(|word| fold_full_text(word, remove_diacritics))
                .filter(|word| word.chars().any(|c| !is_combining_mark(c)))
                .collect()
        }
        WordRule::Custom(custom) => custom.words(text),
    }
}

/// `text` in NFC, each whitespace-separated word that holds a non-ASCII character cut into its
/// Latin and non-Latin runs, the pieces joined by spaces (ADK Python's `_split_script_runs`
/// after `unicodedata.normalize("NFC", ...)`).
fn cut_script_runs(text: &str) -> String {
    let nfc: String = text.nfc().collect();
    if nfc.is_ascii() {
        return nfc;
    }
    let mut pieces: Vec<String> = Vec::new();
    for word in nfc.split_whitespace() {
        if word.is_ascii() {
            pieces.push(word.to_owned());
        } else {
            pieces.extend(script_runs_of(word));
        }
    }
    pieces.join(" ")
}

/// Python's `\w` for `str`: letters, digits and other numbers, and `_`.
fn is_unicode_word_char(c: char) -> bool {
    c == '_' || is_letter_or_number(c)
}

/// Unicode letters and numbers (general categories L and N). Rust's `is_alphanumeric` also
/// takes the combining marks and enclosed letters (`Ⓐ`) that carry Other_Alphabetic.
pub(crate) fn is_letter_or_number(c: char) -> bool {
    let enclosed = matches!(c,
        '\u{24B6}'..='\u{24E9}' | '\u{1F130}'..='\u{1F149}' | '\u{1F150}'..='\u{1F169}' | '\u{1F170}'..='\u{1F189}');
    c.is_alphanumeric() && !is_combining_mark(c) && !enclosed
}

/// The maximal runs of `word` whose characters are all Latin or all not Latin.
fn script_runs_of(word: &str) -> impl Iterator<Item = String> + '_ {
    let mut runs: Vec<String> = Vec::new();
    let mut last: Option<bool> = None;
    for c in word.chars() {
        let latin = is_latin(c);
        match runs.last_mut() {
            Some(run) if last == Some(latin) => run.push(c),
            _ => runs.push(c.to_string()),
        }
        last = Some(latin);
    }
    runs.into_iter()
}

/// ASCII letters, digits and `_`, and the letters whose Unicode name starts with `LATIN`
/// (Latin-1 letters, Latin Extended A to E, IPA, Latin Extended Additional, Latin ligatures).
fn is_latin(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(c,
        '\u{00C0}'..='\u{00D6}' | '\u{00D8}'..='\u{00F6}' | '\u{00F8}'..='\u{02AF}'
        | '\u{1D00}'..='\u{1D2B}' | '\u{1E00}'..='\u{1EFF}' | '\u{2C60}'..='\u{2C7F}'
        | '\u{A722}'..='\u{A7FF}' | '\u{AB30}'..='\u{AB5A}' | '\u{FB00}'..='\u{FB06}')
}

/// The CJK ranges ADK-Rust's keyword index splits into grams: ideographs, radicals, CJK
/// symbols and punctuation (so `。` is a gram), kana, Hangul syllables.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{2E80}'..='\u{2EFF}' | '\u{3000}'..='\u{303F}' | '\u{3040}'..='\u{309F}'
        | '\u{30A0}'..='\u{30FF}' | '\u{AC00}'..='\u{D7AF}')
}

/// For a token holding any CJK character: each CJK character, and each pair of adjacent
/// characters of which at least one is CJK.
fn cjk_grams(token: &str) -> Vec<String> {
    let chars: Vec<char> = token.chars().collect();
    if !chars.iter().any(|c| is_cjk(*c)) {
        return Vec::new();
    }
    let unigrams = chars.iter().filter(|c| is_cjk(**c)).map(char::to_string);
    let bigrams = chars
        .windows(2)
        .filter(|w| w.iter().any(|c| is_cjk(*c)))
        .map(|w| w.iter().collect::<String>());
    unigrams.chain(bigrams).collect()
}

/// FTS5 `unicode61` token characters: letters, numbers, private use; combining marks are
/// taken into the token (a diacritic after a Latin letter is then folded away, and a token of
/// marks alone is no word).
fn is_full_text_char(c: char) -> bool {
    is_letter_or_number(c) || is_combining_mark(c) || matches!(c, '\u{E000}'..='\u{F8FF}')
}

/// Folds a token as `unicode61 remove_diacritics N` does: each character case-folded on its
/// own (so a final `Σ` becomes `σ`, and so does a final `ς`), a precomposed Latin letter replaced by its base letter
/// when it carries one diacritic (any number with `remove_diacritics 2`), and a combining
/// diacritic after a Latin letter dropped. Other scripts keep their marks.
fn fold_full_text(word: &str, remove_diacritics: RemoveDiacritics) -> String {
    let mut folded = String::with_capacity(word.len());
    let mut after_latin = false;
    for c in word.chars() {
        if is_combining_mark(c) {
            if !after_latin || remove_diacritics == RemoveDiacritics::Keep {
                folded.push(c);
            }
            continue;
        }
        let decomposed: Vec<char> = std::iter::once(c).nfd().collect();
        let (base, marks) = (decomposed[0], decomposed.len() - 1);
        after_latin = is_latin(base);
        let fold = after_latin
            && marks > 0
            && match remove_diacritics {
                RemoveDiacritics::Keep => false,
                RemoveDiacritics::Single => marks == 1,
                RemoveDiacritics::All => true,
            };
        folded.push(if fold { base } else { c });
    }
    // FTS5 folds with Unicode's simple case folding, which also takes the final sigma to `σ`.
    folded
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
        .collect()
}

/// One term of a query: the words an event must hold (consecutively, if more than one), and
/// for non-ASCII terms under ADK Python's rule, the text it may match as a substring; under
/// [`QueryTerms::Substrings`], no word and only that text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Term {
    pub(crate) words: Vec<String>,
    pub(crate) substring: Option<String>,
}

/// The distinct terms of `query` under `profile`, in query order.
pub(crate) fn query_terms(profile: &Profile, query: &str) -> Vec<Term> {
    let case = profile.case_mapping;
    let dropped = &profile.dropped_words;
    let mut terms: Vec<Term> = match profile.query_terms {
        QueryTerms::Tokens { separators } => asked_tokens(profile, query, separators)
            .into_iter()
            .map(|token| Term {
                words: vec![token],
                substring: None,
            })
            .collect(),
        QueryTerms::Words {
            non_ascii_substring,
        } => {
            let rule = match profile.event_words {
                WordRule::UnicodeWords { .. } => WordRule::UnicodeWords { script_runs: false },
                other => other,
            };
            text_words_in(rule, case, query)
                .into_iter()
                .filter(|word| !dropped.is_too_short(word))
                .map(|word| Term {
                    substring: (non_ascii_substring && !word.is_ascii()).then(|| word.clone()),
                    words: vec![word],
                })
                .collect()
        }
        QueryTerms::Phrases { separators } => query
            .split(|c| separators.contains(c))
            .filter(|t| !t.is_empty() && !matches!(*t, "AND" | "OR" | "NOT" | "NEAR"))
            .filter(|t| !dropped.is_too_short(t))
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .map(|token| Term {
                words: text_words_in(profile.event_words, case, token),
                substring: None,
            })
            // FTS5 ignores a phrase that holds no word (`Ⓐ`).
            .filter(|term| !term.words.is_empty())
            .collect(),
        QueryTerms::Substrings { separators } => asked_tokens(profile, query, separators)
            .into_iter()
            .map(|token| Term {
                words: Vec::new(),
                substring: Some(token),
            })
            .collect(),
        QueryTerms::WordRuns => {
            // The query is cut into script runs once, before it is lowercased, as ADK Python
            // cuts it: `İ` lowercases under the full mapping to `i` and U+0307, which is no
            // Latin letter, so a second cut after lowercasing would break the word apart.
            let (query, rule): (String, WordRule) = match profile.event_words {
                WordRule::FullText {
                    remove_diacritics,
                    script_runs: true,
                } => (
                    cut_script_runs(query),
                    WordRule::FullText {
                        remove_diacritics,
                        script_runs: false,
                    },
                ),
                rule => (query.nfc().collect(), rule),
            };
            query
                .split(|c: char| !(is_unicode_word_char(c) || c == '%'))
                .filter(|run| !run.is_empty() && !dropped.is_too_short(run))
                .map(|run| Term {
                    words: text_words_in(rule, case, &case.lowercase(run)),
                    substring: None,
                })
                .filter(|term| !term.words.is_empty())
                .collect()
        }
    };
    // A stop word is never asked: it leaves every term, and a term left without a word goes.
    if !dropped.stop_words.is_empty() {
        terms.retain_mut(|term| {
            if term.words.is_empty() {
                return !term
                    .substring
                    .as_deref()
                    .is_some_and(|s| dropped.is_stop_word(s));
            }
            term.words.retain(|word| !dropped.is_stop_word(word));
            !term.words.is_empty()
        });
    }
    // Each word of a term is compared by its stem (a substring is matched as written).
    if profile.stemming != Stemming::None {
        for term in &mut terms {
            for word in &mut term.words {
                *word = profile.stemming.stem(word).into_owned();
            }
        }
    }
    let mut seen = HashSet::new();
    terms.retain(|term| seen.insert(term.clone()));
    terms
}

/// The tokens of `query` split on `separators`, each lowercased under the profile's case
/// mapping, without those too short to be asked (counted as the query writes them).
fn asked_tokens(profile: &Profile, query: &str, separators: Separators) -> Vec<String> {
    // The query is lowercased whole, as before any term was dropped (a final sigma's context
    // may reach across a separator that is case-ignorable); lowercasing makes and removes no
    // separator, so the written and lowercased tokens pair up.
    let lowered = profile.case_mapping.lowercase(query);
    let written = query
        .split(|c| separators.contains(c))
        .filter(|t| !t.is_empty());
    let lowered = lowered
        .split(|c| separators.contains(c))
        .filter(|t| !t.is_empty());
    written
        .zip(lowered)
        .filter(|(written, _)| !profile.dropped_words.is_too_short(written))
        .map(|(_, token)| token.to_owned())
        .collect()
}

/// What a lexical backend can match of one stored event.
#[derive(Clone, Debug)]
pub(crate) struct IndexedEvent {
    words: Vec<String>,
    set: HashSet<String>,
    lowered: String,
}

/// The text of `content` a backend indexes under `profile`: its text parts, and where tool
/// data is indexed the names and string values of its calls and responses, joined by spaces.
pub(crate) fn indexed_text(profile: &Profile, content: &Content) -> String {
    let mut texts: Vec<String> = content
        .texts()
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    if profile.tool_data == ToolData::Indexed {
        for part in &content.parts {
            match part {
                Part::FunctionCall { name, args } => {
                    texts.push(name.clone());
                    collect_strings(args, &mut texts);
                }
                Part::FunctionResponse { name, response } => {
                    texts.push(name.clone());
                    collect_strings(response, &mut texts);
                }
                _ => {}
            }
        }
    }
    texts.join(" ")
}

impl IndexedEvent {
    /// Indexes `content` under `profile`'s word rule and tool-data rule.
    pub(crate) fn new(profile: &Profile, content: &Content) -> Self {
        let joined = indexed_text(profile, content);
        let case = profile.case_mapping;
        let mut words = text_words_in(profile.event_words, case, &joined);
        // A stop word is never indexed: an event of stop words only carries no word.
        words.retain(|word| !profile.dropped_words.is_stop_word(word));
        // A stemming backend indexes each word's stem, after its stop words went.
        if profile.stemming != Stemming::None {
            for word in &mut words {
                *word = profile.stemming.stem(word).into_owned();
            }
        }
        let lowered = match profile.query_terms {
            QueryTerms::Words {
                non_ascii_substring: true,
            } => case.lowercase(&joined.nfc().collect::<String>()),
            QueryTerms::Substrings { .. } => case.lowercase(&joined),
            _ => String::new(),
        };
        Self {
            set: words.iter().cloned().collect(),
            words,
            lowered,
        }
    }

    /// Whether `term` matches this event.
    pub(crate) fn matches(&self, term: &Term) -> bool {
        match term.words.as_slice() {
            // A substring term (`QueryTerms::Substrings`) holds no word.
            [] => term
                .substring
                .as_ref()
                .is_some_and(|s| self.lowered.contains(s.as_str())),
            [word] => {
                self.set.contains(word)
                    || term
                        .substring
                        .as_ref()
                        .is_some_and(|s| self.lowered.contains(s.as_str()))
            }
            phrase => self
                .words
                .windows(phrase.len())
                .any(|window| window == phrase),
        }
    }

    /// Whether the event has any word at all (events without words never match).
    pub(crate) fn has_words(&self) -> bool {
        !self.words.is_empty()
    }
}

fn collect_strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Separators;
    use crate::profile::{Profile, ToolData};

    #[test]
    fn word_rules_cut_the_worked_example_as_the_backends_do() {
        let text = "My favourite coffee is a flat-white. Order 4417, café 私はPythonを使う";
        assert_eq!(
            text_words(WordRule::AsciiLetters, text),
            [
                "my",
                "favourite",
                "coffee",
                "is",
                "a",
                "flat",
                "white",
                "order",
                "caf",
                "python"
            ]
        );
        assert_eq!(
            text_words(WordRule::UnicodeWords { script_runs: true }, text),
            [
                "my",
                "favourite",
                "coffee",
                "is",
                "a",
                "flat",
                "white",
                "order",
                "4417",
                "café",
                "私は",
                "python",
                "を使う",
                "私はpythonを使う"
            ]
        );
        let one = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::Single,
            script_runs: false,
        };
        let two = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::All,
            script_runs: false,
        };
        assert_eq!(
            text_words(
                two,
                "Café cafe\u{301} NAI\u{308}VE flat-white 4417 ΟΔΟΣ οδος"
            ),
            [
                "cafe", "cafe", "naive", "flat", "white", "4417", "οδοσ", "οδοσ"
            ]
        );
        // One diacritic folds under remove_diacritics 1, two only under 2 (ệ: circumflex, dot).
        assert_eq!(text_words(one, "Việt Ångström"), ["việt", "angstrom"]);
        assert_eq!(text_words(two, "Việt"), ["viet"]);
        assert_eq!(text_words(two, "Ⓐlpha \u{345} beta"), ["lpha", "beta"]);
        assert_eq!(
            text_words(
                WordRule::Whitespace {
                    separators: Separators::UnicodeWhitespace,
                    cjk_ngrams: true
                },
                "Coffee? 咖啡x"
            ),
            ["coffee?", "咖", "啡", "咖啡", "啡x", "咖啡x"]
        );
    }

    fn profile(event_words: WordRule, query_terms: QueryTerms) -> Profile {
        let mut profile = Profile::reference();
        profile.event_words = event_words;
        profile.query_terms = query_terms;
        profile
    }

    fn terms(profile: &Profile, query: &str) -> Vec<Vec<String>> {
        query_terms(profile, query)
            .into_iter()
            .map(|t| t.words)
            .collect()
    }

    #[test]
    fn under_english_stemming_words_are_compared_by_their_stems_after_the_stop_words() {
        use crate::profile::{DroppedWords, Stemming};
        let finds = |profile: &Profile, stored: &str, query: &str| {
            let event = IndexedEvent::new(profile, &Content::text(stored));
            query_terms(profile, query).iter().any(|t| event.matches(t))
        };
        let mut english = Profile::reference();
        english.stemming = Stemming::English;
        assert!(finds(&english, "I brewed tea", "brewing"));
        assert!(!finds(&Profile::reference(), "I brewed tea", "brewing"));
        assert!(
            !finds(&english, "I ran", "running"),
            "an irregular form is another stem"
        );
        // A phrase matches word by word, by stems.
        let mut phrases = profile(
            WordRule::AsciiLetters,
            QueryTerms::Phrases {
                separators: Separators::AsciiWhitespace,
            },
        );
        phrases.stemming = Stemming::English;
        assert_eq!(terms(&phrases, "brewing-teas"), [["brew", "tea"]]);
        assert!(finds(&phrases, "she brews teas daily", "brewed-tea"));
        assert!(!finds(&phrases, "teas she brews", "brewed-tea"));
        // A stop word is known as written, before stemming: `was` goes, `wa` is no stop word.
        english.dropped_words = DroppedWords::stop_words(["was"]);
        assert_eq!(terms(&english, "was brewing"), [["brew"]]);
        // A substring is matched as stored, unstemmed.
        let mut python = Profile::adk_python();
        python.stemming = Stemming::English;
        assert!(finds(&python, "咖啡s", "咖啡"));
    }

    #[test]
    fn unicode_words_keep_digits_and_underscore_and_split_scripts_only_when_asked() {
        let plain = WordRule::UnicodeWords { script_runs: false };
        assert_eq!(
            text_words(plain, "snake_case 4417 Ⓐb ½x"),
            ["snake_case", "4417", "b", "½x"]
        );
        assert_eq!(text_words(plain, "私はPythonを使う"), ["私はpythonを使う"]);
        let runs = WordRule::UnicodeWords { script_runs: true };
        assert_eq!(text_words(runs, "Ⅻ東京"), ["ⅻ東京"]);
        // Latin Extended and ligatures are Latin; Greek and Cyrillic are not.
        assert_eq!(text_words(runs, "ﬁxβ"), ["ﬁx", "β", "ﬁxβ"]);
        assert_eq!(text_words(runs, "ǅaя"), ["ǆa", "я", "ǆaя"]);
        assert_eq!(text_words(runs, "ḁẞ_1ж"), ["ḁß_1", "ж", "ḁß_1ж"]);
    }

    #[test]
    fn whitespace_words_split_only_on_their_separators_and_grams_only_cjk() {
        let words = |separators, text| {
            text_words(
                WordRule::Whitespace {
                    separators,
                    cjk_ngrams: false,
                },
                text,
            )
        };
        assert_eq!(words(Separators::Space, "a\tb c"), ["a\tb", "c"]);
        assert_eq!(
            words(Separators::AsciiWhitespace, "a\u{A0}b\x0Bc"),
            ["a\u{a0}b", "c"]
        );
        assert_eq!(
            words(Separators::UnicodeWhitespace, "a\u{A0}b\u{85}c\u{FEFF}d"),
            ["a", "b", "c\u{feff}d"]
        );
        assert_eq!(
            words(
                Separators::JavaScriptWhitespace,
                "a\u{85}b\u{FEFF}c\u{3000}d"
            ),
            ["a\u{85}b", "c", "d"]
        );
        let grams = WordRule::Whitespace {
            separators: Separators::Space,
            cjk_ngrams: true,
        };
        assert_eq!(text_words(grams, "ab"), ["ab"]);
        assert_eq!(text_words(grams, "か。"), ["か", "。", "か。", "か。"]);
        assert_eq!(text_words(grams, "한x"), ["한", "한x", "한x"]);
        assert_eq!(
            text_words(grams, "㐀豈⺀"),
            ["㐀", "豈", "⺀", "㐀豈", "豈⺀", "㐀豈⺀"]
        );
    }

    #[test]
    fn full_text_keeps_marks_of_other_scripts_and_all_diacritics_under_zero() {
        let zero = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::Keep,
            script_runs: false,
        };
        let two = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::All,
            script_runs: false,
        };
        assert_eq!(
            text_words(zero, "Café cafe\u{301}"),
            ["café", "cafe\u{301}"]
        );
        assert_eq!(
            text_words(two, "к\u{301}от \u{E000}x ΣΑΣ"),
            ["к\u{301}от", "\u{e000}x", "σασ"]
        );
        assert_eq!(text_words(two, "\u{301}\u{301} a"), ["a"]);
        // Precomposed letters of other scripts keep their diacritics too (й, ά).
        assert_eq!(text_words(two, "\u{439} \u{3AC}"), ["\u{439}", "\u{3ac}"]);
        assert_eq!(text_words(two, "a_b"), ["a", "b"]);
    }

    #[test]
    fn unicode_segmentation_words_are_uax29_words_after_nfc() {
        assert_eq!(
            text_words(
                WordRule::UnicodeSegmentation,
                "Can't stop: 3.14 Cafe\u{301} flat_white, 咖啡 私はPython!"
            ),
            [
                "can't",
                "stop",
                "3.14",
                "café",
                "flat_white",
                "咖",
                "啡",
                "私",
                "は",
                "python"
            ]
        );
        assert!(text_words(WordRule::UnicodeSegmentation, " ?! … ").is_empty());
    }

    #[test]
    fn full_text_with_script_runs_cuts_mixed_words_after_nfc() {
        let runs = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::Single,
            script_runs: true,
        };
        assert_eq!(
            text_words(runs, "私はPythonを使う, Cafe\u{301}!"),
            ["私は", "python", "を使う", "cafe"]
        );
        // Without script runs FTS5 keeps the mixed word whole.
        let plain = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::Single,
            script_runs: false,
        };
        assert_eq!(text_words(plain, "私はPythonを使う"), ["私はpythonを使う"]);
        // ASCII text is left as it is; a Latin letter with a diacritic stays in its run.
        assert_eq!(text_words(runs, "flat_white"), ["flat", "white"]);
        assert_eq!(text_words(runs, "Crème東京"), ["creme", "東京"]);
    }

    #[test]
    fn query_word_runs_are_phrases_of_word_characters_and_percent() {
        let sqlite = profile(
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::Single,
                script_runs: true,
            },
            QueryTerms::WordRuns,
        );
        assert_eq!(
            terms(
                &sqlite,
                "coffee_coffee 50% AND Pythonを? ?? café coffee_coffee"
            ),
            [
                vec!["coffee", "coffee"],
                vec!["50"],
                vec!["and"],
                vec!["python"],
                vec!["を"],
                vec!["cafe"],
            ]
            .map(|t| t.into_iter().map(String::from).collect::<Vec<_>>())
        );
        assert!(terms(&sqlite, "?! % _").is_empty());
        let event = IndexedEvent::new(&sqlite, &Content::text("Coffee, coffee and tea"));
        let phrase = &query_terms(&sqlite, "coffee_coffee")[0];
        assert!(event.matches(phrase));
        let apart = IndexedEvent::new(&sqlite, &Content::text("coffee with coffee"));
        assert!(!apart.matches(phrase));
    }

    #[test]
    fn query_tokens_lowercase_split_and_drop_repeats() {
        let reference = Profile::reference();
        assert_eq!(
            terms(&reference, "Coffee  coffee? COFFEE\ttea"),
            [["coffee"], ["coffee?"], ["tea"]].map(|t| t.map(String::from).to_vec())
        );
        assert!(terms(&reference, " \t ").is_empty());
        assert_eq!(terms(&reference, "a\u{A0}b"), [vec!["a\u{a0}b".to_owned()]]);
    }

    #[test]
    fn stop_words_are_neither_indexed_nor_asked() {
        let mut words = profile(
            WordRule::AsciiLetters,
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        );
        words.dropped_words = crate::profile::DroppedWords::stop_words(["the", "or", "what"]);
        assert_eq!(
            terms(&words, "What about THE coffee"),
            [vec!["about".to_owned()], vec!["coffee".to_owned()]]
        );
        assert!(terms(&words, "the, or what?").is_empty());
        assert!(!IndexedEvent::new(&words, &Content::text("The... or what")).has_words());
        let event = IndexedEvent::new(&words, &Content::text("the coffee"));
        assert!(event.has_words());
        assert!(!event.matches(&Term {
            words: vec!["the".to_owned()],
            substring: None
        }));
        // A phrase loses its stop words, on both sides.
        let mut phrases = Profile::reference();
        phrases.query_terms = QueryTerms::Phrases {
            separators: Separators::AsciiWhitespace,
        };
        phrases.dropped_words = words.dropped_words.clone();
        let phrase = &query_terms(&phrases, "flat-the-white")[0];
        assert_eq!(phrase.words, ["flat", "white"]);
        assert!(IndexedEvent::new(&phrases, &Content::text("flat the white")).matches(phrase));
    }

    #[test]
    fn short_query_terms_are_not_asked_and_stored_text_is_untouched() {
        let mut substrings = profile(
            WordRule::Whitespace {
                separators: Separators::UnicodeWhitespace,
                cjk_ngrams: false,
            },
            QueryTerms::Substrings {
                separators: Separators::UnicodeWhitespace,
            },
        );
        substrings.dropped_words = crate::profile::DroppedWords::none().with_shorter_than(3);
        let asked: Vec<Option<String>> = query_terms(&substrings, "did I flat-white it v2 咖啡 İs")
            .into_iter()
            .map(|t| t.substring)
            .collect();
        assert_eq!(asked, [Some("did".into()), Some("flat-white".into())]);
        assert!(query_terms(&substrings, "v2 it").is_empty());
        let event = IndexedEvent::new(&substrings, &Content::text("it is"));
        assert!(event.has_words());
        assert!(!event.matches(&query_terms(&substrings, "IT IS it's")[0]));
        let tea = IndexedEvent::new(&substrings, &Content::text("my tea"));
        assert!(tea.matches(&query_terms(&substrings, "TEA")[0]));
    }

    #[test]
    fn query_words_are_cut_like_text_and_non_ascii_ones_match_as_substrings() {
        let words = profile(
            WordRule::UnicodeWords { script_runs: true },
            QueryTerms::Words {
                non_ascii_substring: true,
            },
        );
        // The query is cut without script runs, whatever the text rule.
        assert_eq!(
            terms(&words, "私はPython coffee?"),
            [vec!["私はpython".to_owned()], vec!["coffee".to_owned()]]
        );
        let terms = query_terms(&words, "咖啡 tea");
        assert_eq!(terms[0].substring.as_deref(), Some("咖啡"));
        assert_eq!(terms[1].substring, None);
        let event = IndexedEvent::new(&words, &Content::text("我喜欢咖啡 and TEA"));
        assert!(event.matches(&terms[0]) && event.matches(&terms[1]));
        let no_substrings = profile(
            WordRule::UnicodeWords { script_runs: true },
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        );
        let term = &query_terms(&no_substrings, "咖啡")[0];
        assert_eq!(term.substring, None);
        assert!(!IndexedEvent::new(&no_substrings, &Content::text("我喜欢咖啡")).matches(term));
    }

    #[test]
    fn query_phrases_drop_operators_and_wordless_tokens_and_match_consecutive_words() {
        let phrases = profile(
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: false,
            },
            QueryTerms::Phrases {
                separators: Separators::AsciiWhitespace,
            },
        );
        assert_eq!(
            terms(&phrases, "flat-white AND OR NOT NEAR and ?? Ⓐ café"),
            [
                vec!["flat".to_owned(), "white".to_owned()],
                vec!["and".to_owned()],
                vec!["cafe".to_owned()]
            ]
        );
        let event = IndexedEvent::new(&phrases, &Content::text("a flat white, please"));
        let flat_white = &query_terms(&phrases, "flat-white")[0];
        let white_flat = &query_terms(&phrases, "white-flat")[0];
        assert!(event.matches(flat_white));
        assert!(!event.matches(white_flat));
        assert!(!event.matches(&Term {
            words: Vec::new(),
            substring: None
        }));
    }

    #[test]
    fn tool_data_is_read_only_where_indexed_and_wordless_events_have_no_words() {
        let content = Content::new(vec![
            Part::function_call(
                "lookup",
                serde_json::json!({"q": ["espresso", {"deep": "mocha"}], "n": 7, "b": true}),
            ),
            Part::function_response("order", serde_json::json!({"status": "shipped"})),
            Part::text(""),
        ]);
        let mut indexed = Profile::reference();
        indexed.tool_data = ToolData::Indexed;
        let event = IndexedEvent::new(&indexed, &content);
        for word in ["lookup", "espresso", "mocha", "order", "shipped"] {
            assert!(
                event.matches(&Term {
                    words: vec![word.to_owned()],
                    substring: None
                }),
                "{word}"
            );
        }
        assert!(!event.matches(&Term {
            words: vec!["true".to_owned()],
            substring: None
        }));
        assert!(event.has_words());
        let plain = IndexedEvent::new(&Profile::reference(), &content);
        assert!(!plain.has_words());
        assert!(!plain.matches(&Term {
            words: vec!["lookup".to_owned()],
            substring: None
        }));
    }
}
