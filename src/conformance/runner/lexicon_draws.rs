//! How many lexicon queries a gate's cases drew from each named generator: the share each
//! generator really had in the run, beside the share it is declared with.

use std::fmt;

use crate::conformance::declare::gate::Gate;
use crate::conformance::rules::lexicon_generators;

/// The lexicon queries a gate's run drew from each generator of the lexicon, in the order of
/// their declared shares ([`Gate::lexicon_draws`]). Every query a case ran counts, a failing
/// rule's shrinking included. Its `Display` is the gate's summary line about them, each
/// generator's draws and their part of all, with its declared share in brackets (none when no
/// rule drew from the lexicon).
///
/// ```
/// use memory_conformance::conformance::{Gate, rules};
/// let gate = Gate::reference().cases(8).seed(1);
/// gate.check(rules::find("query.multi_word").unwrap());
/// let draws = gate.lexicon_draws();
/// assert_eq!(draws.total(), 8);
/// assert!(draws.to_string().starts_with("lexicon draws    8 queries: plain "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconDraws {
    by_generator: Vec<LexiconShare>,
}

/// One generator's draws in a run, and the share it is declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LexiconShare {
    /// The generator's name (`inflected`).
    pub generator: &'static str,
    /// Its declared share, of the sum of all generators' shares.
    pub share: u32,
    /// The lexicon queries drawn from it.
    pub draws: u64,
}

impl LexiconDraws {
    /// Each generator's draws, in the order of their declared shares.
    pub fn by_generator(&self) -> &[LexiconShare] {
        &self.by_generator
    }

    /// The lexicon queries drawn in all.
    pub fn total(&self) -> u64 {
        self.by_generator.iter().map(|g| g.draws).sum()
    }
}

impl fmt::Display for LexiconDraws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        if total == 0 {
            return Ok(());
        }
        let shares: u32 = self.by_generator.iter().map(|g| g.share).sum();
        let each: Vec<String> = self
            .by_generator
            .iter()
            .map(|g| {
                format!(
                    "{} {} = {:.0}% ({:.0}%)",
                    g.generator,
                    g.draws,
                    percent(g.draws, total),
                    percent(u64::from(g.share), u64::from(shares)),
                )
            })
            .collect();
        write!(
            f,
            "lexicon draws    {total} queries: {}; in brackets, the share declared where a rule \
             draws from every generator (a rule that owns a generator draws only it)",
            each.join(", ")
        )
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    // Counts of queries and shares stay far below 2^52: exact as floats.
    #[allow(clippy::cast_precision_loss)]
    let (part, whole) = (part as f64, whole as f64);
    100.0 * part / whole
}

impl Gate {
    /// The lexicon queries the gate's rules drew so far, per generator.
    pub fn lexicon_draws(&self) -> LexiconDraws {
        let spending = &self.subject().options.spending;
        LexiconDraws {
            by_generator: lexicon_generators()
                .into_iter()
                .map(|(generator, share)| LexiconShare {
                    generator,
                    share,
                    draws: spending.draws_of(generator),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::conformance::{Gate, rules};

    /// A rule restricted to one generator draws only it, on the lexicon's scenarios alone;
    /// restricted to none, it draws nothing; a rule that never draws is left as it is.
    #[test]
    fn a_restricted_rule_draws_only_its_generator_or_none() {
        let profile = crate::profile::Profile::reference();
        let multi_word = rules::find("query.multi_word").unwrap();
        let digits = rules::find("query.digits").unwrap();
        assert!(multi_word.draws_from_lexicon(&profile));
        assert!(
            !rules::find("key.isolation")
                .unwrap()
                .draws_from_lexicon(&profile)
        );
        for (rule, cases) in [(multi_word, 16), (digits, 16)] {
            let stop: &'static _ = Box::leak(Box::new(rule.drawing_lexicon_from(Some("stop"))));
            let gate = Gate::reference().cases(cases).seed(3);
            assert!(gate.check(stop).is_green());
            let draws = gate.lexicon_draws();
            assert_eq!(draws.total(), u64::from(cases), "{draws}");
            assert!(
                draws
                    .by_generator()
                    .iter()
                    .all(|g| (g.generator == "stop") == (g.draws > 0)),
                "{draws}"
            );
            let none: &'static _ = Box::leak(Box::new(rule.drawing_lexicon_from(None)));
            let gate = Gate::reference().cases(cases).seed(3);
            assert!(gate.check(none).is_green());
            assert_eq!(gate.lexicon_draws().total(), 0);
        }
    }

    /// The run's shares follow the declared ones: a rule drawing from every generator draws
    /// each at least once in 256 cases at a fixed seed, and none less than a third or more
    /// than three times its declared share (a bound the seed keeps from flaking).
    #[test]
    fn the_summary_counts_each_generators_draws_as_the_shares_declare() {
        let gate = Gate::reference().cases(256).seed(0x5EED);
        assert_eq!(gate.lexicon_draws().to_string(), "");
        let verdict = gate.check(rules::find("query.multi_word").unwrap());
        assert!(verdict.is_green(), "{verdict}");
        let draws = gate.lexicon_draws();
        assert_eq!(draws.total(), 256, "{draws}");
        let shares: u32 = draws.by_generator().iter().map(|g| g.share).sum();
        for g in draws.by_generator() {
            let expected = 256.0 * f64::from(g.share) / f64::from(shares);
            #[allow(clippy::cast_precision_loss)]
            let drawn = g.draws as f64;
            assert!(
                g.draws > 0 && drawn >= expected / 3.0 && drawn <= expected * 3.0,
                "{}: {} draws, {expected:.0} expected\n{draws}",
                g.generator,
                g.draws
            );
        }
        let line = draws.to_string();
        assert!(
            line.starts_with("lexicon draws    256 queries: plain "),
            "{line}"
        );
        assert!(line.contains("inflected "), "{line}");
    }
}
