//! What a bridge child printed, as error messages show it: the bounded tail of its stderr,
//! attached to every error the child causes, and the one policy for everything the child
//! wrote that a message quotes (its stderr, a line it printed where a protocol response
//! belonged, the message of a refused request, an answer the kit cannot read).
//!
//! The policy: what the child wrote before the kit sent it any stored content (its start-up,
//! the handshake, opening and emptying stores: an import error, a missing module, a bad
//! configuration) is shown verbatim, since it holds only the child's own words; what it wrote
//! from the first call that carries generated content on (an add, a search, a delete: events,
//! queries, user and session ids) is [redacted to its shape](super::stderr_shape), since it can
//! quote that content, unless the user sets [`SHOW_STDERR`] to `1` or the program asked for it
//! ([`show_stderr_verbatim`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use super::stderr_shape;

/// The environment variable that, set to `1`, shows a bridge child's stderr (and a line it
/// printed on stdout that is not a protocol response) verbatim in error messages. Otherwise
/// each line is [redacted to its shape](crate::inspect::shape), keeping what a traceback is
/// made of (frame lines with their files, line numbers and functions, exception class names),
/// since what a child prints can carry stored content.
///
/// ```
/// assert_eq!(memory_conformance::process::SHOW_STDERR, "MEMORY_CONFORMANCE_SHOW_STDERR");
/// ```
pub const SHOW_STDERR: &str = "MEMORY_CONFORMANCE_SHOW_STDERR";

/// Whether this process shows every bridge child's stderr verbatim, whatever [`SHOW_STDERR`]
/// says ([`show_stderr_verbatim`]).
static VERBATIM: AtomicBool = AtomicBool::new(false);

/// From now on, this process shows bridge children's stderr verbatim in error messages: for a
/// program that feeds its bridges only the kit's own generated data, such as the behaviour
/// report, where a child's stderr carries no user's content.
pub fn show_stderr_verbatim() {
    VERBATIM.store(true, Ordering::Relaxed);
}

/// Whether error messages show everything children print verbatim: the user set
/// [`SHOW_STDERR`] to `1`, or the program asked for it ([`show_stderr_verbatim`]).
fn verbatim() -> bool {
    VERBATIM.load(Ordering::Relaxed)
        || std::env::var_os(SHOW_STDERR).is_some_and(|value| value == "1")
}

/// How many of the last stderr lines are kept.
const MAX_LINES: usize = 40;
/// How many bytes of one stderr line are kept; the rest of the line is dropped.
const MAX_LINE_BYTES: usize = 400;

/// The last [`MAX_LINES`] lines a child wrote to stderr, each cut to [`MAX_LINE_BYTES`], each
/// marked with whether the kit had sent the child stored content when it was written; and the
/// policy that decides how a message shows what the child wrote (the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    inner: Mutex<Inner>,
    /// Every byte taken in so far, kept or not.
    seen: AtomicU64,
    /// Whether the kit has sent the child a call carrying stored content.
    content_sent: AtomicBool,
}

/// One kept line, and whether it was written before the kit sent the child stored content.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    before_content: bool,
}

#[derive(Debug, Default)]
struct Inner {
    lines: VecDeque<Line>,
    /// The line being written (no newline yet), cut to the limit.
    partial: Vec<u8>,
    /// Whether `partial` was cut.
    cut: bool,
}

impl StderrTail {
    /// Takes in a chunk of stderr as read (any size, lines may span chunks).
    pub(crate) fn push(&self, chunk: &[u8]) {
        self.seen.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        for piece in chunk.split_inclusive(|b| *b == b'\n') {
            let (text, ends_line) = match piece.strip_suffix(b"\n") {
                Some(text) => (text, true),
                None => (piece, false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(inner.partial.len());
            inner.cut |= text.len() > room;
            inner
                .partial
                .extend_from_slice(&text[..text.len().min(room)]);
            if ends_line {
                inner.finish_line(self.before_content());
            }
        }
    }

    /// Marks that the kit is about to send the child a call carrying stored content: from
    /// now on what the child writes is shown as the policy says of content. Called before the
    /// call is written, so nothing the child writes because of it is taken for start-up.
    pub(crate) fn sending_content(&self) {
        self.content_sent.store(true, Ordering::SeqCst);
    }

    fn before_content(&self) -> bool {
        !self.content_sent.load(Ordering::SeqCst)
    }

    /// Text the child wrote (a line where a protocol response belonged, the message of a
    /// refused request, an answer the kit cannot read) as an error message shows it: verbatim
    /// before the kit sent it stored content or where the user asked for it, else redacted to
    /// its shape; the second value is the note that follows it (empty when verbatim).
    pub(crate) fn shown(&self, text: &str) -> (String, String) {
        if verbatim() || self.before_content() {
            (text.to_owned(), String::new())
        } else {
            (
                stderr_shape::redact(text),
                format!(" (redacted to its shape: set {SHOW_STDERR}=1 to see it verbatim)"),
            )
        }
    }

    /// How many bytes were taken in so far.
    pub(crate) fn bytes_seen(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    /// The kept lines, oldest first, the unfinished last line included (as written after
    /// content was sent, if any was).
    fn kept(&self) -> Vec<Line> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let mut lines: Vec<Line> = inner.lines.iter().cloned().collect();
        if !inner.partial.is_empty() {
            lines.push(Line {
                text: render(&inner.partial, inner.cut),
                before_content: self.before_content(),
            });
        }
        lines
    }

    /// The kept lines' text, oldest first, the unfinished last line included.
    #[cfg(test)]
    pub(crate) fn lines(&self) -> Vec<String> {
        self.kept().into_iter().map(|line| line.text).collect()
    }

    /// The tail as the end of an error message, as the policy says (the module's
    /// documentation): see [`render_as`](Self::render_as).
    pub(crate) fn render(&self) -> String {
        self.render_as(verbatim())
    }

    /// The tail as the end of an error message: a line saying what follows is verbatim or
    /// which of it is redacted to its shape (and how to see it verbatim), then the kept lines,
    /// indented; `everything_verbatim` shows every line verbatim, else only those written
    /// before the kit sent the child stored content. It says nothing of how much the child
    /// wrote before: that depends on every call the child served, and a message must read the
    /// same for the same failure.
    pub(crate) fn render_as(&self, everything_verbatim: bool) -> String {
        let lines = self.kept();
        if lines.is_empty() {
            return "\nthe child wrote nothing to stderr".into();
        }
        let verbatim = |line: &Line| everything_verbatim || line.before_content;
        let mut text = String::from("\nthe child's stderr ends with");
        if lines.iter().all(verbatim) {
            text.push(':');
        } else if lines.iter().any(verbatim) {
            text.push_str(&format!(
                " these lines, those written after the kit sent it stored content redacted to \
                 their shape (set {SHOW_STDERR}=1 to see them verbatim):"
            ));
        } else {
            text.push_str(&format!(
                " these lines, redacted to their shape (set {SHOW_STDERR}=1 to see them verbatim):"
            ));
        }
        for line in &lines {
            text.push_str("\n  | ");
            if verbatim(line) {
                text.push_str(&line.text);
            } else {
                text.push_str(&stderr_shape::redact(&line.text));
            }
        }
        text
    }
}

impl Inner {
    fn finish_line(&mut self, before_content: bool) {
        let text = render(&self.partial, self.cut);
        self.partial.clear();
        self.cut = false;
        if self.lines.len() == MAX_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(Line {
            text,
            before_content,
        });
    }
}

fn render(bytes: &[u8], cut: bool) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_suffix('\r').unwrap_or(&text);
    if cut {
        format!("{text}…")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_spanning_chunks_are_joined_and_the_tail_is_bounded() {
        let tail = StderrTail::default();
        tail.sending_content();
        assert_eq!(tail.render_as(true), "\nthe child wrote nothing to stderr");
        assert_eq!(tail.render_as(false), "\nthe child wrote nothing to stderr");
        tail.push(b"Trace");
        tail.push(b"back\r\nValueError: bad\nhalf");
        assert_eq!(tail.lines(), ["Traceback", "ValueError: bad", "half"]);
        for n in 0..100 {
            tail.push(format!("line {n}\n").as_bytes());
        }
        let lines = tail.lines();
        assert_eq!(lines.len(), MAX_LINES);
        assert_eq!(lines.last().map(String::as_str), Some("line 99"));
        tail.push(&[b'x'; 1000]);
        tail.push(b"\n");
        assert_eq!(
            tail.lines().last().map(|l| l.chars().count()),
            Some(MAX_LINE_BYTES + 1)
        );
        assert!(tail.render_as(true).ends_with("x…"));
        assert!(tail.render_as(false).ends_with("<letters:400>…"));
    }

    #[test]
    fn the_tail_is_redacted_unless_shown_verbatim() {
        let tail = StderrTail::default();
        tail.sending_content();
        tail.push(b"Traceback (most recent call last):\n");
        tail.push(b"  File \"/srv/bridge.py\", line 7, in add\n");
        tail.push(b"KeyError: 'flat white'\npartial");
        let redacted = tail.render_as(false);
        assert_eq!(
            redacted,
            "\nthe child's stderr ends with these lines, redacted to \
             their shape (set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see them verbatim):\
             \n  | Traceback (most recent call last):\
             \n  |   File \"/srv/bridge.py\", line 7, in add\
             \n  | KeyError: '<letters:4> <letters:5>'\
             \n  | <letters:7>"
        );
        let verbatim = tail.render_as(true);
        assert!(
            verbatim.starts_with("\nthe child's stderr ends with:\n"),
            "{verbatim}"
        );
        assert!(
            verbatim.ends_with("\n  | KeyError: 'flat white'\n  | partial"),
            "{verbatim}"
        );
    }

    #[test]
    fn what_the_child_wrote_before_it_was_sent_content_is_shown_verbatim() {
        let tail = StderrTail::default();
        tail.push(b"ModuleNotFoundError: No module named 'foo_store'\n");
        assert_eq!(
            tail.render_as(false),
            "\nthe child's stderr ends with:\n  | ModuleNotFoundError: No module named 'foo_store'"
        );
        assert_eq!(
            tail.shown("cannot open 'foo_store'"),
            ("cannot open 'foo_store'".to_owned(), String::new())
        );
        tail.push(b"half a line");
        tail.sending_content();
        tail.push(b" and the rest, user u-7\n");
        assert_eq!(
            tail.render_as(false),
            "\nthe child's stderr ends with these lines, those written after the kit sent it \
             stored content redacted to their shape (set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see \
             them verbatim):\
             \n  | ModuleNotFoundError: No module named 'foo_store'\
             \n  | <letters:4> <letters:1> <letters:4> <letters:3> <letters:3> <letters:4>, <letters:4> <letters:1>-<digits:1>"
        );
        let (shown, note) = tail.shown("no session s-1 for user u-7");
        assert!(!shown.contains("u-7"), "{shown}");
        assert!(note.contains("redacted to its shape"), "{note}");
    }
}
