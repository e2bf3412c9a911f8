//! Reading back the report's `&'static str` fields (statuses, versions, kinds: a small
//! vocabulary), for the binary's report cache: each distinct string is leaked once per
//! process and shared after that.

use std::collections::BTreeSet;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer};

/// A word of the report's vocabulary. (An alias: the derive would otherwise take the
/// field as borrowed from the input.)
pub type Word = &'static str;

fn intern(s: String) -> &'static str {
    static TABLE: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut table = TABLE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&known) = table.get(s.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.into_boxed_str());
    table.insert(leaked);
    leaked
}

pub fn one<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    String::deserialize(d).map(intern)
}

pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
    Option::<String>::deserialize(d).map(|s| s.map(intern))
}

pub fn list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    Vec::<String>::deserialize(d).map(|v| v.into_iter().map(intern).collect())
}
