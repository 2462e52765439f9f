//! The kit's deterministic embedder, `HashedEmbedder` (`src/embed/hashed.rs`), and its ports in
//! the bridge helpers (`HashedEmbedder` in `bridges/python/memory_conformance_bridge.py` and in
//! `bridges/js/memory-conformance-bridge.mjs`) give the same vectors bit for bit, as
//! `docs/vector-search.md` promises: every value of every vector is compared bit for bit (the
//! port's number, which must hold exactly the kit's `f32`), for texts that exercise each step of the algorithm (NFC, full lowercase, words of
//! letters and numbers, trigrams of code points, the signed hashed slots, the normalisation).
//!
//! Each port runs in its own runtime (`python3`, `node`), found on the `PATH`; where one is
//! missing, its test shows as ignored with the reason (and fails instead when
//! `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` is set, as in CI).
//!
//! The texts use only characters assigned by Unicode 13.0, the version of the oldest Python the
//! helper supports (3.10): a port classifies and lowercases with its runtime's Unicode tables.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::embed::HashedEmbedder;

const REQUIRE_ALL: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

/// The dimensions each text is embedded into: one slot, odd and prime counts (the modulo of a
/// 64-bit hash), powers of two, the kit's default (256) and MiniLM's (384).
const DIMENSIONS: [usize; 8] = [1, 2, 7, 16, 64, 256, 384, 1000];

/// The texts, each with what it checks.
fn texts() -> Vec<(&'static str, String)> {
    let fixed: &[(&str, &str)] = &[
        ("empty", ""),
        ("a space", " "),
        (
            "whitespace only (ASCII, NBSP, em space, ideographic space, line separator)",
            " \t\n\r\u{0B}\u{0C}\u{A0}\u{2003}\u{3000}\u{2028}\u{85}",
        ),
        (
            "zero-width characters only",
            "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}",
        ),
        (
            "punctuation and symbols only",
            "?!.,;:—–…«»“”‘’¿¡()[]{}/\\@#%&*_-+=<>|~^`'\"§¶†•°",
        ),
        ("pinned in src/embed/hashed.rs (16 dimensions)", "Coffee?"),
        (
            "pinned in src/embed/hashed.rs (32 dimensions)",
            "My favourite café is Zürich-based; order #4417 shipped 東京!",
        ),
        ("a sentence", "My favourite coffee is a flat white."),
        ("NFC é", "caf\u{E9} au lait"),
        (
            "NFD é (e + U+0301), the same words as NFC",
            "cafe\u{301} au lait",
        ),
        ("NFD ü, å, ö", "Zu\u{308}rich A\u{30A}ngstro\u{308}m"),
        (
            "singletons NFC replaces: Angstrom, Kelvin and Ohm signs",
            "\u{212B} \u{212A} \u{2126} \u{1FEE}",
        ),
        (
            "Hangul as conjoining jamo (NFC composes them)",
            "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}",
        ),
        ("Hangul syllables", "한글 서울"),
        ("a combining mark alone", "\u{301}"),
        (
            "combining marks after NFC separate words (Devanagari, Thai)",
            "हिन्दी नमस्ते ภาษาไทย",
        ),
        ("Arabic with harakat", "مَرْحَبًا بِكُم"),
        ("ß stays ß, SS stays ss", "Straße STRASSE straße"),
        ("capital sharp s ẞ lowercases to ß", "GROẞE ẞ"),
        (
            "İ lowercases to i + U+0307 (longer), ı and I",
            "İstanbul İ IĞDIR ılık İĞNE",
        ),
        (
            "final sigma: Σ at a word's end lowercases to ς",
            "ΟΔΟΣ ΟΔΟΣ. Σ ΑΣ'Β ΑΣ\u{301} ΣΑΣ ΣΣΣ Α.Σ",
        ),
        ("Greek with NFD tonos", "Α\u{301}ΘΗΝΑ ΩΜΕΓΑ"),
        ("titlecase digraphs", "ǅemal Ǆǆǅ"),
        ("ligatures keep their letters", "ﬁnance ﬀ և ﬓ"),
        ("Cyrillic", "Москва МОСКВА ёЁ"),
        ("Deseret: four-byte case pairs", "𐐀𐐁 𐐨𐐩"),
        ("Cherokee uppercase lowercases to U+AB70…", "ᎣᏏᏲ ꭰ"),
        (
            "Georgian Mtavruli lowercases to Mkhedruli",
            "ᲒᲐᲛᲐᲠᲯᲝᲑᲐ გამარჯობა",
        ),
        ("fullwidth letters and digits", "ＡＢＣ ａｂｃ １２３"),
        (
            "CJK and kana, with CJK punctuation",
            "東京タワーに行きました。北京、上海",
        ),
        ("CJK extension B (four-byte)", "𠀋𡈽𪚲"),
        ("digits in four scripts", "4417 ٤٤١٧ ४४१७ ４４１７"),
        (
            "numbers that are not decimal digits (No, Nl; Ⅻ lowercases)",
            "² ½ ① Ⅻ ⅻ 〇 ↂ",
        ),
        (
            "numbers with punctuation",
            "3.14 1,000,000 v2.0.1 #4417 -7 +1e10 12:30",
        ),
        (
            "underscore, hyphen and dots separate",
            "flat_white flat-white e-mail node.js C++ a.b.c",
        ),
        ("enclosed letters are symbols, not letters", "Ⓐⓑ 🅰🄰"),
        ("mathematical alphanumerics", "𝐀𝐁𝐂 𝔸𝕏 𝟙𝟚"),
        ("emoji, ZWJ sequences and flags", "coffee☕ 👩‍💻 🇯🇵 🦀"),
        ("controls and NUL", "a\0b\u{7}c\u{1B}[0m"),
        ("a variation selector separates", "葛\u{E0100}飾 ❤\u{FE0F}"),
        ("private use and unassigned-looking", "\u{E000}x\u{F8FF}"),
        ("one letter", "a"),
        ("one word twice", "coffee coffee"),
    ];
    let mut texts: Vec<(&'static str, String)> = fixed
        .iter()
        .map(|(what, text)| (*what, (*text).to_owned()))
        .collect();
    texts.push((
        "a long text: many words in few slots",
        "coffee tea Kaffee 茶 ".repeat(250) + "flat white",
    ));
    texts.push((
        "every word distinct",
        (0..300).map(|n| format!("w{n} ")).collect(),
    ));
    texts
}

/// The Python port: reads `{"texts", "dimensions"}` on stdin and writes, per dimension, the
/// bits of every value (the `f64` Python holds, in hexadecimal). The helper sends whatever is printed to stderr, so the answer goes to
/// the original stdout.
const PYTHON: &str = r#"
import json, struct, sys, unicodedata
from memory_conformance_bridge import HashedEmbedder
request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
bits = lambda x: format(struct.unpack("<Q", struct.pack("<d", x))[0], "016x")
vectors = {str(d): [[bits(x) for x in HashedEmbedder(d).embed_one(t)] for t in request["texts"]]
           for d in request["dimensions"]}
runtime = f"Python {sys.version.split()[0]}, Unicode {unicodedata.unidata_version}"
sys.__stdout__.write(json.dumps({"runtime": runtime, "vectors": vectors}))
sys.__stdout__.flush()
"#;

/// The JavaScript port, the same way.
const NODE: &str = r#"
import {HashedEmbedder} from 'memory-conformance-bridge-under-test';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const bits = (x) => new BigUint64Array(new Float64Array([x]).buffer)[0].toString(16).padStart(16, '0');
const vectors = {};
for (const d of request.dimensions) vectors[d] = request.texts.map((t) => new HashedEmbedder(d).embedOne(t).map(bits));
const runtime = `Node ${process.versions.node}, Unicode ${process.versions.unicode}`;
process.stdout.write(JSON.stringify({runtime, vectors}));
"#;

fn bridges() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> Command {
    let mut command = Command::new("python3");
    command
        .env("PYTHONPATH", bridges().join("python"))
        .env("PYTHONIOENCODING", "utf-8")
        .args(["-c", PYTHON]);
    command
}

fn node() -> Command {
    let helper = bridges().join("js/memory-conformance-bridge.mjs");
    let url = format!("file://{}", helper.display());
    let script = NODE.replace("memory-conformance-bridge-under-test", &url);
    let mut command = Command::new("node");
    command.args(["--input-type=module", "-e", &script]);
    command
}

/// Whether `program` runs here (`program --version`); `Err` says why not, and what needs it.
fn available(program: &str, needed_by: &str) -> Result<(), String> {
    match Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => Ok(()),
        Err(err) => Err(format!(
            "{program} cannot be run ({err}): {needed_by} needs it on the PATH"
        )),
    }
}

/// The port's vectors, each value as the bits of its `f64` in hexadecimal, per dimension; and
/// the runtime it ran in.
fn run_port(mut command: Command, texts: &[String]) -> Result<(String, serde_json::Value), Failed> {
    let request = serde_json::json!({"texts": texts, "dimensions": DIMENSIONS});
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot start {command:?}: {err}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    stdin
        .write_all(request.to_string().as_bytes())
        .map_err(|err| format!("cannot write the texts: {err}"))?;
    drop(stdin);
    let output = child
        .wait_with_output()
        .map_err(|err| format!("the port did not finish: {err}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("the port failed ({}):\n{stderr}", output.status).into());
    }
    let mut answer: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|err| {
        format!(
            "the port's answer is not JSON ({err}): {:?}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    })?;
    let runtime = answer["runtime"].as_str().unwrap_or("unknown").to_owned();
    Ok((runtime, answer["vectors"].take()))
}

/// Every vector of the port against the kit's, bit for bit; the message lists each text and
/// dimension count where they differ, with the first slot that does.
fn compare(port: &str, command: fn() -> Command) -> Result<(), Failed> {
    let texts = texts();
    let strings: Vec<String> = texts.iter().map(|(_, text)| text.clone()).collect();
    let (runtime, vectors) = run_port(command(), &strings)?;
    let mut differences = Vec::new();
    let mut compared = 0;
    for dimensions in DIMENSIONS {
        let kit = HashedEmbedder::new(dimensions);
        let Some(theirs) = vectors[dimensions.to_string()].as_array() else {
            return Err(format!("{port} gave no vectors of {dimensions} dimensions").into());
        };
        if theirs.len() != texts.len() {
            return Err(format!(
                "{port} gave {} vectors of {dimensions} dimensions for {} texts",
                theirs.len(),
                texts.len()
            )
            .into());
        }
        for ((what, text), their) in texts.iter().zip(theirs) {
            // Each value as the bits of the `f64` that holds it: a port must hold exactly the
            // kit's `f32` (widened), so a value not rounded to `f32` differs too.
            let ours: Vec<u64> = kit
                .embed_one(text)
                .iter()
                .map(|&x| f64::from(x).to_bits())
                .collect();
            let their: Vec<Option<u64>> = their
                .as_array()
                .map(|values| {
                    values
                        .iter()
                        .map(|v| v.as_str().and_then(|hex| u64::from_str_radix(hex, 16).ok()))
                        .collect()
                })
                .unwrap_or_default();
            compared += 1;
            if their.len() != ours.len() {
                differences.push(format!(
                    "{what} {text:?}, {dimensions} dimensions: {} values, the kit's has {}",
                    their.len(),
                    ours.len()
                ));
                continue;
            }
            if let Some(slot) = (0..ours.len()).find(|&i| their[i] != Some(ours[i])) {
                let shown = |bits: Option<u64>| {
                    bits.map_or("not a value".to_owned(), |bits| {
                        format!("{:e} ({bits:#018x})", f64::from_bits(bits))
                    })
                };
                differences.push(format!(
                    "{what} {text:?}, {dimensions} dimensions: slot {slot} is {}, the kit's {}",
                    shown(their[slot]),
                    shown(Some(ours[slot])),
                ));
            }
        }
    }
    println!(
        "{port} ({runtime}): {} texts × {} dimension counts = {compared} vectors compared with the kit's, {} differ",
        texts.len(),
        DIMENSIONS.len(),
        differences.len()
    );
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{port} ({runtime}) embeds {} of {compared} vectors differently from the kit:\n  {}",
            differences.len(),
            differences.join("\n  ")
        )
        .into())
    }
}

fn trial(
    name: &'static str,
    (program, needed_by): (&str, &str),
    test: fn() -> Result<(), Failed>,
) -> Trial {
    match available(program, needed_by) {
        Ok(()) => Trial::test(name, test),
        Err(reason) => {
            let required = std::env::var_os(REQUIRE_ALL).is_some();
            Trial::ignorable_test(name, move || {
                if required {
                    Err(format!("{REQUIRE_ALL} is set, but {reason}").into())
                } else {
                    Ok(Completion::ignored_with(reason.clone()))
                }
            })
        }
    }
}

fn main() -> ExitCode {
    let trials = vec![
        trial(
            "python::the_helpers_hashed_embedder_gives_the_kits_vectors_bit_for_bit",
            ("python3", "the Python port (Python 3.10 or later)"),
            || compare("the Python helper's HashedEmbedder", python),
        ),
        trial(
            "js::the_helpers_hashed_embedder_gives_the_kits_vectors_bit_for_bit",
            ("node", "the JavaScript port (Node.js 20 or later)"),
            || compare("the JavaScript helper's HashedEmbedder", node),
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
