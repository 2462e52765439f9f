//! A line of a child's stderr reduced to its shape for an error message: what a traceback is
//! made of stays, every other word and number becomes its [`shape`].
//!
//! A bridge's stderr can carry stored content (a backend that logs what it was asked to
//! store, an exception quoting a memory), so messages show it redacted unless the user sets
//! [`SHOW_STDERR`](super::SHOW_STDERR). What is code, not data, is kept verbatim, because it
//! is what makes a traceback worth reading:
//!
//! - the fixed lines of a Python traceback (`Traceback (most recent call last):` and the two
//!   sentences that join chained exceptions);
//! - frame lines: Python's `File "<path>", line <n>, in <function>`, JavaScript's and Java's
//!   `at <function> (<file>:<line>[:<column>])` or `at <file>:<line>:<column>`, Java's
//!   `... <n> more`, and a Go panic's `goroutine <n> [<state>]:`, `<package>.<function>(<hex
//!   arguments>)` and `<file>:<line> +0x<offset>`;
//! - exception class names anywhere in a line: a dotted name whose last part starts with a
//!   capital and ends in `Error`, `Exception` or `Warning` (`ValueError`,
//!   `java.lang.IllegalStateException`, `DeprecationWarning`).
//!
//! Everything else, exception messages and the source lines a traceback quotes included, is
//! shaped: `ValueError: no memory for 'flat white'` reads
//! `ValueError: <letters:2> <letters:6> <letters:3> '<letters:4> <letters:5>'`.

use crate::inspect::shape;

/// Python's fixed traceback lines.
const TRACEBACK_LINES: [&str; 3] = [
    "Traceback (most recent call last):",
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
];

/// `line` with everything but its traceback structure replaced by its shape.
pub(crate) fn redact(line: &str) -> String {
    let (text, cut) = match line.strip_suffix('…') {
        Some(text) => (text, "…"),
        None => (line, ""),
    };
    if is_structure(text) {
        return line.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut content = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let word_len = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        if word_len == 0 {
            let c = rest.chars().next().unwrap_or_default();
            content.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let (word, after) = rest.split_at(word_len);
        let name = word.trim_matches('.');
        if is_exception_name(name) {
            let lead = word.len() - word.trim_start_matches('.').len();
            content.push_str(&word[..lead]);
            out.push_str(&shape(&content));
            content.clear();
            out.push_str(name);
            content.push_str(&word[lead + name.len()..]);
        } else {
            content.push_str(word);
        }
        rest = after;
    }
    out.push_str(&shape(&content));
    out.push_str(cut);
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// Whether `name` names an exception class (see the module's documentation).
fn is_exception_name(name: &str) -> bool {
    let mut parts = name.split('.');
    let last = parts.next_back().unwrap_or_default();
    let identifier = |part: &str| {
        part.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$'))
    };
    last.starts_with(|c: char| c.is_ascii_uppercase())
        && ["Error", "Exception", "Warning"]
            .iter()
            .any(|end| last.ends_with(end))
        && identifier(last)
        && parts.all(identifier)
}

/// Whether the whole line is traceback structure: a fixed line or a frame.
fn is_structure(line: &str) -> bool {
    let trimmed = line.trim();
    TRACEBACK_LINES.contains(&trimmed)
        || is_python_frame(trimmed)
        || is_at_frame(trimmed)
        || is_more_frames(trimmed)
        || is_go_frame(trimmed)
}

/// A Go panic's frame lines: `goroutine <n> [<state>]:`, `<package>.<function>(<arguments>)`
/// with arguments in hexadecimal (in braces for a string or a slice, or `...`), and `<file>:<line>` with an optional
/// ` +0x<offset>`.
fn is_go_frame(line: &str) -> bool {
    if let Some(rest) = line.strip_prefix("goroutine ") {
        return rest
            .split_once(" [")
            .is_some_and(|(n, state)| is_number(n) && state.ends_with("]:"));
    }
    if let Some((function, arguments)) = line.strip_suffix(')').and_then(|l| l.rsplit_once('(')) {
        return function.contains('.')
            && !function.contains(char::is_whitespace)
            && arguments.split(", ").all(|argument| {
                let argument = argument.trim_matches(['{', '}']);
                argument.is_empty()
                    || argument == "..."
                    || argument.strip_prefix("0x").is_some_and(|hex| {
                        !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())
                    })
            });
    }
    let location = match line.split_once(" +0x") {
        Some((location, offset)) if offset.bytes().all(|b| b.is_ascii_hexdigit()) => location,
        Some(_) => return false,
        None => line,
    };
    !location.contains(char::is_whitespace)
        && location
            .rsplit_once(':')
            .is_some_and(|(path, line)| path.ends_with(".go") && is_number(line))
}

/// `File "<path>", line <n>` or `File "<path>", line <n>, in <function>`.
fn is_python_frame(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("File \"") else {
        return false;
    };
    let Some((_, rest)) = rest.split_once("\", line ") else {
        return false;
    };
    let (number, function) = match rest.split_once(", in ") {
        Some((number, function)) => (number, Some(function)),
        None => (rest, None),
    };
    is_number(number) && function.is_none_or(|f| !f.is_empty() && !f.contains(char::is_whitespace))
}

/// `at <function> (<location>)` or `at <location>`, where a location is a path without
/// spaces ending in `:<line>` or `:<line>:<column>`, and a function has no spaces after an
/// optional `async ` or `new `; or Java's `at <function>(<file>:<line>)`, whose location may
/// also be `Native Method` or `Unknown Source`.
fn is_at_frame(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("at ") else {
        return false;
    };
    let rest = rest
        .strip_prefix("async ")
        .or_else(|| rest.strip_prefix("new "))
        .unwrap_or(rest);
    let (function, location) = match rest.strip_suffix(')').and_then(|r| r.split_once('(')) {
        Some((function, location)) => (function.strip_suffix(' ').unwrap_or(function), location),
        None => return is_location(rest),
    };
    let java = !function.is_empty() && !rest.contains(" (");
    !function.is_empty()
        && !function.contains(char::is_whitespace)
        && (is_location(location)
            || (java && matches!(location, "Native Method" | "Unknown Source")))
}

/// A path without spaces ending in `:<line>` or `:<line>:<column>`.
fn is_location(location: &str) -> bool {
    if location.contains(char::is_whitespace) {
        return false;
    }
    let mut parts = location.rsplitn(3, ':');
    let last = parts.next().unwrap_or_default();
    match (parts.next(), parts.next()) {
        (Some(line), Some(path)) if is_number(line) => is_number(last) && !path.is_empty(),
        (Some(path), _) => is_number(last) && !path.is_empty(),
        _ => false,
    }
}

/// Java's `... <n> more`.
fn is_more_frames(line: &str) -> bool {
    line.strip_prefix("... ")
        .and_then(|rest| rest.strip_suffix(" more"))
        .is_some_and(is_number)
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_traceback_keeps_its_frames_and_exception_names_only() {
        let traceback = [
            "Traceback (most recent call last):",
            "  File \"/srv/bridge.py\", line 88, in add",
            "    store.write(session_to_text(s))",
            "  File \"<frozen importlib._bootstrap>\", line 1204",
            "ValueError: no memory for 'flat white' (user 4417)",
            "During handling of the above exception, another exception occurred:",
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        ];
        let redacted: Vec<String> = traceback.iter().map(|line| redact(line)).collect();
        assert_eq!(
            redacted,
            [
                "Traceback (most recent call last):",
                "  File \"/srv/bridge.py\", line 88, in add",
                "    <letters:5>.<letters:5>(<letters:7>_<letters:2>_<letters:4>(<letters:1>))",
                "  File \"<frozen importlib._bootstrap>\", line 1204",
                "ValueError: <letters:2> <letters:6> <letters:3> '<letters:4> <letters:5>' \
                 (<letters:4> <digits:4>)",
                "During handling of the above exception, another exception occurred:",
                "json.decoder.JSONDecodeError: <letters:9> <letters:5>: <letters:4> <digits:1> \
                 <letters:6> <digits:1> (<letters:4> <digits:1>)",
            ]
        );
    }

    #[test]
    fn javascript_java_and_go_frames_are_kept_and_look_alikes_are_not() {
        for frame in [
            "    at Object.<anonymous> (/srv/bridge.mjs:12:5)",
            "    at async Promise.all (/srv/node_modules/x.js:3:9)",
            "    at new Store (file:///srv/store.mjs:40:11)",
            "    at /srv/bridge.mjs:7:1",
            "\tat memoryconformance.adkjava.Bridge.add(Bridge.java:212)",
            "\tat java.base/java.lang.Thread.run(Native Method)",
            "\t... 12 more",
            "goroutine 1 [running]:",
            "main.(*Bridge).handle(0xc000012345, {0xc00001a0f0, 0x2a}, ...)",
            "google.golang.org/adk/v2/memory.(*InMemoryService).Search(0xc0000a4000)",
            "\t/srv/bridge/main.go:88 +0x1d4",
            "\t/usr/lib/go/src/runtime/panic.go:770",
        ] {
            assert_eq!(redact(frame), frame);
        }
        assert_eq!(
            redact("remember(0xbeef, flat white)"),
            "<letters:8>(<digits:1><letters:5>, <letters:4> <letters:5>)"
        );
        assert_eq!(
            redact("note: see notes.go:12"),
            "<letters:4>: <letters:3> <letters:5>.<letters:2>:<digits:2>"
        );
        assert_eq!(
            redact("at the café (see 12:30:00)"),
            "<letters:2> <letters:3> <letters:4> (<letters:3> <digits:2>:<digits:2>:<digits:2>)"
        );
        assert_eq!(
            redact("Caused by: java.lang.IllegalStateException: store \"u-42\" is closed"),
            "<letters:6> <letters:2>: java.lang.IllegalStateException: <letters:5> \
             \"<letters:1>-<digits:2>\" <letters:2> <letters:6>"
        );
        // The refusal docs/bridge-protocol.md shows.
        assert_eq!(
            redact("LookupError: no store 'case-1': open (or reset) it first"),
            "LookupError: <letters:2> <letters:5> '<letters:4>-<digits:1>': <letters:4> \
             (<letters:2> <letters:5>) <letters:2> <letters:5>"
        );
    }

    #[test]
    fn only_exception_shaped_names_are_kept_and_a_cut_line_stays_marked() {
        assert_eq!(
            redact("TypeError. Terror? error; Errors MyWarning 9Error"),
            "TypeError. <letters:6>? <letters:5>; <letters:6> MyWarning <digits:1><letters:5>"
        );
        assert_eq!(redact("secret words…"), "<letters:6> <letters:5>…");
        assert_eq!(redact(""), "");
    }
}
