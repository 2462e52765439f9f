//! Which entry is which: every rule knows a returned entry by its text parts, so a backend that
//! changes what it keeps of an entry (its role, a non-text part, its author or timestamp) on
//! a first add fails `result.fidelity` once, and every other rule goes on checking what it
//! checks (which entries come back, how many, in which order). A field that changes only
//! after a later step (a re-add, a delta, a reopen, another instance) is caught by the rule
//! whose scenario ran that step (`fields.rs`, `run/field_watch.rs`).

use crate::Content;

/// Whether `a` and `b` are the same entry to a rule other than `result.fidelity`: the same text
/// parts, in the same order (the role and other kinds of part aside).
pub(crate) fn same_entry(a: &Content, b: &Content) -> bool {
    a.texts().eq(b.texts())
}

/// Whether `entries` holds an entry that is `content` ([`same_entry`]).
pub(crate) fn holds(entries: &[&Content], content: &Content) -> bool {
    entries.iter().any(|entry| same_entry(entry, content))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Part;

    #[test]
    fn an_entry_is_its_text_parts_in_order() {
        let spoken = Content::text("tea").with_role("user");
        assert!(same_entry(
            &spoken,
            &Content::text("tea").with_role("model")
        ));
        assert!(same_entry(&spoken, &Content::text("tea")));
        assert!(!same_entry(
            &spoken,
            &Content::text("coffee").with_role("user")
        ));
        let with_call = Content {
            role: Some("model".into()),
            parts: vec![
                Part::text("tea"),
                Part::function_call("f", serde_json::json!({})),
            ],
        };
        assert!(same_entry(&spoken, &with_call));
        let two = Content {
            role: None,
            parts: vec![Part::text("tea"), Part::text("cake")],
        };
        let swapped = Content {
            role: None,
            parts: vec![Part::text("cake"), Part::text("tea")],
        };
        assert!(!same_entry(&two, &swapped));
        assert!(!same_entry(&two, &spoken));
        assert!(holds(&[&two, &spoken], &Content::text("tea")));
        assert!(!holds(&[&two], &Content::text("tea")));
    }
}
