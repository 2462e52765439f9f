//! The version of the kit's rule set: the rules a kit version checks, which a gate can pin.

use std::fmt;

/// A version of the kit's rule set, `MAJOR.MINOR` (`0.1`): the rules of the kit version of
/// that number. Each rule names the version that brought it
/// ([`Rule::since`](crate::conformance::rules::Rule::since), listed in `CHANGELOG.md`); a gate
/// [pinned](crate::conformance::Gate::rules_as_of) to a version counts only the rules up to it,
/// and reports a later rule as new without failing on it.
///
/// ```
/// use memory_conformance::conformance::RuleSetVersion;
/// let first: RuleSetVersion = "0.1".parse().unwrap();
/// assert_eq!(first, RuleSetVersion::FIRST);
/// assert!(first <= RuleSetVersion::CURRENT);
/// assert_eq!(first.to_string(), "0.1");
/// let err = "0.1.0".parse::<RuleSetVersion>().unwrap_err();
/// assert!(err.contains("MAJOR.MINOR"), "{err}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleSetVersion {
    major: u32,
    minor: u32,
}

impl RuleSetVersion {
    /// The first rule set, of kit version 0.1.
    pub const FIRST: Self = Self { major: 0, minor: 1 };

    /// This kit's rule set: its package version's `MAJOR.MINOR`.
    pub const CURRENT: Self = Self::literal(env!("CARGO_PKG_VERSION"));

    /// The version `text` starts with (`MAJOR.MINOR`, then anything from a third `.` on),
    /// at compile time: a malformed one does not compile.
    pub(crate) const fn literal(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut numbers = [0u32; 2];
        let mut part = 0;
        let mut digits = 0;
        let mut i = 0;
        while i < bytes.len() {
            let byte = bytes[i];
            if byte == b'.' {
                if digits == 0 {
                    panic!("a rule-set version is MAJOR.MINOR");
                }
                if part == 1 {
                    break;
                }
                part += 1;
                digits = 0;
            } else if byte.is_ascii_digit() {
                numbers[part] = numbers[part] * 10 + (byte - b'0') as u32;
                digits += 1;
            } else {
                panic!("a rule-set version is MAJOR.MINOR, in digits");
            }
            i += 1;
        }
        if part != 1 || digits == 0 {
            panic!("a rule-set version is MAJOR.MINOR");
        }
        Self {
            major: numbers[0],
            minor: numbers[1],
        }
    }

    /// The rule set after this one (`0.2` after `0.1`).
    #[cfg(feature = "harness")]
    pub(crate) const fn next(self) -> Self {
        Self {
            major: self.major,
            minor: self.minor + 1,
        }
    }

    /// The version as a gate pins it: `MAJOR.MINOR`, from [`FIRST`](Self::FIRST) to
    /// [`CURRENT`](Self::CURRENT). `Err` says what was expected.
    fn parse(text: &str) -> Result<Self, String> {
        let expected = || {
            format!(
                "expected a rule-set version MAJOR.MINOR from {} to {} (this kit's), like \"{}\"; got {text:?}",
                Self::FIRST,
                Self::CURRENT,
                Self::CURRENT
            )
        };
        let (major, minor) = text.split_once('.').ok_or_else(expected)?;
        let number = |part: &str| -> Result<u32, String> {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(expected());
            }
            part.parse().map_err(|_| expected())
        };
        let version = Self {
            major: number(major)?,
            minor: number(minor)?,
        };
        if version < Self::FIRST {
            return Err(format!(
                "{}: the first rule set is {}",
                expected(),
                Self::FIRST
            ));
        }
        if version > Self::CURRENT {
            return Err(format!(
                "{}: {version} is later than this kit's rules; update the kit to pin them",
                expected()
            ));
        }
        Ok(version)
    }
}

impl std::str::FromStr for RuleSetVersion {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Self::parse(text)
    }
}

impl fmt::Display for RuleSetVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl serde::Serialize for RuleSetVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kit_s_rule_set_is_its_version_s_major_and_minor() {
        let package = env!("CARGO_PKG_VERSION");
        assert!(package.starts_with(&format!("{}.", RuleSetVersion::CURRENT)));
        assert_eq!(RuleSetVersion::literal("0.1"), RuleSetVersion::FIRST);
        assert_eq!(
            RuleSetVersion::literal("12.34.5-rc1"),
            RuleSetVersion {
                major: 12,
                minor: 34
            }
        );
    }

    #[test]
    fn a_pin_outside_the_kit_s_rule_sets_says_what_was_expected() {
        for (text, says) in [
            ("", "got \"\""),
            ("1", "MAJOR.MINOR"),
            ("0.1.0", "MAJOR.MINOR"),
            ("v0.1", "MAJOR.MINOR"),
            ("0.x", "MAJOR.MINOR"),
            ("0.0", "the first rule set is 0.1"),
            ("99.0", "later than this kit's rules"),
        ] {
            let err = text.parse::<RuleSetVersion>().unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
        assert_eq!(
            RuleSetVersion::CURRENT.to_string().parse(),
            Ok(RuleSetVersion::CURRENT)
        );
    }
}
