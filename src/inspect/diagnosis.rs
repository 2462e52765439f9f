//! A diagnosis of one search: the seed's four checks, what they conclude and how they read.

mod conclusion;
mod walk_through;

use serde::Serialize;

use crate::{MemoryKey, TokenExplanation};

use super::content::ContentCheck;
use super::{KeyDifference, SearchSource};

pub use conclusion::Conclusion;

/// The answer of [`InspectingMemoryService::diagnose`](super::InspectingMemoryService::diagnose)
/// and [`Evidence::diagnose`](super::Evidence::diagnose): the seed's four checks for one
/// search, in order, from what was seen (keys and counts, and content where it is available)
/// and the query, under a profile's match rules.
///
/// [`Diagnosis::conclusion`] names the failing checks; `Display` reads like a debugging
/// walk-through. Neither ever holds stored content, except the excerpts of check 4 when they
/// were asked for ([`Evidence::show_content`](super::Evidence::show_content)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnosis {
    /// The key that was searched.
    pub key: MemoryKey,
    /// The query that was searched, when it is known (a log line without content has only
    /// its counts).
    pub query: Option<String>,
    /// The name of the profile whose match rules the query was explained under.
    pub profile: String,
    /// The entries the search returns, when known: logged, recorded in the conversation that
    /// made it, or computed from the content written to memory under the profile's rules.
    pub hits: Option<usize>,
    /// Where the search was seen.
    pub search: SearchSource,
    /// The stored session whose conversation made the search (its text is never counted as
    /// what the search could find).
    pub searching_session: Option<String>,
    /// Whether the sources hold a log of every memory call the application made, and it
    /// records no search at all: the search diagnosed was only named (`--query`), never made,
    /// and the verdict is [`Conclusion::NoSearch`] whatever the checks say.
    pub no_search_made: bool,
    /// Check 1: was anything written at all?
    pub written: Written,
    /// Check 2: was it written under this key?
    pub right_key: RightKey,
    /// Check 3: do the match rules accept the query?
    pub match_rules: MatchRules,
    /// Check 4: is there text to find under this key?
    pub indexed_text: IndexedText,
}

/// Check 1: every successful write the decorator (or its log) saw, under any key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Written {
    /// Whether writes are known at all: a session store does not record what was written to
    /// memory, so from sessions alone checks 1 and 2 are not known.
    pub known: bool,
    /// Distinct keys written under.
    pub keys: usize,
    /// Distinct sessions written.
    pub sessions: usize,
    /// Events in those sessions, as last written.
    pub events: usize,
}

/// Check 2: the sessions under the searched key, and written keys that nearly equal it (when
/// writes are not known: the keys sessions are stored under that nearly equal it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RightKey {
    /// Sessions written under the searched key.
    pub sessions: usize,
    /// Keys written that differ from the searched one only by [`KeyDifference`]s.
    pub near_misses: Vec<NearMiss>,
}

/// A written key that nearly equals the searched one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NearMiss {
    /// The key that was written.
    pub key: MemoryKey,
    /// How it differs from the searched key.
    pub differences: Vec<KeyDifference>,
    /// Sessions written under it.
    pub sessions: usize,
}

/// Check 3: each query token, and why the dead ones can never match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MatchRules {
    /// The query's tokens under the profile's query rule (when the query is not known, the
    /// dead tokens a log line named).
    pub tokens: Vec<TokenExplanation>,
    /// When the query is not known: the counts a log line gave.
    pub logged: Option<LoggedTokens>,
}

/// The token counts of a logged search whose query text was not logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LoggedTokens {
    /// Query tokens, when logged.
    pub tokens: Option<usize>,
    /// Dead tokens, when logged.
    pub dead: Option<usize>,
}

impl MatchRules {
    /// The tokens that can never match.
    pub fn dead(&self) -> impl Iterator<Item = &TokenExplanation> {
        self.tokens.iter().filter(|token| token.dead.is_some())
    }

    /// Whether at least one token can match (from the counts, for a logged search; when
    /// they are not logged either, it is assumed).
    pub fn any_live(&self) -> bool {
        match self.logged {
            None => self.tokens.iter().any(|token| token.dead.is_none()),
            Some(LoggedTokens {
                tokens: Some(tokens),
                dead: Some(dead),
            }) => dead < tokens,
            Some(LoggedTokens {
                tokens: Some(tokens),
                dead: None,
            }) => tokens > 0,
            Some(_) => true,
        }
    }

    /// How many tokens are dead.
    pub fn dead_count(&self) -> usize {
        self.logged
            .and_then(|logged| logged.dead)
            .unwrap_or_else(|| self.dead().count())
    }
}

/// Check 4: how much of what was written under the key has text a lexical index can read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct IndexedText {
    /// Events written under the key.
    pub events: usize,
    /// Of those, events with no non-empty text part (tool calls and results, inline data,
    /// no content): facts that only they hold can never be found.
    pub events_without_text: usize,
    /// Where the query's words are stored, when the content is available.
    pub content: Option<ContentCheck>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain_tokens_for;
    use crate::profile::Profile;

    fn rules(query: &str, logged: Option<(Option<usize>, Option<usize>)>) -> MatchRules {
        MatchRules {
            tokens: explain_tokens_for(&Profile::reference(), query),
            logged: logged.map(|(tokens, dead)| LoggedTokens { tokens, dead }),
        }
    }

    #[test]
    fn a_query_can_match_when_one_token_is_live() {
        assert!(rules("coffee? tea", None).any_live());
        assert!(!rules("coffee? 4417", None).any_live());
        assert_eq!(rules("coffee? 4417 tea", None).dead_count(), 2);
    }

    #[test]
    fn logged_counts_decide_when_the_query_was_not_logged() {
        assert!(rules("", Some((Some(3), Some(2)))).any_live());
        assert!(!rules("", Some((Some(2), Some(2)))).any_live());
        assert!(!rules("", Some((Some(0), Some(0)))).any_live());
        assert!(rules("", Some((Some(1), None))).any_live());
        assert!(!rules("", Some((Some(0), None))).any_live());
        assert!(rules("", Some((None, Some(4)))).any_live());
        assert_eq!(rules("", Some((Some(5), Some(3)))).dead_count(), 3);
        assert_eq!(rules("coffee?", Some((Some(5), None))).dead_count(), 1);
    }

    use crate::inspect::content::{Place, PlaceKind, TokenFinding};

    /// A diagnosis of a search for `query` under one key holding one session of `events`
    /// events, `events_without_text` of them without text, with `hits` logged or computed.
    fn diagnosis(
        query: &str,
        hits: Option<usize>,
        events: usize,
        events_without_text: usize,
        content: Option<Vec<TokenFinding>>,
    ) -> Diagnosis {
        Diagnosis {
            key: MemoryKey::new("support", "u-42"),
            query: Some(query.to_owned()),
            profile: "reference".to_owned(),
            hits,
            search: SearchSource::Given,
            searching_session: None,
            no_search_made: false,
            written: Written {
                known: true,
                keys: 1,
                sessions: 1,
                events,
            },
            right_key: RightKey {
                sessions: 1,
                near_misses: Vec::new(),
            },
            match_rules: rules(query, None),
            indexed_text: IndexedText {
                events,
                events_without_text,
                content: content.map(|tokens| ContentCheck { tokens }),
            },
        }
    }

    fn finding(token: &str, dead: bool, places: Vec<Place>) -> TokenFinding {
        TokenFinding {
            token: token.to_owned(),
            dead,
            places,
            unlisted: 0,
            unlisted_indexed: 0,
        }
    }

    fn place(kind: PlaceKind, name: Option<&str>, indexed: bool) -> Place {
        Place {
            kind,
            session: "s-1".to_owned(),
            event: Some("e-1".to_owned()),
            name: name.map(str::to_owned),
            indexed,
            excerpt: None,
        }
    }

    /// The line of check 4 in the walk-through.
    fn check_4(diagnosis: &Diagnosis) -> String {
        let text = diagnosis.to_string();
        text.lines()
            .find(|line| line.starts_with("4. "))
            .unwrap_or_else(|| panic!("no check 4 line in:\n{text}"))
            .to_owned()
    }

    #[test]
    fn live_words_stored_in_indexed_text_pass_every_check() {
        let stored = finding("tea", false, vec![place(PlaceKind::Text, None, true)]);
        let diagnosis = diagnosis("tea", Some(0), 2, 0, Some(vec![stored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        assert!(
            check_4(&diagnosis)
                .contains("yes: the query's words that are stored are in indexed text"),
            "{diagnosis}"
        );
    }

    #[test]
    fn words_stored_nowhere_under_text_free_events_have_no_indexed_text() {
        let missing = finding("tea", false, Vec::new());
        let diagnosis = diagnosis("tea", Some(0), 2, 2, Some(vec![missing]));
        assert_eq!(diagnosis.conclusion(), Conclusion::NoIndexedText);
        let line = check_4(&diagnosis);
        assert!(
            line.contains("NO: none of the query's words is stored under this key"),
            "{line}"
        );
        assert!(
            diagnosis
                .to_string()
                .contains("\"tea\": not stored under this key")
        );
    }

    #[test]
    fn words_stored_nowhere_under_text_events_pass_the_checks() {
        let missing = finding("tea", false, Vec::new());
        let diagnosis = diagnosis("tea", Some(0), 2, 0, Some(vec![missing]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        assert!(check_4(&diagnosis).contains("yes: none of the query's words"));
    }

    #[test]
    fn words_only_in_unindexed_places_read_no_and_name_the_place() {
        let unindexed = finding(
            "photo",
            false,
            vec![place(PlaceKind::InlineData, Some("image/png"), false)],
        );
        let diagnosis = diagnosis("photo", Some(0), 2, 1, Some(vec![unindexed]));
        assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexed);
        assert!(check_4(&diagnosis).contains("NO: some of the query's words are stored only"));
        let text = diagnosis.to_string();
        assert!(
            text.contains("\"photo\": in inline data (session \"s-1\", event \"e-1\", MIME type \"image/png\"): not indexed"),
            "{text}"
        );
        let tool = finding(
            "photo",
            false,
            vec![place(PlaceKind::FunctionCall, Some("lookup"), false)],
        );
        let text = self::diagnosis("photo", Some(0), 2, 1, Some(vec![tool])).to_string();
        assert!(text.contains("tool \"lookup\""), "{text}");
    }

    #[test]
    fn from_counts_a_missed_search_with_only_live_tokens_and_text_passes() {
        let diagnosis = diagnosis("tea", Some(0), 3, 0, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        let text = diagnosis.to_string();
        assert!(
            check_4(&diagnosis).contains("yes: 0 of 3 events under this key carry no text"),
            "{text}"
        );
        assert!(!text.contains("from counts only"), "{text}");
    }

    #[test]
    fn from_counts_text_free_events_under_a_missed_search_say_so() {
        let diagnosis = diagnosis("tea", Some(0), 3, 1, None);
        // The counts cannot say the query's words are only in the text-free events, and the
        // verdict never says more than its own check-4 line.
        assert_eq!(diagnosis.conclusion(), Conclusion::PerhapsNotIndexed);
        let text = diagnosis.to_string();
        assert!(
            check_4(&diagnosis).contains("not settled: 1 of 3 events"),
            "{text}"
        );
        assert!(text.contains("verdict: check 4 is not settled"), "{text}");
        assert!(text.contains("from counts only"), "{text}");
        // Without a hit count there was no miss to explain.
        let unknown = self::diagnosis("tea", None, 3, 1, None).to_string();
        assert!(!unknown.contains("from counts only"), "{unknown}");
    }

    #[test]
    fn from_counts_only_text_free_events_read_no() {
        let diagnosis = diagnosis("tea", Some(0), 2, 2, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::NoIndexedText);
        assert!(check_4(&diagnosis).contains("NO: 2 of 2 events"));
    }

    #[test]
    fn from_counts_a_dead_token_over_text_free_events_reads_no_at_check_4() {
        let diagnosis = diagnosis("4417 order", Some(0), 3, 1, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexedAndCannotMatch);
        assert!(check_4(&diagnosis).contains("NO: 1 of 3 events"));
    }

    #[test]
    fn a_blank_query_says_so_at_check_3() {
        let text = diagnosis("", Some(0), 1, 0, None).to_string();
        assert!(text.contains("NO: the query is blank"), "{text}");
    }

    #[test]
    fn a_dead_token_only_fails_check_3_when_its_words_are_stored() {
        let live = || finding("tea", false, vec![place(PlaceKind::Text, None, true)]);
        let unstored = finding("coffee?", true, Vec::new());
        let diagnosis = diagnosis("tea coffee?", Some(0), 2, 0, Some(vec![live(), unstored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        let stored = finding("coffee?", true, vec![place(PlaceKind::Text, None, true)]);
        let diagnosis = self::diagnosis("tea coffee?", Some(0), 2, 0, Some(vec![live(), stored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::QueryCannotMatch);
    }
}
