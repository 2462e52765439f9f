//! Whether an entry's timestamp is the event's, written as the profile's [`Timestamps`] says.

use jiff::Timestamp;
use jiff::civil::DateTime;

use crate::profile::Timestamps;

/// Whether `actual` writes the instant `expected` stands for, as `format` says. Under
/// [`Timestamps::Rfc3339Utc`] `expected` is the kit's own string and the two must be equal;
/// under [`Timestamps::NaiveIsoformat`] `expected` is the event's exact instant (RFC 3339) and
/// `actual` must be `YYYY-MM-DDTHH:MM:SS`, with `.ffffff` exactly when the microseconds are not
/// zero, no offset, read as UTC and the instant rounded to the microsecond, give or take the
/// error of Python's float seconds ([`FLOAT_SLACK`]).
pub(crate) fn matches(format: Timestamps, expected: Option<&str>, actual: Option<&str>) -> bool {
    match format {
        Timestamps::Rfc3339Utc => expected == actual,
        Timestamps::NaiveIsoformat => {
            let (Some(expected), Some(actual)) = (expected, actual) else {
                return expected.is_none() && actual.is_none();
            };
            let (Ok(instant), Some(written)) = (expected.parse::<Timestamp>(), naive(actual))
            else {
                return false;
            };
            let apart = written.duration_since(instant).unsigned_abs();
            apart <= std::time::Duration::from_nanos(500) + FLOAT_SLACK
        }
    }
}

/// How far Python's float seconds may lie from the exact instant: half a unit in the last place
/// of an `f64` between 2^30 and 2^31 seconds (2004 to 2038, where generated events lie) is
/// 2^-23 s, about 119 ns, so the microsecond Python rounds to lies at most 500 ns plus that
/// from the instant.
const FLOAT_SLACK: std::time::Duration = std::time::Duration::from_nanos(120);

/// A naive isoformat string read as UTC: `YYYY-MM-DDTHH:MM:SS` or `...SS.ffffff` with a
/// non-zero fraction, nothing else.
fn naive(text: &str) -> Option<Timestamp> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let shaped = whole.len() == 19
        && whole.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            10 => b == b'T',
            13 | 16 => b == b':',
            _ => b.is_ascii_digit(),
        });
    let fraction_shaped = fraction
        .is_none_or(|f| f.len() == 6 && f.bytes().all(|b| b.is_ascii_digit()) && f != "000000");
    if !shaped || !fraction_shaped {
        return None;
    }
    let civil: DateTime = text.parse().ok()?;
    jiff::tz::Offset::UTC.to_timestamp(civil).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: &str = "2026-01-01T00:00:01.2500001Z";

    #[test]
    fn the_contract_wants_the_kits_own_string() {
        let exact = Some("2026-01-01T00:00:01.250Z");
        assert!(matches(Timestamps::Rfc3339Utc, exact, exact));
        assert!(!matches(
            Timestamps::Rfc3339Utc,
            exact,
            Some("2026-01-01T00:00:01.25Z")
        ));
        assert!(!matches(Timestamps::Rfc3339Utc, exact, None));
    }

    #[test]
    fn a_naive_isoformat_is_read_as_utc_to_the_microsecond() {
        let naive = |actual: &str| matches(Timestamps::NaiveIsoformat, Some(AT), Some(actual));
        assert!(naive("2026-01-01T00:00:01.250000"));
        // A microsecond off, an offset, a Z, a cut fraction, the wrong zone: all wrong.
        assert!(!naive("2026-01-01T00:00:01.250001"));
        assert!(!naive("2026-01-01T00:00:01.250000+00:00"));
        assert!(!naive("2026-01-01T00:00:01.250000Z"));
        assert!(!naive("2026-01-01T00:00:01.250"));
        assert!(!naive("2026-01-01T01:00:01.250000"));
        assert!(!naive("2026-01-01 00:00:01.250000"));
        // Whole seconds carry no fraction, and a zero fraction is not written.
        let whole = Some("2026-01-01T00:00:01Z");
        assert!(matches(
            Timestamps::NaiveIsoformat,
            whole,
            Some("2026-01-01T00:00:01")
        ));
        assert!(!matches(
            Timestamps::NaiveIsoformat,
            whole,
            Some("2026-01-01T00:00:01.000000")
        ));
        assert!(!matches(Timestamps::NaiveIsoformat, Some(AT), None));
        assert!(!matches(
            Timestamps::NaiveIsoformat,
            Some("not a time"),
            Some("2026-01-01T00:00:01")
        ));
    }
}
