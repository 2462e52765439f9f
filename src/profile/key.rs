//! How (app name, user id) selects a store: the profile's `key` dimension.

use serde::{Deserialize, Serialize};

/// How (app name, user id) selects a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum KeyScheme {
    /// The pair is kept structured (a tuple, a struct, two columns): no two pairs share a store.
    Structured,
    /// The pair is joined into the string `app + "/" + user`: (`a/b`, `c`) and (`a`, `b/c`)
    /// share one store (ADK Java, ADK JS).
    JoinedWithSlash,
    /// The pair is joined into the string `app + separator + user` with a separator other
    /// than `/` (a service that keys by `f"{app}:{user}"`): with `:`, (`a:b`, `c`) and
    /// (`a`, `b:c`) share one store. A profile file writes it `key = { joined_with = ":" }`;
    /// `/` is [`KeyScheme::JoinedWithSlash`], which a file must name so.
    #[serde(rename = "joined_with")]
    JoinedWith(char),
}

impl KeyScheme {
    /// The string (`app_name`, `user_id`) selects a store by, where the pair is joined.
    pub fn joined(self, app_name: &str, user_id: &str) -> Option<String> {
        match self {
            Self::Structured => None,
            Self::JoinedWithSlash => Some(format!("{app_name}/{user_id}")),
            Self::JoinedWith(separator) => Some(format!("{app_name}{separator}{user_id}")),
        }
    }
}
