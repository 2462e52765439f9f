//! The profile's dimensions as one table: for each dimension, its key in a profile file, its
//! row in the profile table, the rules that decide it; for each of its values, the value's name,
//! what it says, the rules that check a backend declaring it, the generated inputs that reach
//! it, the required rules it implies cannot hold, and its text in the profile table.
//!
//! Everything that names a dimension or a value reads it here: the file format (the keys), the
//! profile table (`table.rs`), the implied known violations
//! ([`implied_violations`](crate::conformance::implied_violations)), the clause map
//! (`docs/clause-map.md`) and `infer`. A value's name in a file is its type's serde name; the
//! name here is the one prose uses (`readd = append`). A rule named here that is not in the
//! catalogue fails the clause map's test.
//!
//! This file holds the table's frame (the [`Dimension`] trait, the macros that write a row, the
//! [`table`]); the rows are in `dimension/`: how a search matches (`matching.rs`), what is stored
//! and when it is seen (`storage.rs`), what a search returns (`results.rs`) and the capabilities
//! (`capability.rs`).

use super::{
    BlankEvents, BlankQuery, CaseMapping, DroppedWords, Duplicates, EventIds, EventsDelta,
    KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, Retrieval, Strings, Timestamps,
    ToolData, Visibility, WordRule,
};

/// One value of a dimension, as the kit documents and checks it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ValueEntry {
    /// The value's name in prose (`append`); empty for a capability, which is named by its key.
    pub(crate) value: &'static str,
    /// What a backend declaring it does, in one line.
    pub(crate) says: &'static str,
    /// The ids of the rules that check a backend declaring it.
    pub(crate) rules: &'static [&'static str],
    /// The names of the generated inputs that reach it (the clause map's inputs).
    pub(crate) inputs: &'static [&'static str],
    /// The required rules it says cannot hold: (rule id, why).
    pub(crate) implies: &'static [(&'static str, &'static str)],
    /// The clause of the contract it states a departure from, if any: the rules check the
    /// behaviour it declares instead of the clause, and exempt nothing else.
    pub(crate) departs: Option<&'static str>,
}

/// A dimension of a [`Profile`]: a field whose value is one of a few kinds.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) trait Dimension: Clone + Sized + 'static {
    /// The dimension's name (`readd`): its key in a profile file (but `visibility`, which a
    /// file writes as `visible_within_ms`), and its name in `infer`'s notes, the clause map
    /// and the implied known violations.
    const KEY: &'static str;
    /// Its row in the profile table (`re-add`).
    const LABEL: &'static str;
    /// The rules `infer` runs to decide it.
    const DECIDED_BY: &'static [&'static str];
    /// One value of each kind, most specific first (the order `infer` tries them in).
    fn values() -> Vec<Self>;
    /// The value `profile` declares.
    fn of(profile: &Profile) -> Self;
    /// `profile` with this value.
    fn set(self, profile: &mut Profile);
    /// The value's entry; `None` where it claims nothing (a capability not claimed).
    fn entry(&self) -> Option<&'static ValueEntry>;
    /// The value in the profile table.
    fn text(&self) -> String;
}

/// A [`ValueEntry`] from its fields, `implies` empty unless given.
macro_rules! value_entry {
    (
        value: $value:literal,
        says: $says:literal,
        rules: [$($rule:literal),* $(,)?],
        inputs: [$($input:literal),* $(,)?]
        $(, implies: [$(($implied:literal, $why:literal $(,)?)),* $(,)?])?
        $(, departs: $clause:literal)?
    ) => {
        ValueEntry {
            value: $value,
            says: $says,
            rules: &[$($rule),*],
            inputs: &[$($input),*],
            implies: &[$($(($implied, $why)),*)?],
            departs: departs!($($clause)?),
        }
    };
}

/// A [`ValueEntry`]'s `departs`: the clause given, else none.
macro_rules! departs {
    () => {
        None
    };
    ($clause:literal) => {
        Some($clause)
    };
}

/// The entry a row of [`dimension!`] gives its value: `None` for a row with a text only.
macro_rules! entry_of {
    ({ text: $text:expr $(,)? }) => {
        None
    };
    ({
        value: $value:literal,
        says: $says:literal,
        rules: $rules:tt,
        inputs: $inputs:tt,
        $(implies: $implies:tt,)?
        $(departs: $clause:literal,)?
        $(text: $text:expr $(,)?)?
    }) => {
        Some(&value_entry!(
            value: $value,
            says: $says,
            rules: $rules,
            inputs: $inputs
            $(, implies: $implies)?
            $(, departs: $clause)?
        ))
    };
}

/// The text a row of [`dimension!`] gives its value in the profile table: its `text`, or else
/// the value's name.
macro_rules! text_of {
    ({ $(value: $value:literal, says: $says:literal, rules: $rules:tt, inputs: $inputs:tt, $(implies: $implies:tt,)? $(departs: $clause:literal,)?)? text: $text:expr $(,)? }) => {
        $text
    };
    ({ value: $value:literal, says: $says:literal, rules: $rules:tt, inputs: $inputs:tt $(, implies: $implies:tt)? $(, departs: $clause:literal)? $(,)? }) => {
        $value
    };
}

/// `impl Dimension for $type`: the dimension's key, label, deciding rules, profile field and
/// values (most specific first), then one row per kind of value, in match order: the pattern,
/// its entry (`value`, `says`, `rules`, `inputs`, `implies` where it implies violations; none
/// where it claims nothing) and its `text` in the profile table (the value's name when
/// omitted), which may use the pattern's bindings.
macro_rules! dimension {
    (
        $type:ty {
            key: $key:literal,
            label: $label:literal,
            decided_by: $decided_by:expr,
            field: $($field:ident).+,
            values: [$($value:expr),+ $(,)?] $(,)?
        }
        $($pattern:pat $(if $guard:expr)? => $row:tt)+
    ) => {
        impl Dimension for $type {
            const KEY: &'static str = $key;
            const LABEL: &'static str = $label;
            const DECIDED_BY: &'static [&'static str] = $decided_by;

            fn values() -> Vec<Self> {
                vec![$($value),+]
            }

            fn of(profile: &Profile) -> Self {
                profile.$($field).+.clone()
            }

            fn set(self, profile: &mut Profile) {
                profile.$($field).+ = self;
            }

            #[allow(unused_variables)]
            fn entry(&self) -> Option<&'static ValueEntry> {
                match self {
                    $($pattern $(if $guard)? => entry_of!($row),)+
                }
            }

            fn text(&self) -> String {
                match self {
                    $($pattern $(if $guard)? => text_of!($row).into(),)+
                }
            }
        }
    };
}

// The rows of the table, after the macros that write them.
mod capability;
mod matching;
mod results;
mod storage;

pub(crate) use capability::CAPABILITIES;
use capability::Capability;

/// `KEY = value` (`readd = append`), or the key alone for a capability.
pub(crate) fn value_id(key: &str, entry: &ValueEntry) -> String {
    if entry.value.is_empty() {
        key.to_owned()
    } else {
        format!("{key} = {}", entry.value)
    }
}

/// The entry of the value a profile declares, if it claims one.
pub(crate) type EntryOf = Box<dyn Fn(&Profile) -> Option<&'static ValueEntry>>;

/// One row of the table, whatever its dimension's type.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct Row {
    /// The dimension's key (`readd`).
    pub(crate) key: &'static str,
    /// The row's label in the profile table (`re-add`).
    pub(crate) label: &'static str,
    /// The rules `infer` runs to decide it (read by the clause map's test).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) decided_by: &'static [&'static str],
    /// The value's text in the profile table.
    pub(crate) text: Box<dyn Fn(&Profile) -> String>,
    /// The entry of the value a profile declares, if it claims one.
    pub(crate) entry: EntryOf,
    /// The entry of each kind of value, in order (the clause map's).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) values: Vec<&'static ValueEntry>,
}

impl Row {
    fn of<D: Dimension>() -> Self {
        let mut values: Vec<&'static ValueEntry> = Vec::new();
        for entry in D::values().iter().filter_map(D::entry) {
            if !values.contains(&entry) {
                values.push(entry);
            }
        }
        Self {
            key: D::KEY,
            label: D::LABEL,
            decided_by: D::DECIDED_BY,
            text: Box::new(|profile| {
                let value = D::of(profile);
                match value.entry().and_then(|entry| entry.departs) {
                    Some(clause) => format!("{} (departs from {clause})", value.text()),
                    None => value.text(),
                }
            }),
            entry: Box::new(|profile| D::of(profile).entry()),
            values,
        }
    }

    fn capability(capability: &'static Capability) -> Self {
        Self {
            key: capability.key,
            label: capability.label,
            decided_by: capability.decided_by,
            text: Box::new(|profile| yes_no((capability.claimed)(&profile.capabilities)).into()),
            entry: Box::new(|profile| {
                (capability.claimed)(&profile.capabilities).then_some(&capability.entry)
            }),
            values: vec![&capability.entry],
        }
    }
}

/// The table: every dimension of a profile, in the profile table's order.
pub(crate) fn table() -> Vec<Row> {
    let [
        durable,
        shared,
        explicit_memories,
        entry_ids,
        delete,
        search_limit,
    ] = &CAPABILITIES;
    vec![
        Row::of::<Retrieval>(),
        Row::of::<KeyScheme>(),
        Row::of::<Readd>(),
        Row::of::<WordRule>(),
        Row::of::<QueryTerms>(),
        Row::of::<CaseMapping>(),
        Row::of::<DroppedWords>(),
        Row::of::<crate::profile::Stemming>(),
        Row::of::<MultiWord>(),
        Row::of::<ToolData>(),
        Row::of::<Limit>(),
        Row::of::<Order>(),
        Row::of::<Timestamps>(),
        Row::of::<Strings>(),
        Row::of::<BlankQuery>(),
        Row::of::<Duplicates>(),
        Row::of::<EventIds>(),
        Row::of::<BlankEvents>(),
        Row::of::<Visibility>(),
        Row::capability(durable),
        Row::capability(shared),
        Row::of::<Option<EventsDelta>>(),
        Row::capability(explicit_memories),
        Row::capability(entry_ids),
        Row::capability(delete),
        Row::capability(search_limit),
    ]
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}
