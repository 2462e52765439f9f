use jiff::Timestamp;
use serde_json::Value;

use super::SessionsError;
use super::format::MILLIS_FROM;
use super::node::Node;

/// A timestamp as any ADK language writes it: an RFC 3339 string, epoch seconds (ADK Python's
/// float, ADK Java's `lastUpdateTime`) or epoch milliseconds (ADK JS, ADK Java events).
pub(crate) fn read(node: &Node<'_>) -> Result<Timestamp, SessionsError> {
    const EXPECTED: &str = "a timestamp (an RFC 3339 string, epoch seconds or epoch milliseconds)";
    match node.value {
        // The parse error quotes the text, which may be anything: it is left out.
        Value::String(text) => text.parse::<Timestamp>().map_err(|_| {
            SessionsError::at(
                node.path.clone(),
                format!(
                    "expected {EXPECTED}, found a string of {} characters that is not RFC 3339",
                    text.chars().count()
                ),
            )
        }),
        Value::Number(number) => {
            let instant = if let Some(whole) = number.as_i64() {
                if whole as f64 >= MILLIS_FROM {
                    Timestamp::from_millisecond(whole).ok()
                } else {
                    Timestamp::from_second(whole).ok()
                }
            } else {
                number.as_f64().and_then(from_float)
            };
            instant.ok_or_else(|| {
                SessionsError::at(
                    node.path.clone(),
                    format!("expected {EXPECTED}, found {number}, which is out of range"),
                )
            })
        }
        _ => Err(node.mismatch(EXPECTED)),
    }
}

/// Float epoch seconds (or milliseconds, from [`MILLIS_FROM`]) to the nearest microsecond, the
/// precision a float of today's epoch seconds carries.
fn from_float(value: f64) -> Option<Timestamp> {
    if !value.is_finite() {
        return None;
    }
    let micros = if value >= MILLIS_FROM {
        (value * 1e3).round()
    } else {
        (value * 1e6).round()
    };
    if micros.abs() > 9.0e18 {
        return None;
    }
    Timestamp::from_microsecond(micros as i64).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(value: Value) -> Result<String, SessionsError> {
        read(&Node::root(&value)).map(|t| t.to_string())
    }

    #[test]
    fn every_unit_the_adk_languages_write() {
        assert_eq!(
            at(serde_json::json!(1_767_225_601.25)).unwrap(),
            "2026-01-01T00:00:01.25Z"
        );
        assert_eq!(
            at(serde_json::json!(1_767_225_601_250_i64)).unwrap(),
            "2026-01-01T00:00:01.25Z"
        );
        assert_eq!(
            at(serde_json::json!(1_767_225_601)).unwrap(),
            "2026-01-01T00:00:01Z"
        );
        assert_eq!(
            at(serde_json::json!("2026-01-01T00:00:01.250Z")).unwrap(),
            "2026-01-01T00:00:01.25Z"
        );
        assert!(at(serde_json::json!(1e300)).is_err());
        assert!(at(serde_json::json!("yesterday")).is_err());
        assert!(at(serde_json::json!(true)).is_err());
    }
}
