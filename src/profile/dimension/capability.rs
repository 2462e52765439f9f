//! The capabilities a profile claims or not, as rows of the dimension table.

use super::ValueEntry;
use crate::profile::Capabilities;

/// A [`Capability`]: the field of [`Capabilities`] it is (its key is `capabilities.FIELD`),
/// its label, the rules that decide it and what a backend claiming it does.
macro_rules! capability {
    (
        $field:ident {
            label: $label:literal,
            decided_by: [$($decided_by:literal),+ $(,)?],
            says: $says:literal,
            rules: $rules:tt,
            inputs: $inputs:tt $(,)?
        }
    ) => {
        Capability {
            key: concat!("capabilities.", stringify!($field)),
            label: $label,
            decided_by: &[$($decided_by),+],
            claimed: |c| c.$field,
            claim: |c| c.$field = true,
            entry: value_entry!(value: "", says: $says, rules: $rules, inputs: $inputs),
        }
    };
}

/// A capability a profile claims or not: a call beyond the two, or a property of the storage.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct Capability {
    /// Its key (`capabilities.durable`).
    pub(crate) key: &'static str,
    /// Its row in the profile table.
    pub(crate) label: &'static str,
    /// The rules `infer` runs to decide it.
    pub(crate) decided_by: &'static [&'static str],
    /// Whether capabilities claim it.
    pub(crate) claimed: fn(&Capabilities) -> bool,
    /// Claims it.
    pub(crate) claim: fn(&mut Capabilities),
    /// What a backend claiming it does.
    pub(crate) entry: ValueEntry,
}

/// The capabilities that are claimed or not, in the profile table's order.
pub(crate) const CAPABILITIES: [Capability; 6] = [
    capability!(durable {
        label: "durable",
        decided_by: ["durability.reopen"],
        says: "memories survive a reopen of the storage",
        rules: ["durability.reopen"],
        inputs: ["reopen", "re-adds"],
    }),
    capability!(shared {
        label: "shared store",
        decided_by: ["scope.shared", "scope.replicas"],
        says: "instances on one storage see each other's writes, also three behind a round-robin load balancer under concurrent writes",
        rules: ["scope.shared", "scope.replicas"],
        inputs: ["second instance", "replicas"],
    }),
    capability!(explicit_memories {
        label: "explicit memories",
        decided_by: ["memories.searchable"],
        says: "add_memory stores searchable memories",
        rules: ["memories.searchable", "model.random_ops"],
        inputs: ["explicit memories"],
    }),
    capability!(entry_ids {
        label: "entry ids",
        decided_by: ["result.entry_ids"],
        says: "entries carry stable, distinct ids",
        rules: ["result.entry_ids"],
        inputs: ["many matches"],
    }),
    capability!(delete {
        label: "delete by id",
        decided_by: ["forget.never_returned"],
        says: "delete_memory forgets a memory by its id, for good and under its key only",
        rules: ["forget.never_returned", "forget.other_keys_untouched"],
        inputs: ["deletions"],
    }),
    capability!(search_limit {
        label: "search limit",
        decided_by: ["result.limit_option"],
        says: "a search takes a result limit",
        rules: ["result.limit_option"],
        inputs: ["limited searches"],
    }),
];
