//! Reports as a cache stores them (JSON; the text-only parts, such as source snippets,
//! are not kept), and read back.

use serde::de::DeserializeOwned;
use serde::Serialize;

pub fn to_bytes<T: Serialize>(report: &T) -> Vec<u8> {
    serde_json::to_vec(report).unwrap_or_default()
}

/// A report stored by [`to_bytes`]; `None` when the bytes are not one.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    serde_json::from_slice(bytes).ok()
}
