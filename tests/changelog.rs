//! CHANGELOG.md names every rule of the kit under the version that brought it, so a team that
//! moves its pin can see which rules are new to it. The version is spelled once, as `since` in
//! the rule's declaration (`Rule::since`, what `rules_as_of` pins against); this test holds the
//! changelog to it.

use memory_conformance::conformance::RuleSetVersion;
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

/// A version section's `### Rules` list, the rules that version brought (other subsections name
/// rules too, as those that check a new value).
fn rules_list(body: &str) -> &str {
    let Some(at) = body.find("\n### Rules\n") else {
        return "";
    };
    let list = &body[at + "\n### Rules\n".len()..];
    &list[..list.find("\n### ").unwrap_or(list.len())]
}

/// The rule-set version a section's heading names (`0.1.0 (unreleased)` is 0.1), if it names one.
fn heading_version(heading: &str) -> Option<String> {
    let number = heading.split_whitespace().next()?;
    let mut parts = number.split('.');
    let (major, minor) = (parts.next()?, parts.next()?);
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    (digits(major) && digits(minor)).then(|| format!("{major}.{minor}"))
}

#[test]
fn each_rule_is_under_the_version_its_declaration_says_brought_it() {
    let text = changelog();
    let sections = versions(&text);
    let misplaced: Vec<String> = catalogue()
        .iter()
        .filter_map(|rule| {
            let named = format!("`{}`", rule.id());
            let under: Vec<String> = sections
                .iter()
                .filter(|(_, body)| rules_list(body).contains(&named))
                .map(|(heading, _)| heading_version(heading).unwrap_or_else(|| heading.to_string()))
                .collect();
            let since = rule.since().to_string();
            (under != [since.clone()]).then(|| {
                format!(
                    "{} is declared `since: \"{since}\"` but CHANGELOG.md names it under {under:?}",
                    rule.id()
                )
            })
        })
        .collect();
    assert!(
        misplaced.is_empty(),
        "each rule must be named in the `### Rules` list of exactly one version section, `## \
         MAJOR.MINOR.PATCH ...`, the one of its `since` (src/conformance/rules/): {misplaced:#?}"
    );
}

#[test]
fn every_rule_set_version_is_a_section_of_the_changelog() {
    let text = changelog();
    let headed: Vec<String> = versions(&text)
        .iter()
        .filter_map(|(heading, _)| heading_version(heading))
        .collect();
    let current = RuleSetVersion::CURRENT.to_string();
    assert!(
        headed.contains(&current),
        "CHANGELOG.md has no section for this kit's rule set {current} (`## {current}.0 ...`); it has {headed:?}"
    );
    let first = RuleSetVersion::FIRST.to_string();
    assert!(
        headed.contains(&first),
        "CHANGELOG.md has no section for the first rule set {first}"
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
