//! Instants between memory-conformance (`jiff::Timestamp`) and adk-memory
//! (`chrono::DateTime<Utc>`), exact to the nanosecond both ways.

use chrono::{DateTime, Utc};
use jiff::Timestamp;

const NANOS_PER_SECOND: i128 = 1_000_000_000;

/// `timestamp` as chrono's UTC instant. Every `jiff` instant (years -9999 to 9999) fits.
pub(crate) fn to_chrono(timestamp: Timestamp) -> Result<DateTime<Utc>, String> {
    let nanos = timestamp.as_nanosecond();
    let seconds = i64::try_from(nanos.div_euclid(NANOS_PER_SECOND))
        .map_err(|_| format!("timestamp {timestamp} is outside chrono's range"))?;
    let subsecond = u32::try_from(nanos.rem_euclid(NANOS_PER_SECOND))
        .map_err(|_| format!("timestamp {timestamp} has no valid sub-second part"))?;
    DateTime::from_timestamp(seconds, subsecond)
        .ok_or_else(|| format!("timestamp {timestamp} is outside chrono's range"))
}

/// `datetime` as a `jiff` instant. Fails on chrono's leap-second representation (a
/// sub-second part of a second or more) and outside `jiff`'s years -9999 to 9999.
pub(crate) fn to_jiff(datetime: DateTime<Utc>) -> Result<Timestamp, String> {
    let subsecond = datetime.timestamp_subsec_nanos();
    if i128::from(subsecond) >= NANOS_PER_SECOND {
        return Err(format!(
            "timestamp {} is a leap second, which jiff cannot hold",
            datetime.to_rfc3339()
        ));
    }
    let nanos = i128::from(datetime.timestamp()) * NANOS_PER_SECOND + i128::from(subsecond);
    Timestamp::from_nanosecond(nanos).map_err(|err| {
        format!(
            "timestamp {} is outside jiff's range: {err}",
            datetime.to_rfc3339()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(timestamp: Timestamp) {
        let chrono = to_chrono(timestamp).unwrap();
        assert_eq!(
            to_jiff(chrono).unwrap(),
            timestamp,
            "{timestamp} via {chrono}"
        );
    }

    #[test]
    fn instants_round_trip_to_the_nanosecond() {
        for text in [
            "2026-01-01T00:00:01.250Z",
            "2026-01-01T00:00:01.999999999Z",
            "2026-01-01T00:00:00.000000001Z",
            "2026-01-01T00:00:01.123456789Z",
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z",
            "1600-02-29T12:00:00.5Z",
        ] {
            round_trip(text.parse().unwrap());
        }
        round_trip(Timestamp::MIN);
        round_trip(Timestamp::MAX);
    }

    #[test]
    fn sub_millisecond_precision_survives() {
        let timestamp: Timestamp = "2026-01-01T00:00:01.000999001Z".parse().unwrap();
        let chrono = to_chrono(timestamp).unwrap();
        assert_eq!(chrono.timestamp_subsec_nanos(), 999_001);
        assert_eq!(chrono.to_rfc3339(), "2026-01-01T00:00:01.000999001+00:00");
    }

    #[test]
    fn instants_before_1970_keep_a_positive_sub_second_part() {
        let timestamp: Timestamp = "1969-12-31T23:59:59.75Z".parse().unwrap();
        let chrono = to_chrono(timestamp).unwrap();
        assert_eq!(
            (chrono.timestamp(), chrono.timestamp_subsec_nanos()),
            (-1, 750_000_000)
        );
    }

    #[test]
    fn what_jiff_cannot_hold_is_an_error_naming_the_instant() {
        let leap = DateTime::from_timestamp(1_483_228_799, 1_500_000_000).unwrap();
        assert!(to_jiff(leap).unwrap_err().contains("leap second"));
        let far = DateTime::from_timestamp(400_000_000_000, 0).unwrap();
        let err = to_jiff(far).unwrap_err();
        assert!(
            err.contains("outside jiff's range") && err.contains("+14645"),
            "{err}"
        );
    }
}
