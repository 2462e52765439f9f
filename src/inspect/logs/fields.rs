//! A record's values: `name=value` fields, quoted strings, keys and lists as logged.

use super::LogFormat;
use crate::MemoryKey;

/// `name=value` pairs: values bare, Rust-debug quoted (`"a b"`), a quoted key (`"a"/"b"`) or a
/// bracketed list.
pub(super) fn fields(rest: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        if i == start || i >= chars.len() || chars[i] != '=' {
            // Not a field (the message word, free text): skip to the next space.
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            continue;
        }
        let name: String = chars[start..i].iter().collect();
        i += 1;
        let value_start = i;
        if i < chars.len() && chars[i] == '[' {
            let mut depth = 0;
            let mut quoted = false;
            while i < chars.len() {
                match chars[i] {
                    '\\' if quoted => i += 1,
                    '"' => quoted = !quoted,
                    '[' if !quoted => depth += 1,
                    ']' if !quoted => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if i < chars.len() && chars[i] == '"' {
            i = skip_quoted(&chars, i)?;
            if i + 1 < chars.len() && chars[i] == '/' && chars[i + 1] == '"' {
                i = skip_quoted(&chars, i + 1)?;
            }
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
        }
        let raw: String = chars[value_start..i.min(chars.len())].iter().collect();
        out.push((name, unquote(&raw)));
    }
    Ok(out)
}

/// The index after the closing quote of the quoted string starting at `start`.
fn skip_quoted(chars: &[char], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err("a quoted value is not closed".to_owned())
}

/// A Rust-debug quoted string without its quotes and escapes; other text unchanged.
pub(super) fn unquote(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let whole = chars.first() == Some(&'"') && skip_quoted(&chars, 0) == Ok(chars.len());
    let Some(inner) = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .filter(|_| whole)
    else {
        return text.to_owned();
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let code: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                if let Some(c) = u32::from_str_radix(&code, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A key as logged: the kit's `"app"/"user"` or the guide's `app/user` (split at the first
/// `/`).
pub(super) fn key_of(value: Option<&String>, format: LogFormat) -> Result<MemoryKey, String> {
    let value = value.ok_or("no `key`")?;
    if value.starts_with('"') {
        let chars: Vec<char> = value.chars().collect();
        let end = skip_quoted(&chars, 0)?;
        let app: String = chars[..end].iter().collect();
        let rest: String = chars[end..].iter().collect();
        let user = rest
            .strip_prefix('/')
            .filter(|u| u.starts_with('"'))
            .ok_or_else(|| format!("key {value} is not \"app\"/\"user\""))?;
        return Ok(MemoryKey::new(unquote(&app), unquote(user)));
    }
    let _ = format;
    let (app, user) = value
        .split_once('/')
        .ok_or_else(|| format!("key {value:?} has no `/` between app name and user id"))?;
    Ok(MemoryKey::new(app, user))
}

/// A logged list: `[a, b]` (Java's `List.toString`) or `["a", "b"]` (Rust's debug).
pub(super) fn list(text: &str) -> Vec<String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    if inner.trim().is_empty() {
        return Vec::new();
    }
    if inner.trim_start().starts_with('"') {
        let chars: Vec<char> = inner.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '"' {
                let Ok(end) = skip_quoted(&chars, i) else {
                    break;
                };
                out.push(unquote(&chars[i..end].iter().collect::<String>()));
                i = end;
            } else {
                i += 1;
            }
        }
        out
    } else {
        inner.split(", ").map(str::to_owned).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_bare_quoted_keyed_or_lists() {
        let parsed = fields(
            " free text key=\"a b\"/\"c\\\"d\" q=\"x y\" n=3 =odd list=[\"a]\", \"b\\\"\"] tail=[a, b] end",
        )
        .unwrap();
        assert_eq!(
            parsed,
            [
                ("key".to_owned(), "\"a b\"/\"c\\\"d\"".to_owned()),
                ("q".to_owned(), "x y".to_owned()),
                ("n".to_owned(), "3".to_owned()),
                ("list".to_owned(), "[\"a]\", \"b\\\"\"]".to_owned()),
                ("tail".to_owned(), "[a, b]".to_owned()),
            ]
        );
        assert_eq!(
            fields("k=\"open"),
            Err("a quoted value is not closed".to_owned())
        );
        assert_eq!(fields("k=v").unwrap(), [("k".to_owned(), "v".to_owned())]);
        assert_eq!(fields("k=").unwrap(), [("k".to_owned(), String::new())]);
        assert_eq!(fields("k").unwrap(), []);
    }

    #[test]
    fn fields_stop_at_the_end_of_the_line_whatever_is_open() {
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        assert_eq!(fields("k=v  ").unwrap(), [pair("k", "v")]);
        assert_eq!(fields("key=\"a\"/").unwrap(), [pair("key", "a")]);
        assert_eq!(fields("l=[a, b").unwrap(), [pair("l", "[a, b")]);
    }

    #[test]
    fn a_list_ends_at_its_own_bracket_and_quotes_hide_brackets() {
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        // A backslash outside quotes escapes nothing.
        assert_eq!(
            fields("l=[a\\] n=1").unwrap(),
            [pair("l", "[a\\]"), pair("n", "1")]
        );
        // A bracket inside quotes opens nothing.
        assert_eq!(
            fields("l=[\"a[b\"] n=1").unwrap(),
            [pair("l", "[\"a[b\"]"), pair("n", "1")]
        );
        // Only `"a"/"b"` is a quoted key: a slash before bare text ends the value.
        assert_eq!(
            fields("key=\"a\"/b n=1").unwrap(),
            [pair("key", "a"), pair("n", "1")]
        );
    }

    #[test]
    fn quoted_values_lose_their_quotes_and_escapes() {
        assert_eq!(unquote("\"a\\nb\\tc\\rd\\0e\""), "a\nb\tc\rd\0e");
        assert_eq!(unquote("\"caf\\u{e9} \\\"x\\\" \\\\\""), "café \"x\" \\");
        assert_eq!(unquote("\"bad \\u{zz} code\""), "bad  code");
        // Not one whole quoted string: unchanged.
        for text in ["plain", "\"a\"/\"b\"", "\"open", "x\"y\"", "\"\\\""] {
            assert_eq!(unquote(text), text);
        }
        assert_eq!(unquote("\"\""), "");
    }

    #[test]
    fn keys_are_the_kits_quoted_pair_or_the_guides_first_slash() {
        let key = |text: &str| key_of(Some(&text.to_owned()), LogFormat::KitPlain);
        assert_eq!(key("\"a/b\"/\"c\""), Ok(MemoryKey::new("a/b", "c")));
        assert_eq!(key("\"a\\\"\"/\"\""), Ok(MemoryKey::new("a\"", "")));
        assert_eq!(key("a/b/c"), Ok(MemoryKey::new("a", "b/c")));
        assert_eq!(key("/u"), Ok(MemoryKey::new("", "u")));
        assert!(
            key("\"a\"/b")
                .unwrap_err()
                .contains("is not \"app\"/\"user\"")
        );
        assert!(
            key("\"a\"")
                .unwrap_err()
                .contains("is not \"app\"/\"user\"")
        );
        assert_eq!(key("\"a"), Err("a quoted value is not closed".to_owned()));
        assert!(key("ab").unwrap_err().contains("has no `/`"));
        assert_eq!(key_of(None, LogFormat::Guide), Err("no `key`".to_owned()));
    }

    #[test]
    fn lists_are_javas_or_rusts() {
        let strings = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(list("[a, b]"), strings(&["a", "b"]));
        assert_eq!(list(" [a,b] "), strings(&["a,b"]));
        assert_eq!(list("[]"), strings(&[]));
        assert_eq!(list("[  ]"), strings(&[]));
        assert_eq!(
            list("[\"a\", \"b, c\", \"d\\\"\"]"),
            strings(&["a", "b, c", "d\""])
        );
        assert_eq!(list("[\"a\", \"open]"), strings(&["a"]));
    }
}
