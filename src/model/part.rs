use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One part of a [`Content`](crate::Content): text, a function call, a function response or
/// inline data, as in ADK's `Part`.
///
/// Serialised externally tagged in snake case, the shape other ADK languages read:
/// `{"text":"hi"}`, `{"function_call":{"name":"get_order","args":{}}}`,
/// `{"function_response":{"name":"get_order","response":{}}}`,
/// `{"inline_data":{"mime_type":"image/png","data":"<base64>"}}`.
///
/// ```
/// use memory_conformance::Part;
/// let part = Part::text("hi");
/// assert_eq!(part.as_text(), Some("hi"));
/// assert_eq!(serde_json::to_string(&part).unwrap(), r#"{"text":"hi"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Part {
    /// Plain text, the only kind of part a lexical memory index reads by default.
    Text(String),
    /// A call the model made to a tool: its name and JSON arguments.
    FunctionCall {
        /// The tool's name.
        name: String,
        /// The call's arguments.
        args: Value,
    },
    /// What a tool returned: its name and JSON response.
    FunctionResponse {
        /// The tool's name.
        name: String,
        /// The tool's response.
        response: Value,
    },
    /// Bytes with a MIME type (images, audio, files).
    InlineData {
        /// The MIME type of `data`.
        mime_type: String,
        /// The bytes, base64 in JSON.
        #[serde(with = "base64_bytes")]
        data: Vec<u8>,
    },
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// A function-call part.
    pub fn function_call(name: impl Into<String>, args: Value) -> Self {
        Self::FunctionCall {
            name: name.into(),
            args,
        }
    }

    /// A function-response part.
    pub fn function_response(name: impl Into<String>, response: Value) -> Self {
        Self::FunctionResponse {
            name: name.into(),
            response,
        }
    }

    /// An inline-data part.
    pub fn inline_data(mime_type: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        Self::InlineData {
            mime_type: mime_type.into(),
            data: data.into(),
        }
    }

    /// The text of a text part; `None` for every other kind.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            _ => None,
        }
    }
}

mod base64_bytes {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(data: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(data))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        STANDARD.decode(text.as_bytes()).map_err(|err| {
            serde::de::Error::custom(format!("inline_data.data is not base64: {err}"))
        })
    }
}
