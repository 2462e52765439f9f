//! CHANGELOG.md names every rule of the kit under the version that brought it, so a team that
//! moves its pin can see which rules are new to it.

use memory_conformance::conformance::rules::catalogue;

fn changelog() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md");
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The version sections of the changelog (`## 0.1.0 ...`), each with its text.
fn versions(text: &str) -> Vec<(&str, &str)> {
    let mut sections = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\n## ") {
        let body = &rest[at + 4..];
        let heading_end = body.find('\n').unwrap_or(body.len());
        let end = body.find("\n## ").unwrap_or(body.len());
        sections.push((&body[..heading_end], &body[heading_end..end]));
        rest = &body[end..];
    }
    sections
}

#[test]
fn every_rule_is_under_the_version_that_brought_it() {
    let text = changelog();
    let sections = versions(&text);
    assert!(
        !sections.is_empty(),
        "CHANGELOG.md has no `## VERSION` section"
    );
    let missing: Vec<&str> = catalogue()
        .iter()
        .map(|rule| rule.id())
        .filter(|id| {
            let named = format!("`{id}`");
            !sections.iter().any(|(_, body)| body.contains(&named))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "rules of the catalogue no version of CHANGELOG.md names (add each, as `rule.id`, under \
         the version that brings it): {missing:?}"
    );
}

#[test]
fn the_changelog_names_no_rule_the_kit_does_not_have() {
    let text = changelog();
    let ids: Vec<&str> = catalogue().iter().map(|rule| rule.id()).collect();
    let groups: Vec<&str> = ids.iter().filter_map(|id| id.split('.').next()).collect();
    // Words in backticks shaped like a rule id: a known group, a dot, a lower-case name.
    let unknown: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            word.split_once('.').is_some_and(|(group, name)| {
                groups.contains(&group)
                    && !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            })
        })
        .filter(|word| !ids.contains(word))
        .collect();
    assert!(
        unknown.is_empty(),
        "CHANGELOG.md names rules the catalogue does not hold: {unknown:?}"
    );
}
