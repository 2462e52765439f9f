//! A log file's bytes as text: the encoding detected and decoded.

use std::fmt;

use serde::Serialize;

/// How a log's bytes were decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LogEncoding {
    /// UTF-8, with or without a byte order mark.
    Utf8,
    /// UTF-8 with invalid bytes, each read as U+FFFD.
    Utf8Lossy,
    /// UTF-16, little-endian (from its byte order mark or its zero bytes).
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

impl fmt::Display for LogEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Utf8 => "UTF-8",
            Self::Utf8Lossy => "UTF-8 with invalid bytes (read as U+FFFD)",
            Self::Utf16Le => "UTF-16 little-endian",
            Self::Utf16Be => "UTF-16 big-endian",
        })
    }
}

/// A log file's bytes as text: a UTF-8 byte order mark is dropped, UTF-16 is detected (by its
/// byte order mark, or by zero bytes in every other place) and decoded, and invalid UTF-8 is
/// read lossily; the encoding says which.
///
/// ```
/// use memory_conformance::inspect::{LogEncoding, decode_log};
/// assert_eq!(decode_log(b"\xEF\xBB\xBFmemory.write"), ("memory.write".to_owned(), LogEncoding::Utf8));
/// assert_eq!(decode_log(b"a\xFFb").1, LogEncoding::Utf8Lossy);
/// assert_eq!(decode_log(b"\xFF\xFEa\0b\0"), ("ab".to_owned(), LogEncoding::Utf16Le));
/// ```
pub fn decode_log(bytes: &[u8]) -> (String, LogEncoding) {
    let utf16 = |body: &[u8], little: bool| {
        let units = body.chunks_exact(2).map(|pair| {
            let pair = [pair[0], pair[1]];
            if little {
                u16::from_le_bytes(pair)
            } else {
                u16::from_be_bytes(pair)
            }
        });
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect::<String>()
    };
    if let Some(body) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return lossy(body);
    }
    if let Some(body) = bytes.strip_prefix(b"\xFF\xFE") {
        return (utf16(body, true), LogEncoding::Utf16Le);
    }
    if let Some(body) = bytes.strip_prefix(b"\xFE\xFF") {
        return (utf16(body, false), LogEncoding::Utf16Be);
    }
    // Without a mark: ASCII text in UTF-16 has a zero byte in every other place.
    let sample = &bytes[..bytes.len().min(512) & !1];
    let zeros_at = |parity: usize| {
        sample.len() >= 4 && sample.iter().skip(parity).step_by(2).all(|byte| *byte == 0)
    };
    if zeros_at(1) {
        return (utf16(bytes, true), LogEncoding::Utf16Le);
    }
    if zeros_at(0) {
        return (utf16(bytes, false), LogEncoding::Utf16Be);
    }
    lossy(bytes)
}

fn lossy(bytes: &[u8]) -> (String, LogEncoding) {
    match String::from_utf8_lossy(bytes) {
        std::borrow::Cow::Borrowed(text) => (text.to_owned(), LogEncoding::Utf8),
        std::borrow::Cow::Owned(text) => (text, LogEncoding::Utf8Lossy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::read_log;

    #[test]
    fn logs_decode_with_a_mark_in_utf16_or_lossily() {
        let line = "memory.search key=support/u-42 hits=0";
        let mut marked = b"\xEF\xBB\xBF".to_vec();
        marked.extend(line.as_bytes());
        assert_eq!(decode_log(&marked), (line.to_owned(), LogEncoding::Utf8));
        let le: Vec<u8> = line.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = line.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode_log(&le), (line.to_owned(), LogEncoding::Utf16Le));
        assert_eq!(decode_log(&be), (line.to_owned(), LogEncoding::Utf16Be));
        let mut be_marked = b"\xFE\xFF".to_vec();
        be_marked.extend(&be);
        assert_eq!(
            decode_log(&be_marked),
            (line.to_owned(), LogEncoding::Utf16Be)
        );
        let mut bad = line.as_bytes().to_vec();
        bad.insert(7, 0xFF);
        let (text, encoding) = decode_log(&bad);
        assert_eq!(encoding, LogEncoding::Utf8Lossy);
        assert_eq!(
            read_log(&text).records,
            0,
            "the damaged name is not a record"
        );
        assert_eq!(decode_log(b"ab").1, LogEncoding::Utf8);
    }
}
