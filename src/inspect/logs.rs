//! Reading `memory.write`, `memory.search` and `memory.query` log lines into [`Evidence`], so
//! the four checks can run from a log file alone.

mod encoding;
mod fields;
mod line;

use std::error::Error;
use std::fmt;

use serde::Serialize;

use super::{Evidence, SearchRecord, SearchSource};
use crate::MemoryKey;

pub use encoding::{LogEncoding, decode_log};
use fields::{key_of, list};
use line::parse_line;

/// The log formats [`read_log`] recognises, line by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LogFormat {
    /// The kit's decorator through `tracing-subscriber`'s plain formatter:
    /// `INFO memory.write key="support"/"42" session=s-1 events=2 text_events=1 elapsed_ms=0.01`.
    KitPlain,
    /// The kit's decorator through `tracing-subscriber`'s JSON formatter (fields nested under
    /// `"fields"` or flattened).
    KitJson,
    /// The debugging guide's Java decorator and plugin:
    /// `memory.write key=support/42 session=s-1 events=2 textEvents=1`,
    /// `memory.search key=support/u-42 tokens=2 hits=0 ms=3`,
    /// `memory.query q=coffee preference? dead=[preference?]`.
    Guide,
}

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::KitPlain => "memory-conformance tracing (plain)",
            Self::KitJson => "memory-conformance tracing (JSON)",
            Self::Guide => "the debugging guide's decorator",
        })
    }
}

/// What a log held: the writes and searches, and the formats its lines were in.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LogRead {
    /// The writes (counts only) and searches the lines record.
    pub evidence: Evidence,
    /// Every format seen, in order of first appearance.
    pub formats: Vec<LogFormat>,
    /// Lines that were memory records.
    pub records: usize,
    /// Lines that named a memory record but could not be read: skipped, never fatal.
    pub skipped: usize,
    /// Why the first skipped line could not be read.
    pub first_skipped: Option<LogError>,
    /// `memory.query` lines no search could be matched to (by key, or as the only query
    /// waiting when the line names no key).
    pub unmatched_queries: usize,
}

/// A memory record line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    line: usize,
    message: String,
}

impl LogError {
    /// The line number, from 1.
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Error for LogError {}

/// Reads the `memory.write`, `memory.search` and `memory.query` lines of a log, in any
/// [`LogFormat`] (formats may mix); every other line is skipped, and so is a line that names a
/// record but cannot be read (counted in [`LogRead::skipped`], never fatal). A write counts
/// only its key, session and counts; a search its key, counts and hits. A `memory.query` line
/// (the guide's plugin logs it before the tool runs) gives its query and dead tokens to the
/// next search under the key it names; a line that names no key, to the next search when it is
/// the only query waiting (never by position among several). The kit's `load_memory` logs its
/// line after the search, with the key: it completes the search before it. Content the kit
/// logs under `log_content` (`texts=[...]`) is never read.
///
/// A log with `memory.write` or `memory.search` lines is the decorator's, which sees every
/// write: no write line then means nothing was written. A log of `memory.query` lines alone
/// does not say what was written.
///
/// ```
/// use memory_conformance::inspect::{Conclusion, read_log};
/// use memory_conformance::profile::Profile;
/// let log = "memory.query q=coffee preference? dead=[preference?]\n\
///            memory.search key=support/u-42 tokens=2 hits=0 ms=3\n\
///            memory.write key=support/42 session=monday events=2 textEvents=1\n";
/// let read = read_log(log);
/// let search = read.evidence.searches().last().unwrap();
/// assert_eq!(search.query.as_deref(), Some("coffee preference?"));
/// let diagnosis = read.evidence.diagnose_search(search, &Profile::reference());
/// assert_eq!(diagnosis.conclusion(), Conclusion::WrongKey);
/// ```
pub fn read_log(text: &str) -> LogRead {
    let mut read = LogRead {
        evidence: Evidence::new(),
        formats: Vec::new(),
        records: 0,
        skipped: 0,
        first_skipped: None,
        unmatched_queries: 0,
    };
    let mut pending: Vec<PendingQuery> = Vec::new();
    let mut decorator = false;
    for (index, line) in text.lines().enumerate() {
        match read_line(line, index, &mut read, &mut pending) {
            Ok(wrote_or_searched) => decorator |= wrote_or_searched,
            Err(message) => {
                read.skipped += 1;
                read.first_skipped.get_or_insert(LogError {
                    line: index + 1,
                    message,
                });
            }
        }
    }
    read.unmatched_queries += pending.len();
    if !decorator {
        read.evidence = read.evidence.writes_unknown();
    } else if read.unmatched_queries == 0 {
        // The decorator logs every search; a `memory.query` line matched to none would be one
        // it did not log.
        read.evidence = read.evidence.searches_logged();
    }
    read
}

/// A `memory.query` line waiting for its search.
struct PendingQuery {
    key: Option<MemoryKey>,
    query: Option<String>,
    dead: Option<Vec<String>>,
}

/// Reads one line into `read`; whether it was a write or a search.
fn read_line(
    line: &str,
    index: usize,
    read: &mut LogRead,
    pending: &mut Vec<PendingQuery>,
) -> Result<bool, String> {
    let _ = index;
    let Some((format, record)) = parse_line(line)? else {
        return Ok(false);
    };
    let field = |name: &str| {
        record
            .fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    };
    let number = |names: &[&str]| -> Result<Option<usize>, String> {
        for name in names {
            if let Some(value) = field(name) {
                return value
                    .trim()
                    .parse::<usize>()
                    .map(Some)
                    .map_err(|_| format!("{}: `{name}` is not a count", record.name));
            }
        }
        Ok(None)
    };
    let counted = match record.name.as_str() {
        "memory.write" => {
            let key = key_of(field("key"), format).map_err(|m| format!("memory.write: {m}"))?;
            let session = field("session").cloned().unwrap_or_default();
            let events =
                number(&["events"])?.ok_or_else(|| "memory.write: no `events` count".to_owned())?;
            let text_events = number(&["text_events", "textEvents"])?.unwrap_or(events);
            read.evidence
                .record_write(key, session, events, text_events);
            true
        }
        "memory.search" => {
            let key = key_of(field("key"), format).map_err(|m| format!("memory.search: {m}"))?;
            let mut search = SearchRecord::new(key);
            search.source = SearchSource::Log;
            search.tokens = number(&["tokens"])?;
            search.dead = number(&["dead"])?;
            search.hits = number(&["hits"])?;
            search.query = field("query").cloned();
            let same_key = pending
                .iter()
                .position(|p| p.key.as_ref() == Some(&search.key));
            let keyless = || {
                let mut waiting = pending.iter().enumerate().filter(|(_, p)| p.key.is_none());
                match (waiting.next(), waiting.next()) {
                    (Some((at, _)), None) => Some(at),
                    _ => None,
                }
            };
            if let Some(at) = same_key.or_else(keyless) {
                let query = pending.remove(at);
                search.query = search.query.or(query.query);
                search.dead_tokens = query.dead;
            }
            read.evidence.record_search(search);
            true
        }
        "memory.query" => {
            let query = field("q").or_else(|| field("query")).cloned();
            let dead = field("dead")
                .filter(|d| d.starts_with('['))
                .or_else(|| field("dead_tokens"))
                .map(|d| list(d));
            let key = match field("key") {
                Some(_) => {
                    Some(key_of(field("key"), format).map_err(|m| format!("memory.query: {m}"))?)
                }
                None => None,
            };
            // The kit's load_memory logs after its search, with the key: complete it.
            let previous = read.evidence.searches_mut().last_mut().filter(|s| {
                format != LogFormat::Guide && key.as_ref() == Some(&s.key) && s.query.is_none()
            });
            match previous {
                Some(search) => {
                    search.query = search.query.take().or(query);
                    search.dead_tokens = search.dead_tokens.take().or(dead);
                }
                None => pending.push(PendingQuery { key, query, dead }),
            }
            false
        }
        _ => return Ok(false),
    };
    read.records += 1;
    if !read.formats.contains(&format) {
        read.formats.push(format);
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn read(log: &str) -> LogRead {
        let read = read_log(log);
        assert_eq!(read.first_skipped, None, "in:\n{log}");
        read
    }

    /// Why the one unreadable line of `log` was skipped.
    fn skipped(log: &str) -> LogError {
        let read = read_log(log);
        assert_eq!(read.skipped, 1, "{log}");
        read.first_skipped.expect("a skipped line says why")
    }

    /// The only search `log` records.
    fn search(log: &str) -> SearchRecord {
        let read = read(log);
        assert_eq!(read.evidence.searches().len(), 1, "{log}");
        read.evidence.searches()[0].clone()
    }

    /// What a diagnosis of (`app`, `user`) counts of the writes `log` records: keys, sessions
    /// and events written, sessions under the key, and its events without text.
    fn written(log: &str, app: &str, user: &str) -> (usize, usize, usize, usize, usize) {
        let diagnosis = read(log)
            .evidence
            .diagnose(app, user, "tea", &Profile::reference());
        (
            diagnosis.written.keys,
            diagnosis.written.sessions,
            diagnosis.written.events,
            diagnosis.right_key.sessions,
            diagnosis.indexed_text.events_without_text,
        )
    }

    fn format_of(line: &str) -> Vec<LogFormat> {
        read(line).formats
    }

    #[test]
    fn each_format_names_its_source() {
        assert_eq!(
            LogFormat::KitPlain.to_string(),
            "memory-conformance tracing (plain)"
        );
        assert_eq!(
            LogFormat::KitJson.to_string(),
            "memory-conformance tracing (JSON)"
        );
        assert_eq!(
            LogFormat::Guide.to_string(),
            "the debugging guide's decorator"
        );
    }

    #[test]
    fn an_unreadable_line_is_skipped_and_counted_with_its_line_number() {
        let err = skipped("boot\nready\nmemory.write key=support/42 session=s\n");
        assert_eq!(err.line(), 3);
        assert_eq!(err.to_string(), "line 3: memory.write: no `events` count");
        let err = skipped("memory.search key=\"support\"/\"u-42 tokens=1");
        assert_eq!(err.line(), 1);
        assert!(err.to_string().contains("not closed"), "{err}");
        let err = skipped("memory.search tokens=1 hits=0");
        assert_eq!(err.to_string(), "line 1: memory.search: no `key`");
        let err = skipped("memory.search key=\"support\"-\"u-42\" hits=0");
        assert!(err.to_string().contains("\"support\" has no `/`"), "{err}");
        let err = skipped("{\"message\":\"memory.search\",\"key\":\"\\\"a\\\"/b\"}");
        assert!(err.to_string().contains("is not \"app\"/\"user\""), "{err}");
        let err = skipped("memory.search key=support/u-42 hits=none");
        assert_eq!(
            err.to_string(),
            "line 1: memory.search: `hits` is not a count"
        );
    }

    #[test]
    fn a_redacted_query_line_is_matched_by_its_key_and_gives_no_query() {
        // The shipped plugins without their content flag: counts and shapes, no `q=`.
        let log = "memory.query key=support/u-42 call=a invocation=i tokens=2 dead=1 \
                   shapes=[<letters:6>, <letters:10>?] dead_shapes=[<letters:10>?]\n\
                   memory.query key=support/u-7 call=b invocation=j tokens=1 dead=0 \
                   shapes=[<letters:6>] dead_shapes=[]\n\
                   memory.search key=support/u-7 tokens=1 dead=0 hits=1 ms=0.1\n\
                   memory.search key=support/u-42 tokens=2 dead=1 hits=0 ms=0.1\n";
        let read = read(log);
        assert_eq!(
            read.unmatched_queries, 0,
            "each query line went to its key's search"
        );
        let searches = read.evidence.searches();
        assert_eq!(searches.len(), 2);
        assert!(
            searches
                .iter()
                .all(|s| s.query.is_none() && s.dead_tokens.is_none())
        );
        assert_eq!(
            (searches[1].key.user_id.as_str(), searches[1].dead),
            ("u-42", Some(1))
        );
    }

    #[test]
    fn formats_are_listed_once_each_in_order_of_first_appearance() {
        let log = "memory.write key=support/42 session=s events=2 textEvents=1\n\
                   INFO memory.search key=\"support\"/\"u-42\" tokens=1 dead=0 hits=0 elapsed_ms=0.1\n\
                   memory.search key=support/u-42 tokens=2 hits=0 ms=3\n\
                   INFO memory.search key=\"support\"/\"u-42\" tokens=1 dead=0 hits=0 elapsed_ms=0.1\n\
                   {\"fields\":{\"message\":\"memory.search\",\"key\":\"\\\"a\\\"/\\\"b\\\"\",\"hits\":0}}\n";
        let read = read(log);
        assert_eq!(
            read.formats,
            [LogFormat::Guide, LogFormat::KitPlain, LogFormat::KitJson]
        );
        assert_eq!(read.records, 5);
        assert_eq!(read.evidence.searches().len(), 4);
    }

    #[test]
    fn each_mark_of_the_guide_tells_its_lines_apart() {
        // Any one mark makes a line the guide's, whatever else it holds.
        let guide = [
            "memory.write key=\"support\"/\"42\" session=s events=2 textEvents=1",
            "memory.search key=\"support\"/\"u-42\" tokens=1 hits=0 ms=3",
            "memory.query q=coffee",
            "memory.write key=support/42 session=s events=2",
        ];
        for line in guide {
            assert_eq!(format_of(line), [LogFormat::Guide], "{line}");
        }
        let kit = "INFO memory.write key=\"support\"/\"42\" session=s events=2 text_events=1";
        assert_eq!(format_of(kit), [LogFormat::KitPlain]);
    }

    #[test]
    fn a_record_name_counts_only_as_a_whole_word() {
        for line in [
            "xmemory.write key=support/42 session=s events=2",
            "adk.memory.write key=support/42 session=s events=2",
            "memory.write.failed key=support/42 session=s events=2",
            "memory.writes key=support/42 session=s events=2",
        ] {
            let read = read(line);
            assert_eq!(read.records, 0, "{line}");
        }
        for line in [
            "memory.write key=support/42 session=s events=2",
            "12:00 INFO memory.write: key=support/42 session=s events=2",
            "[memory.write key=support/42 session=s events=2",
            // A name that is not whole first, then a whole one.
            "ab.memory.write memory.write key=support/42 session=s events=2",
        ] {
            let read = read(line);
            assert_eq!(read.records, 1, "{line}");
            assert_eq!(written(line, "support", "42"), (1, 1, 2, 1, 0), "{line}");
        }
    }

    #[test]
    fn a_write_counts_its_events_and_those_with_text() {
        let guide = "memory.write key=support/42 session=monday events=3 textEvents=1";
        assert_eq!(written(guide, "support", "42"), (1, 1, 3, 1, 2));
        let kit = "INFO memory.write key=\"support\"/\"u/42\" session=s events=3 text_events=2";
        assert_eq!(written(kit, "support", "u/42"), (1, 1, 3, 1, 1));
        // Without a text count, every event is taken to hold text.
        let bare = "memory.write key=support/42/7 session=s events=4";
        assert_eq!(written(bare, "support", "42/7"), (1, 1, 4, 1, 0));
    }

    #[test]
    fn the_guides_query_line_gives_the_next_search_its_query_and_dead_tokens() {
        let found = search(
            "memory.query q=coffee preference? dead=[preference?, x]\n\
             memory.search key=support/u-42 tokens=2 hits=0 ms=3\n",
        );
        assert_eq!(found.key, MemoryKey::new("support", "u-42"));
        assert_eq!(found.query.as_deref(), Some("coffee preference?"));
        assert_eq!(
            found.dead_tokens,
            Some(vec!["preference?".to_owned(), "x".to_owned()])
        );
        assert_eq!(
            (found.tokens, found.dead, found.hits),
            (Some(2), None, Some(0))
        );

        let found = search("memory.query q=coffee  tea \nmemory.search key=a/b hits=1\n");
        assert_eq!(found.query.as_deref(), Some("coffee  tea"));
        assert_eq!(found.dead_tokens, None);
        let found = search("memory.query ms=3 dead=[x]\nmemory.search key=a/b hits=1\n");
        assert_eq!((found.query, found.dead_tokens), (None, None));
    }

    #[test]
    fn the_kits_query_line_completes_the_search_before_it_under_the_same_key() {
        let search_line =
            "INFO memory.search key=\"support\"/\"u-42\" tokens=2 dead=1 hits=0 elapsed_ms=0.2";
        let query_line = |key: &str| {
            format!(
                "INFO memory.query key={key} dead=1 hits=0 elapsed_ms=0.3 query=\"coffee preference?\" dead_tokens=[\"preference?\"]"
            )
        };
        let log = self::read(&format!(
            "{search_line}\n{}\n",
            query_line("\"support\"/\"u-42\"")
        ));
        let [found] = log.evidence.searches() else {
            panic!("one search: {:?}", log.evidence.searches());
        };
        assert_eq!(found.query.as_deref(), Some("coffee preference?"));
        assert_eq!(found.dead_tokens, Some(vec!["preference?".to_owned()]));
        assert_eq!((found.tokens, found.dead), (Some(2), Some(1)));

        // Under another key, the query waits for a search under its own key.
        let other = search_line.replace("u-42", "u-7");
        let log = self::read(&format!(
            "{search_line}\n{}\n{search_line}\n{other}\n",
            query_line("\"support\"/\"u-7\"")
        ));
        let [first, second, third] = log.evidence.searches() else {
            panic!("three searches: {:?}", log.evidence.searches());
        };
        assert_eq!((first.query.as_deref(), &first.dead_tokens), (None, &None));
        assert_eq!(second.query, None);
        assert_eq!(third.query.as_deref(), Some("coffee preference?"));
        assert_eq!(log.unmatched_queries, 0);
    }

    #[test]
    fn interleaved_users_get_their_own_queries_by_key_never_by_position() {
        let log = self::read(
            "memory.query key=support/u-42 call=c-1 q=coffee preference? dead=[preference?]\n\
             memory.query key=support/u-7 call=c-2 q=favourite coffee dead=[]\n\
             memory.search key=support/u-7 tokens=2 hits=1 ms=0\n\
             memory.search key=support/u-42 tokens=2 hits=0 ms=0\n",
        );
        let found: Vec<_> = log
            .evidence
            .searches()
            .iter()
            .map(|s| (s.key.user_id.as_str(), s.query.as_deref(), s.hits))
            .collect();
        assert_eq!(
            found,
            [
                ("u-7", Some("favourite coffee"), Some(1)),
                ("u-42", Some("coffee preference?"), Some(0)),
            ]
        );
        // Two queries without a key: which search is whose is not known, so neither is given.
        let log = self::read(
            "memory.query q=a\nmemory.query q=b\nmemory.search key=s/u hits=0\nmemory.search key=s/v hits=0\n",
        );
        assert!(log.evidence.searches().iter().all(|s| s.query.is_none()));
        assert_eq!(log.unmatched_queries, 2);
    }

    #[test]
    fn an_unreadable_line_among_good_ones_is_skipped_and_the_rest_read() {
        let log = read_log(
            "memory.write key=support/42 session=s events=2 textEvents=1\n\
             an unrelated line that mentions memory.search in passing\n\
             memory.search key=support/u-42 tokens=2 hits=0 ms=3\n",
        );
        assert_eq!((log.records, log.skipped), (2, 1));
        assert_eq!(log.first_skipped.map(|e| e.line()), Some(2));
        assert_eq!(log.evidence.searches().len(), 1);
    }

    #[test]
    fn the_kits_json_lines_read_nested_or_flat() {
        let nested = "{\"timestamp\":\"t\",\"level\":\"INFO\",\"fields\":{\"message\":\"memory.search\",\
                      \"key\":\"\\\"support\\\"/\\\"u-42\\\"\",\"tokens\":2,\"dead\":1,\"hits\":0,\
                      \"query\":\"\\\"Where's order 4417?\\\"\"},\"target\":\"memory\"}";
        let log = self::read(nested);
        assert_eq!(log.formats, [LogFormat::KitJson]);
        let found = &log.evidence.searches()[0];
        assert_eq!(found.key, MemoryKey::new("support", "u-42"));
        assert_eq!(
            (found.tokens, found.dead, found.hits),
            (Some(2), Some(1), Some(0))
        );
        assert_eq!(found.query.as_deref(), Some("Where's order 4417?"));

        let flat = "{\"message\":\"memory.write\",\"key\":\"\\\"support\\\"/\\\"42\\\"\",\
                    \"session\":\"s\",\"events\":3,\"text_events\":1}";
        assert_eq!(format_of(flat), [LogFormat::KitJson]);
        assert_eq!(written(flat, "support", "42"), (1, 1, 3, 1, 2));

        // Other JSON, and JSON that is not an object, is skipped.
        for line in [
            "{\"message\":\"started\"}",
            "{\"fields\":{\"message\":7}}",
            "[\"memory.write\"]",
        ] {
            assert_eq!(read_log(line).records, 0, "{line}");
        }
    }

    #[test]
    fn a_json_logger_around_the_guides_line_reads_as_the_guides() {
        let wrapped = "{\"level\":\"INFO\",\"message\":\"memory.write key=support/42 session=s events=2 textEvents=1\"}";
        assert_eq!(format_of(wrapped), [LogFormat::Guide]);
        assert_eq!(written(wrapped, "support", "42"), (1, 1, 2, 1, 1));
        // The kit's plain line inside JSON is not a format the kit writes.
        let kit_inside =
            "{\"message\":\"memory.write key=\\\"support\\\"/\\\"42\\\" session=s events=2\"}";
        assert_eq!(read(kit_inside).records, 0);
    }
}
