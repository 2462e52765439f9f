//! Verdict: what one rule's run concludes.
//!
//! - `rule_verdict.rs`: the [`Verdict`](rule_verdict::Verdict) of one rule, weighed against
//!   the known violations;
//! - `failure.rs`: a [`RuleFailure`](failure::RuleFailure), reported so a reviewer can act on
//!   it: the minimal scenario, expected against actual, the command that reproduces it;
//! - `at_fault.rs`: what is at fault in a failure, the declared value of a dimension its
//!   minimal scenario contradicts and the value that fits, from its answers judged again.

pub(crate) mod at_fault;
pub(crate) mod failure;
pub(crate) mod rule_verdict;
