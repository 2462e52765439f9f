//! ADK Java's `InMemoryMemoryService` (`com.google.adk:google-adk` 1.8.0), through the Java
//! program of `adk-java/` (`memoryconformance.adkjava.Bridge`).

use std::process::Command;

use memory_conformance::conformance::Gate;
use memory_conformance::profile::Profile;
use tokio::sync::OnceCell;

use crate::launch::{Bridged, bridges_dir, install, on_path};

static ADK_JAVA: Bridged = Bridged {
    name: "adk-java",
    version: "google-adk 1.8.0",
    registry: "Maven Central",
    service: "InMemoryMemoryService",
    installed,
    command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// Why a search of google-adk 1.8.0 fails once a tool call or inline data is stored.
const TEXT_GET_THROWS: &str = "google-adk 1.8.0 InMemoryMemoryService.searchMemory calls \
     part.text().get() on every part, so a stored part without text makes every later search of \
     that user throw NoSuchElementException (adk-java issue 1464)";

/// Why an entry's timestamp is not the event's instant in google-adk 1.8.0.
const SECONDS_FROM_MILLIS: &str = "google-adk 1.8.0 InMemoryMemoryService formats the entry \
     timestamp with Instant.ofEpochSecond on the event's epoch milliseconds, a date about 1000 \
     times too far from 1970 (adk-java PR 1468)";

/// The rules a stored part without text breaks in google-adk 1.8.0, because the search that
/// follows throws ([`TEXT_GET_THROWS`]). With such parts left out of the sessions (the package
/// fixed), every one of them holds against [`Profile::adk_java`].
const BROKEN_BY_TEXT_GET: [&str; 5] = [
    "index.text_only",
    "index.empty_events",
    "replace.readd_with_nothing",
    "replace.readd_as_declared",
    "model.random_ops",
];

/// The gate of ADK Java's in-memory memory service: every rule against [`Profile::adk_java`],
/// whose slash-joined key implies a known violation, and two defects of google-adk 1.8.0
/// declared as known violations: a stored part without text makes every later search of that
/// user throw, which breaks the five rules that store one ([`BROKEN_BY_TEXT_GET`]), and entry
/// timestamps are the event's milliseconds read as seconds (`result.fidelity`); both are
/// reproduced without the bridge, in the package's own API, by `adk-java/src/test/` (run by
/// `tests/worked_example_adk_java.rs`). One JVM serves
/// every case. Every test is ignored, with the install command as the reason, where
/// `bash bridges/install.sh` has not been run or `java` is missing.
pub fn adk_java_gate() -> Gate {
    BROKEN_BY_TEXT_GET
        .into_iter()
        .fold(ADK_JAVA.gate(Profile::adk_java()), |gate, rule| {
            gate.known_violation(rule, TEXT_GET_THROWS)
        })
        .known_violation("result.fidelity", SECONDS_FROM_MILLIS)
}

/// The Java launcher's argument file `bash bridges/install.sh` writes: the class path of the
/// bridge's classes and of what Maven resolved for them.
const ARGS_FILE: &str = "target/bridge.args";

fn installed() -> Result<(), String> {
    if !on_path("java") {
        return Err(format!(
            "java is not on the PATH: install Java 17 or later with Maven, then run `{}`",
            install()
        ));
    }
    let dir = bridges_dir().join("adk-java");
    if dir.join("target/installed-pins").is_file() && dir.join(ARGS_FILE).is_file() {
        Ok(())
    } else {
        Err(format!(
            "ADK Java (google-adk 1.8.0) is not built in bridges/adk-java/target: run `{}` \
             (needs Java 17 with Maven, and Maven Central)",
            install()
        ))
    }
}

fn command() -> Command {
    let mut command = Command::new("java");
    command
        // A short-lived JVM on a shared machine: the quickest compiler and the smallest
        // collector, and no more heap than the cases need.
        .args(["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m"])
        .arg(format!("@{ARGS_FILE}"))
        .arg("memoryconformance.adkjava.Bridge")
        .env("TZ", "UTC")
        .current_dir(bridges_dir().join("adk-java"));
    command
}
