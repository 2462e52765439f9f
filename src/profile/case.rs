//! How a backend's word rules lowercase: Unicode's full case mapping or its simple one.

use serde::{Deserialize, Serialize};

/// Which of Unicode's two lowercase mappings a backend's word rules use. They differ in two
/// letters only: the capital sigma `Σ` and the dotted capital `İ` (U+0130).
///
/// ```
/// use memory_conformance::profile::CaseMapping;
/// assert_eq!(CaseMapping::Full.lowercase("ΟΔΟΣ İstanbul"), "οδος i\u{307}stanbul");
/// assert_eq!(CaseMapping::Simple.lowercase("ΟΔΟΣ İstanbul"), "οδοσ istanbul");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CaseMapping {
    /// The full mapping, with its context (Python's `str.lower`, Rust's `str::to_lowercase`,
    /// JavaScript's `toLowerCase`, Java's `toLowerCase(Locale.ROOT)`): a capital sigma becomes
    /// the final `ς` at the end of a word and `σ` elsewhere, `İ` becomes `i` and U+0307.
    #[default]
    Full,
    /// The simple mapping, one code point to one, without context (Go's `strings.ToLower` and
    /// `unicode.ToLower`): a capital sigma becomes `σ` everywhere, `İ` a plain `i`.
    Simple,
}

impl CaseMapping {
    /// `text` lowercased under this mapping: what a backend declaring it stores and looks up.
    pub fn lowercase(self, text: &str) -> String {
        match self {
            Self::Full => text.to_lowercase(),
            // `char::to_lowercase` has no context (a capital sigma is `σ`); its one mapping to
            // more than one code point is the dotted capital's.
            Self::Simple => text
                .chars()
                .flat_map(|c| {
                    let lower: Vec<char> = if c == '\u{130}' {
                        vec!['i']
                    } else {
                        c.to_lowercase().collect()
                    };
                    lower
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CaseMapping;

    #[test]
    fn the_two_mappings_differ_in_the_capital_sigma_and_the_dotted_capital_i_only() {
        for mapping in [CaseMapping::Full, CaseMapping::Simple] {
            assert_eq!(mapping.lowercase("STRAẞE Ǆ \u{212A}"), "straße ǆ k");
        }
        assert_eq!(CaseMapping::Full.lowercase("ΣΑΣ ΟΔΟΣ."), "σας οδος.");
        assert_eq!(CaseMapping::Simple.lowercase("ΣΑΣ ΟΔΟΣ."), "σασ οδοσ.");
        assert_eq!(
            CaseMapping::Full.lowercase("DİYARBAKIR"),
            "di\u{307}yarbakir"
        );
        assert_eq!(CaseMapping::Simple.lowercase("DİYARBAKIR"), "diyarbakir");
        // No other code point lowercases to more than one.
        let longer = (0..=0x10FFFF_u32)
            .filter_map(char::from_u32)
            .filter(|c| c.to_lowercase().count() > 1)
            .collect::<Vec<_>>();
        assert_eq!(longer, ['\u{130}']);
    }
}
