//! How failures are described: what was being done, naming the key and session.

use std::error::Error;

use memory_conformance::MemoryError;

/// Any failure below the service: SQLite, JSON, or a described problem.
pub(crate) type Failure = Box<dyn Error + Send + Sync + 'static>;

/// The longest piece of an id or path quoted in an error message, in characters.
const QUOTED_MAX_CHARS: usize = 64;

/// `text` quoted as Rust quotes a string (so whitespace, NUL and separators stay visible), cut
/// after [`QUOTED_MAX_CHARS`] characters so a megabyte id never fills a log line.
pub(crate) fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_MAX_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
    }
}

/// `"app"/"user"`, the way the kit displays a memory key.
pub(crate) fn key_label(app_name: &str, user_id: &str) -> String {
    format!("{}/{}", quoted(app_name), quoted(user_id))
}

/// A [`MemoryError`] saying that `doing` failed because of `failure`.
pub(crate) fn backend(doing: String, failure: Failure) -> MemoryError {
    MemoryError::backend_with_source(doing, failure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_odd_characters_stay_visible() {
        assert_eq!(key_label("a/b", "c\0 "), r#""a/b"/"c\0 ""#);
        let long = "é".repeat(1_000);
        let shown = quoted(&long);
        assert!(shown.ends_with("\"…"), "{shown}");
        assert_eq!(
            shown.chars().filter(|&c| c == 'é').count(),
            QUOTED_MAX_CHARS
        );
    }
}
