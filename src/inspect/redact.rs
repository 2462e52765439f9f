//! Redacting a diagnosis for sharing: every query token and stored word replaced by its shape.

use crate::{DeadReason, TokenExplanation};

use super::Diagnosis;

/// The shape of `text`: each run of letters, digits or spaces as its class and length,
/// punctuation and symbols kept (they are what the match rules turn on).
///
/// ```
/// use memory_conformance::inspect::shape;
/// assert_eq!(shape("Where's order 4417?"), "<letters:5>'<letters:1> <letters:5> <digits:4>?");
/// assert_eq!(shape("café"), "<letters:4>");
/// ```
pub fn shape(text: &str) -> String {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Letters,
        Digits,
        Space,
        Kept(char),
    }
    let class = |c: char| {
        if c.is_alphabetic() {
            Class::Letters
        } else if c.is_numeric() {
            Class::Digits
        } else if c == ' ' {
            Class::Space
        } else if c.is_ascii_punctuation() {
            Class::Kept(c)
        } else if c.is_whitespace() {
            Class::Kept('␣')
        } else {
            Class::Kept('*')
        }
    };
    let mut out = String::new();
    let mut run: Option<(Class, usize)> = None;
    let flush = |out: &mut String, run: Option<(Class, usize)>| match run {
        Some((Class::Letters, n)) => out.push_str(&format!("<letters:{n}>")),
        Some((Class::Digits, n)) => out.push_str(&format!("<digits:{n}>")),
        Some((Class::Space, n)) => out.push_str(&" ".repeat(n)),
        Some((Class::Kept(c), n)) => out.extend(std::iter::repeat_n(c, n)),
        None => {}
    };
    for c in text.chars() {
        let c = class(c);
        match &mut run {
            Some((current, n)) if *current == c => *n += 1,
            _ => {
                flush(&mut out, run);
                run = Some((c, 1));
            }
        }
    }
    flush(&mut out, run);
    out
}

/// A character a dead reason names, replaced by one of its class.
fn redacted_reason(reason: DeadReason) -> DeadReason {
    match reason {
        DeadReason::Digit(_) => DeadReason::Digit('0'),
        DeadReason::NonAsciiLetter(_) => DeadReason::NonAsciiLetter('é'),
        DeadReason::Other(_) => DeadReason::Other('*'),
        other => other,
    }
}

fn redacted_token(token: &TokenExplanation) -> TokenExplanation {
    let mut token = token.clone();
    token.token = shape(&token.token);
    token.dead = token.dead.map(redacted_reason);
    token.terms = token.terms.iter().map(|t| shape(t)).collect();
    token
}

impl Diagnosis {
    /// The same diagnosis with no query text and no stored text: the query, its tokens and
    /// their terms become their [`shape`]s, a dead reason names a character of its class
    /// instead of the query's, and no excerpt of stored content is kept. Keys, session and
    /// event ids, tool names and counts stay.
    ///
    /// ```
    /// use memory_conformance::inspect::Evidence;
    /// use memory_conformance::profile::Profile;
    /// let diagnosis = Evidence::new()
    ///     .diagnose("support", "u-42", "Where's order 4417?", &Profile::reference())
    ///     .redacted();
    /// let text = diagnosis.to_string();
    /// assert!(!text.contains("order") && !text.contains("4417"), "{text}");
    /// assert!(text.contains("<letters:5> <digits:4>?"), "{text}");
    /// ```
    #[must_use]
    pub fn redacted(&self) -> Diagnosis {
        let mut out = self.clone();
        out.query = out.query.as_deref().map(shape);
        out.match_rules.tokens = out.match_rules.tokens.iter().map(redacted_token).collect();
        if let Some(content) = &mut out.indexed_text.content {
            for finding in &mut content.tokens {
                finding.token = shape(&finding.token);
                for place in &mut finding.places {
                    place.excerpt = None;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_keep_classes_lengths_and_punctuation_only() {
        assert_eq!(shape(""), "");
        assert_eq!(shape("coffee preference?"), "<letters:6> <letters:10>?");
        assert_eq!(shape("a\u{a0}b\u{1F600}"), "<letters:1>␣<letters:1>*");
        assert_eq!(shape("٤٤"), "<digits:2>");
        assert_eq!(shape("  x"), "  <letters:1>");
    }

    #[test]
    fn reasons_name_no_character_of_the_query() {
        assert_eq!(
            redacted_reason(DeadReason::Digit('7')),
            DeadReason::Digit('0')
        );
        assert_eq!(
            redacted_reason(DeadReason::NonAsciiLetter('ß')),
            DeadReason::NonAsciiLetter('é')
        );
        assert_eq!(
            redacted_reason(DeadReason::Other('\u{1F600}')),
            DeadReason::Other('*')
        );
        assert_eq!(
            redacted_reason(DeadReason::Punctuation('?')),
            DeadReason::Punctuation('?')
        );
        assert_eq!(redacted_reason(DeadReason::NoWord), DeadReason::NoWord);
    }
}
