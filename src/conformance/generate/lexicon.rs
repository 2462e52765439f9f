//! A small lexicon of real English words and the odd strings backends read differently, as
//! named generators ([`Words`]) drawn with the shares declared once in [`SHARES`].
//!
//! Each generator draws a *family*: forms a backend might take for one word (`run`, `runs`,
//! `running`, `ran`), a word and a longer word holding it (`cat`, `catalog`), one word in NFC
//! and NFD. [`stored_and_asked`] stores some forms of a family and asks for one of them, so
//! the query's word is often stored only in another form. Which forms match is never decided
//! here: the rules expect the oracle's answer (`judge/oracle/`), computed from the profile's
//! word rules, so a backend that stems, matches inside words, drops stop words or folds case
//! or normalisation otherwise than it declares answers differently from it.

use std::cell::RefCell;
use std::sync::{Arc, LazyLock};

use proptest::prelude::*;
use proptest::sample::{Index, select};

use super::scenario::{Expect, Scenario, Step, search};
use super::values::{WORDS, key, session_of};

/// A named generator of word families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Words {
    /// Plain base-form words every profile matches alike ([`WORDS`]): `coffee`, `tea`.
    /// Catches no deviant alone (the per-generator matrix): kept as the control, so what the
    /// other generators catch beyond it is what their forms add.
    Plain,
    /// The inflected forms of one English word, regular and irregular: `run`, `runs`,
    /// `running`, `ran`, `runner`. Catches no deviant alone: kept as the only generator of
    /// inflected forms; it catches the stemming deviant, which only [`Words::Normalisation`]
    /// catches besides.
    Inflected,
    /// A word and a longer word that holds it: `cat` and `catalog`, `art` and `party`.
    /// Catches no deviant alone: kept for words inside words; the substring deviant is caught
    /// by every generator whose families hold forms inside other forms (`run`, `runs`).
    Containing,
    /// Stop words, which a backend may drop: `the`, `is`, `of`. Catches no deviant alone:
    /// kept as the only generator whose asked word is a stop word; the others catch the
    /// stop-word deviant through the stop words around their texts and in their questions.
    Stop,
    /// Numbers and versions, and their parts: `4417`, `2.13`, `v2.13`, `042`.
    Numbers,
    /// Words joined by a hyphen or an apostrophe, and their parts: `flat-white`, `don't`.
    Joined,
    /// Letters whose case does not map one to one: `ß`, dotted and dotless `i`, the Kelvin
    /// sign, final sigma.
    Case,
    /// One word in NFC and NFD (and a compatibility sign that NFC replaces), with and without
    /// its accents: `café`, `cafe\u{301}`, `cafe`.
    Normalisation,
}

/// The share of each generator where a rule draws from all of them, declared once: the word
/// forms a backend is most often wrong about (inflections, words inside words, stop words)
/// come most often.
pub(crate) const SHARES: [(Words, u32); 8] = [
    (Words::Plain, 2),
    (Words::Inflected, 4),
    (Words::Containing, 3),
    (Words::Stop, 3),
    (Words::Numbers, 1),
    (Words::Joined, 1),
    (Words::Case, 2),
    (Words::Normalisation, 2),
];

/// Base words and their forms, one family a line: `-s`, `-es`, `-ed`, `-ing`, `-er` and the
/// irregular forms (`go went gone`), and nouns with their plurals.
const INFLECTIONS: &str = "\
run runs running ran runner
go goes going went gone
eat eats eating ate eaten eater
drink drinks drinking drank drunk drinker
buy buys buying bought buyer
make makes making made maker
take takes taking took taken
write writes writing wrote written writer
read reads reading reader
bake bakes baking baked baker
cook cooks cooking cooked cooker
brew brews brewing brewed brewer
walk walks walking walked walker
swim swims swimming swam swum swimmer
sing sings singing sang sung singer
teach teaches teaching taught teacher
watch watches watching watched watcher
fly flies flying flew flown flyer
try tries trying tried
carry carries carrying carried carrier
study studies studying studied
travel travels travelling traveled travelled traveller
play plays playing played player
pay pays paying paid
say says saying said
see sees seeing saw seen
meet meets meeting met
feel feels feeling felt
leave leaves leaving left
keep keeps keeping kept keeper
sleep sleeps sleeping slept sleeper
begin begins beginning began begun beginner
win wins winning won winner
lose loses losing lost loser
think thinks thinking thought thinker
bring brings bringing brought
book books booking booked
order orders ordering ordered
like likes liking liked
love loves loving loved lover
plan plans planning planned planner
stop stops stopping stopped
ship ships shipping shipped shipper
move moves moving moved mover
hike hikes hiking hiked hiker
ride rides riding rode ridden rider
drive drives driving drove driven driver
paint paints painting painted painter
garden gardens gardening gardened gardener
visit visits visiting visited visitor
call calls calling called caller
work works working worked worker
live lives living lived
die dies dying died
lie lies lying lay lain liar
wake wakes waking woke woken
choose chooses choosing chose chosen
forget forgets forgetting forgot forgotten
give gives giving gave given giver
fall falls falling fell fallen
grow grows growing grew grown grower
know knows knowing knew known
throw throws throwing threw thrown
catch catches catching caught catcher
fix fixes fixing fixed fixer
wash washes washing washed washer
push pushes pushing pushed pusher
miss misses missing missed
pass passes passing passed
box boxes boxing boxed boxer
dance dances dancing danced dancer
jog jogs jogging jogged jogger
shop shops shopping shopped shopper
chat chats chatting chatted
rain rains raining rained
snow snows snowing snowed
climb climbs climbing climbed climber
camp camps camping camped camper
fish fishes fishing fished fisher
bike bikes biking biked biker
learn learns learning learned learnt learner
speak speaks speaking spoke spoken speaker
tell tells telling told teller
sell sells selling sold seller
send sends sending sent sender
spend spends spending spent spender
build builds building built builder
feed feeds feeding fed feeder
hold holds holding held holder
stand stands standing stood
understand understands understanding understood
hear hears hearing heard hearer
find finds finding found finder
get gets getting got gotten
have has having had
do does doing did done doer
be is are was were been being
child children childish
person people persons
man men manly
woman women
mouse mice
foot feet
tooth teeth
goose geese
city cities
party parties
family families
baby babies babysit
story stories storied
berry berries
cherry cherries
potato potatoes
tomato tomatoes
hero heroes heroic
knife knives
leaf leaves leafy
wife wives
life lives lifelike
wolf wolves
half halves halved
shelf shelves shelved
bus buses busses
class classes classy
dish dishes dished
church churches
glass glasses glassy
match matches matching matched
cup cups cupful
bean beans
cake cakes caked
cookie cookies
meal meals
trip trips tripping tripped
flight flights
ticket tickets ticketed ticketing
hotel hotels hotelier
doctor doctors doctored
nurse nurses nursing nursed
dog dogs dogged
cat cats catty
bird birds birder birding
horse horses horsing
tree trees
flower flowers flowering flowered
song songs songbird
movie movies
game games gaming gamer
happy happier happiest happily happiness
big bigger biggest
small smaller smallest
good better best goodness
bad worse worst badly
early earlier earliest
late later latest lately
fast faster fastest
slow slower slowest slowly
warm warmer warmest warmth warmly
cold colder coldest coldly
strong stronger strongest strength
long longer longest length
quick quicker quickest quickly
easy easier easiest easily
busy busier busiest busily business
";

/// Short words and longer words that hold them, inside or at either end.
const CONTAINING: [(&str, &str); 30] = [
    ("cat", "catalog"),
    ("art", "party"),
    ("tea", "steam"),
    ("ten", "often"),
    ("use", "house"),
    ("car", "scar"),
    ("ring", "string"),
    ("pen", "open"),
    ("ant", "plant"),
    ("age", "page"),
    ("hat", "that"),
    ("low", "flower"),
    ("one", "money"),
    ("old", "gold"),
    ("win", "window"),
    ("ear", "year"),
    ("her", "other"),
    ("and", "hand"),
    ("act", "fact"),
    ("arm", "farm"),
    ("cook", "cookie"),
    ("pass", "password"),
    ("rain", "brain"),
    ("mail", "email"),
    ("port", "airport"),
    ("nap", "snap"),
    ("corn", "popcorn"),
    ("fee", "coffee"),
    ("lat", "latte"),
    ("mo", "mocha"),
];

/// Stop words, as English stop lists have them.
const STOP: [&str; 32] = [
    "the", "a", "an", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "is", "are",
    "was", "were", "be", "it", "this", "that", "i", "you", "we", "they", "my", "your", "not", "no",
    "as", "by", "from",
];

/// Numbers and versions, each with strings a backend might take for it or part of it.
const NUMBERS: [&[&str]; 8] = [
    &["4417", "441", "44170", "#4417"],
    &["2.13", "2", "13", "2.1", "213"],
    &["v2.13", "v2", "2.13", "v"],
    &["1,000", "1000", "000", "1"],
    &["042", "42", "+42", "0"],
    &["3.14", "3", "14", "3,14"],
    &["10:30", "10", "30", "1030"],
    &["2026-01-01", "2026", "01", "20260101"],
];

/// Words joined by a hyphen or an apostrophe (ASCII and typographic), with their parts.
const JOINED: [&[&str]; 8] = [
    &["flat-white", "flat", "white", "flatwhite"],
    &["don't", "don", "t", "dont", "don\u{2019}t"],
    &["e-mail", "email", "mail", "e"],
    &["o'clock", "clock", "oclock", "o\u{2019}clock"],
    &["user's", "user", "users", "s"],
    &["well-known", "well", "known", "wellknown"],
    &["rock'n'roll", "rock", "roll", "n"],
    &["x-ray", "xray", "ray", "x"],
];

/// Letters whose case does not map one to one, each with what a backend might fold it to.
/// The dotted capital `İ` and the capital sigma lowercase as the profile's case mapping says
/// (`İ` to `i` and U+0307 under the full mapping, to `i` under the simple one).
const CASE: [&[&str]; 8] = [
    &["straße", "STRASSE", "Straße", "strasse", "STRA\u{1E9E}E"],
    &[
        "İstanbul",
        "istanbul",
        "ISTANBUL",
        "ıstanbul",
        "i\u{307}stanbul",
    ],
    &["\u{212A}elvin", "kelvin", "KELVIN", "Kelvin"],
    &["ΟΔΟΣ", "οδος", "οδοσ", "Οδος"],
    &["ΣΟΦΙΑΣ", "σοφιας", "σοφιασ", "Σοφιας"],
    &["DİYARBAKIR", "diyarbakir", "diyarbakır", "Diyarbakır"],
    &["ﬁle", "file", "FILE"],
    &["Ǆemal", "ǆemal", "ǅemal", "dzemal"],
];

/// One word in NFC and NFD (and a compatibility sign NFC replaces, `Å` U+212B), the word
/// without its accents, and the pieces a rule of ASCII letters cuts the composed and the
/// decomposed forms into (`caf` of `café`, `cafe` of `cafe\u{301}`).
const NORMALISATION: [&[&str]; 6] = [
    &["café", "cafe\u{301}", "cafe", "caf"],
    &["résumé", "re\u{301}sume\u{301}", "resume", "sum", "sume"],
    &[
        "Ångström",
        "A\u{30A}ngstro\u{308}m",
        "\u{212B}ngstr\u{F6}m",
        "angstrom",
        "a",
        "ngstro",
    ],
    &["naïve", "nai\u{308}ve", "naive", "na", "nai"],
    &["señor", "sen\u{303}or", "senor", "se", "sen"],
    &[
        "Việt",
        "Vie\u{323}\u{302}t",
        "Vi\u{1EB9}\u{302}t",
        "viet",
        "vie",
        "vi",
    ],
];

/// Questions as people ask them, around the word asked for: stop words and other words that
/// may be stored too.
const QUESTIONS: [&str; 6] = [
    "{}",
    "what about the {}",
    "did I {} it",
    "where is my {}",
    "how many {} were there",
    "{} or not",
];

/// The families of [`INFLECTIONS`], read once.
static INFLECTED: LazyLock<Vec<Vec<&'static str>>> = LazyLock::new(|| {
    INFLECTIONS
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|family| family.len() > 1)
        .collect()
});

impl Words {
    /// Every family of forms this generator draws from.
    pub(crate) fn families(self) -> Vec<Vec<&'static str>> {
        let table = |rows: &[&[&'static str]]| rows.iter().map(|r| r.to_vec()).collect();
        match self {
            Words::Plain => WORDS.chunks(2).map(<[&str]>::to_vec).collect(),
            Words::Inflected => INFLECTED.clone(),
            Words::Containing => CONTAINING.iter().map(|(a, b)| vec![*a, *b]).collect(),
            Words::Stop => STOP.chunks(2).map(<[&str]>::to_vec).collect(),
            Words::Numbers => table(&NUMBERS),
            Words::Joined => table(&JOINED),
            Words::Case => table(&CASE),
            Words::Normalisation => table(&NORMALISATION),
        }
    }

    /// The generator's name, as the gate's summary and the per-generator matrix print it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Words::Plain => "plain",
            Words::Inflected => "inflected",
            Words::Containing => "containing",
            Words::Stop => "stop",
            Words::Numbers => "numbers",
            Words::Joined => "joined",
            Words::Case => "case",
            Words::Normalisation => "normalisation",
        }
    }

    /// The generator named `name` ([`Words::name`]).
    pub(crate) fn named(name: &str) -> Option<Words> {
        SHARES.iter().map(|(w, _)| *w).find(|w| w.name() == name)
    }

    /// One family of this generator.
    pub(crate) fn family(self) -> impl Strategy<Value = Vec<&'static str>> {
        select(self.families())
    }
}

/// Which generators a rule's lexicon draws take: the rule's own (its generator, or every one
/// with its share of [`SHARES`]), one generator for every draw, or no draw at all (the rule's
/// other scenarios alone). Only the kit's tests restrict them, to measure what each generator
/// catches (`Rule::drawing_lexicon_from`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Draws {
    /// The rule's own generators.
    #[default]
    Declared,
    /// This generator for every draw, and the lexicon's scenarios alone: the rule's other
    /// scenarios are left out.
    Only(Words),
    /// No lexicon draw: the lexicon's steps are left out.
    Nothing,
}

/// Called with the generator of each lexicon query a rule's cases run.
pub(crate) type Tally = Arc<dyn Fn(Words) + Send + Sync>;

/// What the lexicon's strategies read while a rule's scenarios are built.
#[derive(Clone, Default)]
struct Building {
    draws: Draws,
    tally: Option<Tally>,
    /// Whether a lexicon strategy was built.
    drawn: bool,
    /// Under [`Draws::Only`], the lexicon's scenarios alone, one for each built.
    alone: Vec<BoxedStrategy<Scenario>>,
}

thread_local! {
    static BUILDING: RefCell<Building> = RefCell::default();
}

/// Builds a rule's scenarios with `build` on this thread, its lexicon draws taking `draws`
/// and each lexicon query its cases run counted by `tally`; also whether it draws from the
/// lexicon at all. Under [`Draws::Only`], the scenarios are the lexicon's alone, where the
/// rule draws from it. The strategies read both once, as they are built, so the cases they
/// generate later cost one call of `tally` each.
pub(crate) fn building(
    draws: Draws,
    tally: Option<Tally>,
    build: impl FnOnce() -> BoxedStrategy<Scenario>,
) -> (BoxedStrategy<Scenario>, bool) {
    let before = BUILDING.replace(Building {
        draws,
        tally,
        drawn: false,
        alone: Vec::new(),
    });
    let built = build();
    let building = BUILDING.replace(before);
    if building.alone.is_empty() {
        (built, building.drawn)
    } else {
        (proptest::strategy::Union::new(building.alone).boxed(), true)
    }
}

/// The sizes of a long text, in bytes: from over 8 KiB (a `VARCHAR(8192)` column, an index
/// field's limit) to over 64 KiB (a `TEXT` column, a 65,535-byte field).
pub(crate) const LONG_TEXT_BYTES: std::ops::RangeInclusive<usize> = 20_000..=70_000;

/// The share of cases in which a rule that draws long texts draws one: one in 50, so a
/// default gate stores a few and stays fast.
pub(crate) const LONG_TEXT_SHARE: f64 = 1.0 / 50.0;

/// A long text of real words (the forms of [`INFLECTIONS`], from the `start`th on, each once
/// before any repeats), at least `bytes` bytes, holding none of `absent`, then `tail`. The
/// words that matter to a search go in `tail`, at the end, where a backend that stores or
/// indexes only the first few kilobytes of a text never sees them.
pub(crate) fn long_text(bytes: usize, start: Index, absent: &[&str], tail: &str) -> String {
    let forms: Vec<&str> = INFLECTED
        .iter()
        .flatten()
        .copied()
        .filter(|form| !absent.contains(form))
        .collect();
    let mut text = String::with_capacity(bytes + tail.len() + 16);
    let first = start.index(forms.len());
    for form in forms.iter().cycle().skip(first) {
        if text.len() >= bytes {
            break;
        }
        text.push_str(form);
        text.push(' ');
    }
    text.push_str(tail);
    text
}

/// Now and then (a [`LONG_TEXT_SHARE`] of cases) a long text's size and first word, else
/// `None`; shrinks towards `None`, then towards the shortest long text.
pub(crate) fn maybe_long() -> impl Strategy<Value = Option<(usize, Index)>> {
    let long = (LONG_TEXT_BYTES, any::<Index>()).prop_map(Some);
    let share = (1.0 / LONG_TEXT_SHARE).round() as u32;
    proptest::strategy::Union::new_weighted(vec![
        (share - 1, Just(None).boxed()),
        (1, long.boxed()),
    ])
}

/// A generator drawn with its share of [`SHARES`].
pub(crate) fn any_words() -> impl Strategy<Value = Words> {
    let weighted: Vec<_> = SHARES
        .iter()
        .map(|(words, share)| (*share, Just(*words)))
        .collect();
    proptest::strategy::Union::new_weighted(weighted)
}

/// Texts to store and a query, drawn from one family of `words`: 1 to 3 texts, each holding
/// forms of the family (some beside a plain word or a stop word), and a query for one form of
/// the family, alone or in a question; in two cases of three a form no text holds, where there
/// is one. So the query's word is mostly stored only in other forms, and what matches is what
/// the profile's word rules say of each form.
pub(crate) fn stored_and_asked(
    words: impl Strategy<Value = Words>,
) -> impl Strategy<Value = (Words, Vec<String>, String)> {
    words.prop_flat_map(|words| {
        words.family().prop_flat_map(move |family| {
            let form = select(family.clone());
            let filler = select([&WORDS[..4], &STOP[..6], &[""][..]].concat());
            let text = (proptest::collection::vec(form.clone(), 1..3), filler);
            (
                proptest::collection::vec(text, 1..4),
                form,
                proptest::bool::weighted(2.0 / 3.0),
                any::<Index>(),
                select(QUESTIONS.to_vec()),
            )
                .prop_map(move |(texts, form, elsewhere, pick, question)| {
                    let stored: Vec<&str> = texts.iter().flat_map(|(f, _)| f.clone()).collect();
                    let unstored: Vec<&str> = family
                        .iter()
                        .filter(|f| !stored.contains(f))
                        .copied()
                        .collect();
                    let form = if elsewhere && !unstored.is_empty() {
                        unstored[pick.index(unstored.len())]
                    } else {
                        form
                    };
                    let texts = texts
                        .into_iter()
                        .map(|(forms, filler)| {
                            let forms = forms.join(" ");
                            if filler.is_empty() {
                                forms
                            } else {
                                format!("{filler} {forms}")
                            }
                        })
                        .collect();
                    (words, texts, question.replace("{}", form))
                })
        })
    })
}

/// A scenario of one session of the texts [`stored_and_asked`] draws from `words`, then a
/// search of its query, whose answer is the oracle's.
pub(crate) fn lexicon_scenario(
    words: impl Strategy<Value = Words> + 'static,
) -> BoxedStrategy<Scenario> {
    followed_by_lexicon(Just(Scenario::default()).boxed(), "s-1", words)
}

/// The steps of `before`, then those of [`lexicon_scenario`] in a session `session_id` of
/// their own, so that a rule keeps every case of its own scenarios and asks a lexicon query in
/// each.
pub(crate) fn followed_by_lexicon(
    before: BoxedStrategy<Scenario>,
    session_id: &'static str,
    words: impl Strategy<Value = Words> + 'static,
) -> BoxedStrategy<Scenario> {
    BUILDING.with_borrow_mut(|building| {
        building.drawn = true;
        let tally = building.tally.clone();
        match building.draws {
            Draws::Declared => lexicon_steps(before, session_id, words.boxed(), tally),
            Draws::Only(only) => {
                let alone = Just(Scenario::default()).boxed();
                let alone = lexicon_steps(alone, session_id, Just(only).boxed(), tally.clone());
                building.alone.push(alone);
                lexicon_steps(before, session_id, Just(only).boxed(), tally)
            }
            Draws::Nothing => before,
        }
    })
}

/// [`followed_by_lexicon`] with `words` as they are, each query counted by `tally`.
fn lexicon_steps(
    before: BoxedStrategy<Scenario>,
    session_id: &'static str,
    words: BoxedStrategy<Words>,
    tally: Option<Tally>,
) -> BoxedStrategy<Scenario> {
    (before, key(), stored_and_asked(words))
        .prop_map(move |(mut scenario, key, (words, texts, query))| {
            if let Some(tally) = &tally {
                tally(words);
            }
            scenario.steps.extend([
                Step::Add(session_of(&key, session_id, &texts)),
                search(&key, query, vec![Expect::Oracle]),
            ]);
            scenario
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::words::{IndexedEvent, query_terms};
    use crate::profile::{CaseMapping, Profile, QueryTerms, WordRule};
    use crate::{Content, profile::Separators};

    /// Whether `profile`'s oracle finds `stored` by `query`.
    fn finds(profile: &Profile, stored: &str, query: &str) -> bool {
        let event = IndexedEvent::new(profile, &Content::text(stored));
        query_terms(profile, query).iter().any(|t| event.matches(t))
    }

    /// A long text is real words past the size asked for, none of the words to keep out, and
    /// ends with its tail, which lies beyond the first 64 KiB where the size asks for it.
    #[test]
    fn a_long_text_holds_its_tail_at_its_end_and_not_before() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for bytes in [*LONG_TEXT_BYTES.start(), *LONG_TEXT_BYTES.end()] {
            let start = any::<Index>()
                .new_tree(&mut runner)
                .expect("an index")
                .current();
            let text = long_text(bytes, start, &["ran", "run"], "coffee 0");
            assert!(
                text.len() >= bytes && text.len() < bytes + 40,
                "{}",
                text.len()
            );
            assert!(text.ends_with(" coffee 0"));
            let words: Vec<&str> = text.split(' ').collect();
            assert!(!words.contains(&"ran") && !words.contains(&"run"));
            assert_eq!(text.matches("coffee").count(), 1);
        }
        assert!(*LONG_TEXT_BYTES.end() > 65_535 && *LONG_TEXT_BYTES.start() > 8_192);
    }

    #[test]
    fn every_generator_has_a_share_and_families_of_distinct_forms() {
        for (words, share) in SHARES {
            assert!(share > 0, "{words:?}");
            let families = words.families();
            assert!(!families.is_empty(), "{words:?}");
            for family in families {
                let mut distinct = family.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(distinct.len(), family.len(), "{words:?}: {family:?}");
            }
        }
        assert!(Words::Inflected.families().len() >= 150);
        for (short, long) in CONTAINING {
            assert!(long.contains(short) && long != short, "{short} {long}");
        }
    }

    /// The forms are told apart by the oracle as each profile's word rules say, never by the
    /// lexicon: under the reference only equal words match, so another form, a longer word or
    /// the other normalisation form is not found; under substrings a word inside a longer one
    /// is; under Unicode words NFC and NFD are one word and final sigma is folded by position;
    /// under the simple case mapping a capital sigma is `σ` everywhere and `İ` a plain `i`.
    #[test]
    fn the_oracle_tells_the_forms_apart_as_the_profile_says() {
        let reference = Profile::reference();
        assert!(finds(&reference, "I ran", "ran"));
        assert!(!finds(&reference, "I ran", "running"));
        assert!(!finds(&reference, "the catalog", "cat"));
        assert!(finds(&reference, "the catalog", "the"));
        assert!(finds(&reference, "cafe\u{301}", "cafe"));
        assert!(!finds(&reference, "café", "cafe"));
        // The Kelvin sign is no ASCII letter in stored text, and lowercases to `k` in a query.
        assert!(!finds(&reference, "\u{212A}elvin", "kelvin"));
        assert!(finds(&reference, "Kelvin", "\u{212A}ELVIN"));
        let mut substrings = Profile::reference();
        substrings.query_terms = QueryTerms::Substrings {
            separators: Separators::AsciiWhitespace,
        };
        assert!(finds(&substrings, "the catalog", "cat"));
        let mut unicode = Profile::reference();
        unicode.event_words = WordRule::UnicodeWords { script_runs: false };
        unicode.query_terms = QueryTerms::Words {
            non_ascii_substring: false,
        };
        assert!(finds(&unicode, "cafe\u{301}", "café"));
        assert!(finds(&unicode, "\u{212B}ngstr\u{F6}m", "ångström"));
        assert!(finds(&unicode, "ΟΔΟΣ", "οδος"));
        assert!(!finds(&unicode, "ΟΔΟΣ", "οδοσ"));
        assert!(!finds(&unicode, "straße", "STRASSE"));
        assert!(!finds(&unicode, "İstanbul", "istanbul"));
        assert!(finds(&unicode, "İstanbul", "İSTANBUL"));
        let mut simple = unicode.clone();
        simple.case_mapping = CaseMapping::Simple;
        assert!(!finds(&simple, "ΟΔΟΣ", "οδος"));
        assert!(finds(&simple, "ΟΔΟΣ", "οδοσ"));
        assert!(finds(&simple, "ΣΟΦΙΑΣ", "ΣΟΦΙΑΣ"));
        assert!(finds(&simple, "İstanbul", "istanbul"));
        assert!(finds(&simple, "ISTANBUL", "İstanbul"));
        assert!(finds(&simple, "DİYARBAKIR", "diyarbakir"));
        assert!(!finds(&simple, "DİYARBAKIR", "diyarbakır"));
        // ADK Go's tokens: split on the space alone, lowercased rune by rune.
        let go = Profile::adk_go();
        assert!(finds(&go, "ΟΔΟΣ", "οδοσ"));
        assert!(!finds(&go, "ΟΔΟΣ", "οδος"));
        assert!(finds(&go, "İstanbul", "ISTANBUL"));
        assert!(finds(&go, "İstanbul", "İSTANBUL"));
        // FTS5 folds a final sigma and drops the dot of `İ` under either mapping; a query is cut
        // into script runs before it is lowercased (ADK Python's `_extract_tokens`).
        let sqlite = Profile::adk_python_sqlite();
        for mapping in [CaseMapping::Full, CaseMapping::Simple] {
            let mut sqlite = sqlite.clone();
            sqlite.case_mapping = mapping;
            assert!(finds(&sqlite, "ΟΔΟΣ", "οδοσ"));
            assert!(finds(&sqlite, "İstanbul", "istanbul"));
            assert!(finds(&sqlite, "istanbul", "İstanbul"));
            assert!(finds(&sqlite, "ISTANBUL", "DİYARBAKIR İSTANBUL"));
            assert!(!finds(&sqlite, "diyarbakir", "diyarbakır"));
        }
    }

    #[test]
    fn a_drawn_query_is_often_stored_only_in_another_form() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;

        let strategy = stored_and_asked(Just(Words::Inflected));
        let mut runner = TestRunner::deterministic();
        let mut elsewhere = 0;
        for _ in 0..100 {
            let (_, texts, query) = strategy.new_tree(&mut runner).unwrap().current();
            let frame = |w: &str| {
                QUESTIONS
                    .iter()
                    .any(|q| q.split(' ').any(|x| x.eq_ignore_ascii_case(w)))
            };
            let form = query
                .split(' ')
                .find(|w| !frame(w))
                .unwrap_or_default()
                .to_owned();
            if !texts.iter().any(|t| t.split(' ').any(|w| w == form)) {
                elsewhere += 1;
            }
        }
        assert!(elsewhere >= 50, "{elsewhere} of 100");
    }
}
