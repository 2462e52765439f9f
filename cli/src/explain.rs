//! `memory-conformance explain`: each query token, and whether it can match the reference.

use std::fmt::Write as _;

use memory_conformance::explain_tokens;

/// The explanation of `query`, one token per line.
pub fn render(query: &str) -> String {
    let tokens = explain_tokens(query);
    let mut out = format!(
        "query {query:?} under the reference's rules (lowercase, split on ASCII whitespace; stored words are [A-Za-z]+):\n"
    );
    if tokens.is_empty() {
        out.push_str("  no tokens: a blank query returns nothing\n");
        return out;
    }
    let width = tokens
        .iter()
        .map(|t| format!("{:?}", t.token).chars().count())
        .max()
        .unwrap_or(0);
    for token in &tokens {
        let quoted = format!("{:?}", token.token);
        let verdict = match token.dead {
            None => "can match".to_owned(),
            Some(reason) => format!("dead: {reason}"),
        };
        let _ = writeln!(out, "  {quoted:<width$}  {verdict}");
    }
    let dead = tokens.iter().filter(|t| t.dead.is_some()).count();
    let _ = writeln!(
        out,
        "{} of {} tokens can match",
        tokens.len() - dead,
        tokens.len()
    );
    out
}
