use std::fmt;

use serde::Serialize;

use crate::MemoryKey;

/// How a key that was written differs from the key that was searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[non_exhaustive]
pub enum KeyDifference {
    /// Leading or trailing whitespace (`"u-42 "` versus `"u-42"`).
    SurroundingWhitespace,
    /// Letter case (`"U-42"` versus `"u-42"`).
    Case,
    /// The separators `-`, `_`, `.` or space (`"support_bot"` versus `"support-bot"`).
    Separators,
    /// A prefix on a numeric id (`"u-42"` versus `"42"`).
    NumericIdPrefix,
}

impl fmt::Display for KeyDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::SurroundingWhitespace => "surrounding whitespace",
            Self::Case => "case",
            Self::Separators => "separators",
            Self::NumericIdPrefix => "prefix on a numeric id",
        })
    }
}

type Normalisation = fn(&str) -> String;

/// The normalisations applied to each side, in order; a numeric-id prefix is handled apart,
/// because it compares the two sides rather than rewriting one.
const STEPS: [(KeyDifference, Normalisation); 3] = [
    (KeyDifference::SurroundingWhitespace, |s| {
        s.trim().to_owned()
    }),
    (KeyDifference::Case, str::to_lowercase),
    (KeyDifference::Separators, |s| {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | '.' | ' '))
            .collect()
    }),
];
const NUMERIC_ID_PREFIX: u32 = 1 << STEPS.len();

/// How `written` differs from `searched` when it is a near miss of it: the two keys are not
/// equal but become equal once whitespace, case, separators and numeric-id prefixes are
/// disregarded. `None` when the keys are equal or differ in more than that.
pub(crate) fn near_miss(searched: &MemoryKey, written: &MemoryKey) -> Option<Vec<KeyDifference>> {
    if searched == written {
        return None;
    }
    let mut differences = part_differences(&searched.app_name, &written.app_name)?;
    differences.extend(part_differences(&searched.user_id, &written.user_id)?);
    differences.sort_unstable();
    differences.dedup();
    Some(differences)
}

/// The fewest normalisations (earliest first among equally few) that make `a` and `b` equal;
/// `None` if even all of them do not.
fn part_differences(a: &str, b: &str) -> Option<Vec<KeyDifference>> {
    let apply = |s: &str, mask: u32| {
        STEPS
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .fold(s.to_owned(), |acc, (_, (_, step))| step(&acc))
    };
    let equal = |mask: u32| {
        let (x, y) = (apply(a, mask), apply(b, mask));
        x == y
            || (mask & NUMERIC_ID_PREFIX != 0
                && (is_prefixed_id_of(&x, &y) || is_prefixed_id_of(&y, &x)))
    };
    let mut masks: Vec<u32> = (0..NUMERIC_ID_PREFIX << 1).collect();
    masks.sort_by_key(|mask| (mask.count_ones(), std::cmp::Reverse(mask.reverse_bits())));
    let mask = masks.into_iter().find(|&mask| equal(mask))?;
    let mut differences: Vec<KeyDifference> = STEPS
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, (kind, _))| *kind)
        .collect();
    if mask & NUMERIC_ID_PREFIX != 0 {
        differences.push(KeyDifference::NumericIdPrefix);
    }
    Some(differences)
}

/// Whether `prefixed` is the bare numeric id `digits` with letters (and separators after them)
/// in front: `"u-42"` and `"user42"` for `"42"`.
fn is_prefixed_id_of(prefixed: &str, digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let Some(prefix) = prefixed.strip_suffix(digits) else {
        return false;
    };
    let letters = prefix.trim_end_matches(['-', '_', '.', ' ']);
    !letters.is_empty() && letters.chars().all(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn differences(searched: (&str, &str), written: (&str, &str)) -> Option<Vec<KeyDifference>> {
        near_miss(
            &MemoryKey::new(searched.0, searched.1),
            &MemoryKey::new(written.0, written.1),
        )
    }

    #[test]
    fn names_only_the_differences_that_matter() {
        use KeyDifference::*;
        assert_eq!(
            differences(("support", "u-42"), ("support", "42")),
            Some(vec![NumericIdPrefix])
        );
        assert_eq!(
            differences(("support", "u-42"), ("support", "U-42")),
            Some(vec![Case])
        );
        assert_eq!(
            differences(("support-bot", "u"), ("support_bot", "u")),
            Some(vec![Separators])
        );
        assert_eq!(
            differences(("a", "u-42 "), ("a", "u-42")),
            Some(vec![SurroundingWhitespace])
        );
        assert_eq!(
            differences(("A", "U_42"), ("a", "u-42")),
            Some(vec![Case, Separators])
        );
        assert_eq!(differences(("support", "u-42"), ("support", "u-42")), None);
        assert_eq!(differences(("support", "u-42"), ("support", "u-43")), None);
        assert_eq!(differences(("support", "u-42"), ("billing", "u-42")), None);
    }

    #[test]
    fn each_difference_reads_as_what_differs() {
        use KeyDifference::*;
        let names =
            [SurroundingWhitespace, Case, Separators, NumericIdPrefix].map(|d| d.to_string());
        assert_eq!(
            names,
            [
                "surrounding whitespace",
                "case",
                "separators",
                "prefix on a numeric id"
            ]
        );
    }

    #[test]
    fn a_numeric_id_prefix_is_letters_before_a_bare_run_of_digits() {
        assert!(is_prefixed_id_of("u-42", "42"));
        assert!(is_prefixed_id_of("user42", "42"));
        assert!(is_prefixed_id_of("ü_42", "42"));
        // The bare id must be digits, and there must be one.
        assert!(!is_prefixed_id_of("u", ""));
        assert!(!is_prefixed_id_of("u-ab", "ab"));
        assert!(!is_prefixed_id_of("u-4a", "4a"));
        // The prefix must hold letters, and only letters before its separators.
        assert!(!is_prefixed_id_of("-42", "42"));
        assert!(!is_prefixed_id_of("42", "42"));
        assert!(!is_prefixed_id_of("1-42", "42"));
        assert!(!is_prefixed_id_of("u1-42", "42"));
        assert!(!is_prefixed_id_of("u-43", "42"));
        // Seen from the keys: neither an empty id nor a non-numeric one is a numeric id.
        assert_eq!(differences(("a", "u"), ("a", "")), None);
        assert_eq!(differences(("a", "u-ab"), ("a", "ab")), None);
        assert_eq!(differences(("a", "u1-42"), ("a", "42")), None);
        assert_eq!(
            differences(("a", "42"), ("a", "u-42")),
            Some(vec![KeyDifference::NumericIdPrefix])
        );
    }
}
