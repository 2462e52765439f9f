//! `strings = without NUL` and `strings = without NUL or empty key`: a backend whose store
//! cannot hold U+0000 (or that refuses an empty app name or user id) states it, and the gate then
//! takes an error on a call carrying one as the end of the case, and nothing else.

use memory_conformance::conformance::ProfileFile;
use memory_conformance::conformance::{Gate, Subject, Verdict, rules};
use memory_conformance::profile::{Profile, Strings};
use memory_conformance::{
    InMemoryMemoryService, MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait,
};

/// The reference, except that a call carrying U+0000 in a key, a session id or a text fails
/// (or, with `panics`, panics), as a PostgreSQL store does; with `empty_keys_refused`, so does a
/// call under an empty app name or user id, as a service validating its caller does.
struct NoNul {
    inner: InMemoryMemoryService,
    panics: bool,
    empty_keys_refused: bool,
}

impl NoNul {
    fn refuse_key(&self, app_name: &str, user_id: &str) -> Result<(), MemoryError> {
        if self.empty_keys_refused && (app_name.is_empty() || user_id.is_empty()) {
            return Err(MemoryError::backend(
                "ValueError: user_id must be a non-empty string",
            ));
        }
        Ok(())
    }

    fn refuse(&self, what: &str) -> Result<(), MemoryError> {
        if !what.contains('\0') {
            return Ok(());
        }
        if self.panics {
            panic!("cannot hold U+0000");
        }
        Err(MemoryError::backend(
            "invalid byte sequence for encoding \"UTF8\": 0x00",
        ))
    }
}

#[async_trait]
impl MemoryService for NoNul {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.refuse_key(&session.app_name, &session.user_id)?;
        self.refuse(
            &serde_json::to_string(session)
                .unwrap()
                .replace("\\u0000", "\0"),
        )?;
        self.inner.add_session_to_memory(session).await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.refuse_key(app_name, user_id)?;
        self.refuse(&format!("{app_name}{user_id}{query}"))?;
        self.inner.search_memory(app_name, user_id, query).await
    }
}

fn two_calls_only(strings: Strings) -> Profile {
    let mut profile = Profile::reference().named("no-nul");
    profile.capabilities = Default::default();
    profile.strings = strings;
    profile
}

fn verdict(strings: Strings, panics: bool, rule: &str) -> Verdict {
    verdict_of(strings, panics, false, rule)
}

fn verdict_of(strings: Strings, panics: bool, empty_keys_refused: bool, rule: &str) -> Verdict {
    let subject = Subject::new("no-nul", two_calls_only(strings), move || async move {
        NoNul {
            inner: InMemoryMemoryService::new(),
            panics,
            empty_keys_refused,
        }
    });
    Gate::new(subject)
        .cases(96)
        .seed(2026)
        .check(rules::find(rule).unwrap())
}

#[test]
fn a_store_without_nul_fails_the_contract_and_passes_its_declaration() {
    for rule in ["key.isolation", "key.no_separator_collision"] {
        let contract = verdict(Strings::Any, false, rule);
        assert!(
            matches!(&contract, Verdict::Failed(failure) if failure.to_string().contains("0x00")),
            "{rule} under strings = any: {contract}"
        );
        let declared = verdict(Strings::WithoutNul, false, rule);
        assert!(
            matches!(declared, Verdict::Passed { .. }),
            "{rule} under strings = without NUL: {declared}"
        );
    }
}

#[test]
fn a_store_refusing_empty_keys_fails_without_nul_and_passes_its_declaration() {
    for rule in ["key.isolation", "key.no_separator_collision"] {
        let without_nul = verdict_of(Strings::WithoutNul, false, true, rule);
        assert!(
            matches!(&without_nul, Verdict::Failed(failure) if failure.to_string().contains("user_id must be a non-empty string")),
            "{rule} under strings = without NUL: {without_nul}"
        );
        let declared = verdict_of(Strings::WithoutNulOrEmptyKey, false, true, rule);
        assert!(
            matches!(declared, Verdict::Passed { .. }),
            "{rule} under strings = without NUL or empty key: {declared}"
        );
    }
    // The declaration takes an error as the end of a case, never a wrong answer.
    let subject = Subject::new(
        "shield",
        two_calls_only(Strings::WithoutNulOrEmptyKey),
        || async {
            NoNul {
                inner: InMemoryMemoryService::new(),
                panics: false,
                empty_keys_refused: true,
            }
        },
    );
    let wrong_key = Gate::new(subject).cases(96).seed(2026);
    assert!(
        matches!(
            wrong_key.check(rules::find("query.unknown_key").unwrap()),
            Verdict::Passed { .. }
        ),
        "a refusing store still answers every other call as the contract says"
    );
}

#[test]
fn a_panic_on_nul_fails_even_when_declared() {
    let declared = verdict(Strings::WithoutNul, true, "key.isolation");
    assert!(
        matches!(&declared, Verdict::Failed(failure) if failure.to_string().contains("cannot hold U+0000")),
        "{declared}"
    );
}

#[test]
fn a_store_that_holds_nul_passes_either_declaration() {
    let subject = Subject::new("reference", two_calls_only(Strings::WithoutNul), || async {
        InMemoryMemoryService::new()
    });
    let verdict = Gate::new(subject)
        .cases(64)
        .seed(7)
        .check(rules::find("key.isolation").unwrap());
    assert!(matches!(verdict, Verdict::Passed { .. }), "{verdict}");
}

#[test]
fn the_declaration_is_a_profile_file_key_and_a_stated_departure() {
    let file = ProfileFile::parse(
        "format = 1\nextends = \"reference\"\nname = \"pg\"\nstrings = \"without-nul\"\n",
    )
    .unwrap();
    assert_eq!(file.profile.strings, Strings::WithoutNul);
    assert!(file.to_toml().contains("strings = \"without-nul\""));
    assert_eq!(ProfileFile::parse(&file.to_toml()).unwrap(), file);
    assert!(
        !ProfileFile::of(Profile::reference())
            .to_toml()
            .contains("strings")
    );
    let departures = memory_conformance::conformance::departures(&file.profile);
    assert!(
        departures
            .iter()
            .any(|(clause, _)| *clause == "R7.any-string"),
        "{departures:?}"
    );
    let refusing = ProfileFile::parse(
        "format = 1\nextends = \"reference\"\nname = \"shield\"\nstrings = \"without-nul-or-empty-key\"\n",
    )
    .unwrap();
    assert_eq!(refusing.profile.strings, Strings::WithoutNulOrEmptyKey);
    assert_eq!(ProfileFile::parse(&refusing.to_toml()).unwrap(), refusing);
    let departures = memory_conformance::conformance::departures(&refusing.profile);
    assert!(
        departures
            .iter()
            .any(|(clause, why)| *clause == "R7.any-string" && why.contains("empty app name")),
        "{departures:?}"
    );
    let bad = ProfileFile::parse("format = 1\nextends = \"reference\"\nstrings = \"no-nul\"\n")
        .unwrap_err()
        .to_string();
    assert!(bad.contains("without-nul"), "{bad}");
}
