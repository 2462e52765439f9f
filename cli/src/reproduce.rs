//! The command line a failure report says reruns a rule, in this command's own terms (the
//! kit's default is a `cargo test` line, for Rust test targets): each word quoted for a POSIX
//! shell where it needs it, so the line can be pasted as it is.

use std::ffi::OsString;

/// `words` as one shell line, each word quoted where it needs it.
///
/// A word made only of letters, digits and `_ - . / = : , @ % +` stays as it is, and so do the
/// placeholders `{id}` and `{seed}` (a rule id and a seed need no quotes); any other is put in
/// single quotes (a single quote inside as `'\''`).
pub fn shell_line<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|word| shell_word(word.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The bridge command's words, as [`shell_line`] writes them.
pub fn command_words(command: &[OsString]) -> Vec<String> {
    command
        .iter()
        .map(|word| word.to_string_lossy().into_owned())
        .collect()
}

fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=:,@%+".contains(c);
    if matches!(word, "{id}" | "{seed}") || (!word.is_empty() && word.chars().all(plain)) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_need_quotes_get_them() {
        assert_eq!(
            shell_line([
                "python3",
                "my bridge.py",
                "-c",
                "print('x')",
                "",
                "a=b",
                "{id}",
                "{x}"
            ]),
            r#"python3 'my bridge.py' -c 'print('\''x'\'')' '' a=b {id} '{x}'"#
        );
    }
}
