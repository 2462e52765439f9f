//! The bounded tail of a child's stderr, attached to every error the child causes.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// How many of the last stderr lines are kept.
const MAX_LINES: usize = 40;
/// How many bytes of one stderr line are kept; the rest of the line is dropped.
const MAX_LINE_BYTES: usize = 400;

/// The last [`MAX_LINES`] lines a child wrote to stderr, each cut to [`MAX_LINE_BYTES`].
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    inner: Mutex<Inner>,
    /// Every byte taken in so far, kept or not.
    seen: AtomicU64,
}

#[derive(Debug, Default)]
struct Inner {
    lines: VecDeque<String>,
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
                inner.finish_line();
            }
        }
    }

    /// How many bytes were taken in so far.
    pub(crate) fn bytes_seen(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    /// The kept lines, oldest first, the unfinished last line included.
    pub(crate) fn lines(&self) -> Vec<String> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let mut lines: Vec<String> = inner.lines.iter().cloned().collect();
        if !inner.partial.is_empty() {
            lines.push(render(&inner.partial, inner.cut));
        }
        lines
    }

    /// The tail as the end of an error message: a line saying what stderr ends with, then
    /// the lines, indented.
    pub(crate) fn render(&self) -> String {
        let lines = self.lines();
        if lines.is_empty() {
            return "\nthe child wrote nothing to stderr".into();
        }
        let mut text = String::from("\nthe child's stderr ends with:");
        for line in lines {
            text.push_str("\n  | ");
            text.push_str(&line);
        }
        text
    }
}

impl Inner {
    fn finish_line(&mut self) {
        let line = render(&self.partial, self.cut);
        self.partial.clear();
        self.cut = false;
        if self.lines.len() == MAX_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
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
        assert_eq!(tail.render(), "\nthe child wrote nothing to stderr");
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
        assert!(tail.render().ends_with("x…"));
    }
}
