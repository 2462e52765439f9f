//! Verdict: what one rule's run concludes.
//!
//! - `rule_verdict.rs`: the [`Verdict`](rule_verdict::Verdict) of one rule, weighed against
//!   the known violations;
//! - `failure.rs`: a [`RuleFailure`](failure::RuleFailure), reported so a reviewer can act on
//!   it: the minimal scenario, expected against actual, the command that reproduces it.

pub(crate) mod failure;
pub(crate) mod rule_verdict;
