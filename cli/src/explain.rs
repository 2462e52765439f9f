//! `memory-conformance explain`: each query token, and whether it can match under a profile.

use std::fmt::Write as _;
use std::process::ExitCode;

use memory_conformance::profile::Profile;
use memory_conformance::profile::QueryTerms;
use memory_conformance::{TokenExplanation, explain_tokens_for};

/// Prints the explanation of `query` under `profile`; exit code 1 when no token can match.
pub fn run(query: &str, profile: &Profile, json: bool) -> Result<ExitCode, String> {
    let tokens = explain_tokens_for(profile, query);
    let any_live = tokens.iter().any(|t| t.dead.is_none());
    if json {
        let out = serde_json::json!({
            "query": query,
            "profile": profile.name,
            "tokens": tokens,
            "dead": tokens.iter().filter(|t| t.dead.is_some()).map(|t| &t.token).collect::<Vec<_>>(),
            "can_match": any_live,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", render(query, profile, &tokens));
    }
    Ok(if any_live {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The explanation of `query`, one token per line.
fn render(query: &str, profile: &Profile, tokens: &[TokenExplanation]) -> String {
    let rules = if profile.name == "reference" {
        "the reference's rules (lowercase, split on ASCII whitespace; stored words are [A-Za-z]+)"
            .to_owned()
    } else {
        format!("{}'s rules", profile.name)
    };
    let mut out = format!("query {query:?} under {rules}:\n");
    if tokens.is_empty() {
        out.push_str("  no tokens: a blank query returns nothing\n");
        return out;
    }
    let width = tokens
        .iter()
        .map(|t| format!("{:?}", t.token).chars().count())
        .max()
        .unwrap_or(0);
    let shows_terms = !matches!(profile.query_terms, QueryTerms::Tokens { .. });
    for token in tokens {
        let quoted = format!("{:?}", token.token);
        let verdict = match token.dead {
            None if shows_terms => format!("can match, as {:?}", token.terms),
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
