//! JUnit XML, the test report CI systems display: one test suite per backend, one test case
//! per rule.

use std::fmt::Write as _;

/// One test case: its name, and how it ended.
pub struct Case {
    /// `backend::rule.id`.
    pub name: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// How a test case ended.
pub enum Outcome {
    /// It passed (a known violation that still shows passes too; `note` says so).
    Passed {
        /// Shown as the case's system output, when there is something to say.
        note: Option<String>,
    },
    /// It failed, with the failure report.
    Failed(String),
    /// It did not run, and why.
    Skipped(String),
}

/// The JUnit XML document of `suite`'s cases, with the suite's `properties` (name, value).
pub fn render(suite: &str, properties: &[(&str, String)], cases: &[Case]) -> String {
    let count = |f: fn(&Outcome) -> bool| cases.iter().filter(|c| f(&c.outcome)).count();
    let failures = count(|o| matches!(o, Outcome::Failed(_)));
    let skipped = count(|o| matches!(o, Outcome::Skipped(_)));
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"memory-conformance\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        cases.len()
    );
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        escape(suite),
        cases.len()
    );
    if !properties.is_empty() {
        xml.push_str("    <properties>\n");
        for (name, value) in properties {
            let _ = writeln!(
                xml,
                "      <property name=\"{}\" value=\"{}\"/>",
                escape(name),
                escape(value)
            );
        }
        xml.push_str("    </properties>\n");
    }
    for case in cases {
        let _ = write!(
            xml,
            "    <testcase classname=\"{}\" name=\"{}\"",
            escape(suite),
            escape(&case.name)
        );
        match &case.outcome {
            Outcome::Passed { note: None } => xml.push_str("/>\n"),
            Outcome::Passed { note: Some(note) } => {
                let _ = writeln!(
                    xml,
                    ">\n      <system-out>{}</system-out>\n    </testcase>",
                    escape(note)
                );
            }
            Outcome::Failed(report) => {
                let first = report.lines().next().unwrap_or_default();
                let _ = writeln!(
                    xml,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    escape(first),
                    escape(report)
                );
            }
            Outcome::Skipped(reason) => {
                let _ = writeln!(
                    xml,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    escape(reason)
                );
            }
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// `text` with XML's five special characters escaped, and the control characters XML 1.0
/// cannot carry written as `\u{..}`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_counted_and_text_is_escaped() {
        let xml = render(
            "a<b",
            &[("rule_set", "0.1".to_owned())],
            &[
                Case {
                    name: "a<b::key.isolation".into(),
                    outcome: Outcome::Passed { note: None },
                },
                Case {
                    name: "a<b::x".into(),
                    outcome: Outcome::Failed("rule \"x\" & \u{0} failed\nmore".into()),
                },
                Case {
                    name: "a<b::y".into(),
                    outcome: Outcome::Skipped("not durable".into()),
                },
            ],
        );
        assert!(
            xml.contains("tests=\"3\" failures=\"1\" skipped=\"1\""),
            "{xml}"
        );
        assert!(xml.contains("name=\"a&lt;b::key.isolation\"/>"), "{xml}");
        assert!(
            xml.contains("<failure message=\"rule &quot;x&quot; &amp; \\u{0} failed\">"),
            "{xml}"
        );
        assert!(xml.contains("<skipped message=\"not durable\"/>"), "{xml}");
        assert!(
            xml.contains("<properties>\n      <property name=\"rule_set\" value=\"0.1\"/>"),
            "{xml}"
        );
    }
}
