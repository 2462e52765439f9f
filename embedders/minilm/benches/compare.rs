//! The kit's side of `compare.sh`: embeds a list of texts with [`MiniLm`] in batches of a given
//! size on a given number of threads, and prints one JSON line with the throughput and the
//! process's peak resident set size; the vectors go to a file for the cosine check.
//!
//! ```text
//! bash embedders/minilm/benches/compare.sh      # runs this and the Python engines, one table
//! ```
//!
//! Run alone (what compare.sh does):
//!
//! ```text
//! cargo bench -p memory-embedder-minilm --bench compare -- \
//!     --texts texts.json --batch 32 --threads 1 --passes 3 --vectors kit.f32
//! ```
//!
//! `texts.json` is a JSON array of strings; the vectors are written as little-endian f32, one
//! 384-value row per text, in order. Every pass embeds every text, one `embed` call per batch;
//! the first batch is embedded once before the passes (warm-up, not timed); the figure is the
//! median pass. The model's load is not timed.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;

use memory_embedder_minilm::{FETCH_COMMAND, MiniLm};

struct Args {
    texts: PathBuf,
    batch: usize,
    threads: NonZeroUsize,
    passes: usize,
    vectors: Option<PathBuf>,
}

const USAGE: &str =
    "usage: compare --texts FILE.json --batch N --threads N [--passes N] [--vectors FILE]";

fn parse_args() -> Result<Args, String> {
    let mut texts = None;
    let mut batch = None;
    let mut threads = None;
    let mut passes = 3;
    let mut vectors = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--bench" {
            continue; // cargo bench passes it
        }
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))
        };
        let mut number = |what: &str| -> Result<usize, String> {
            let v = value()?;
            v.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{what} must be a positive integer, got {v:?}; {USAGE}"))
        };
        match flag.as_str() {
            "--texts" => texts = Some(PathBuf::from(value()?)),
            "--batch" => batch = Some(number("--batch")?),
            "--threads" => {
                threads = NonZeroUsize::new(number("--threads")?);
            }
            "--passes" => passes = number("--passes")?,
            "--vectors" => vectors = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument {other:?}; {USAGE}")),
        }
    }
    Ok(Args {
        texts: texts.ok_or_else(|| format!("--texts is required; {USAGE}"))?,
        batch: batch.ok_or_else(|| format!("--batch is required; {USAGE}"))?,
        threads: threads.ok_or_else(|| format!("--threads is required; {USAGE}"))?,
        passes,
        vectors,
    })
}

/// `VmHWM` of /proc/self/status in KiB: the process's peak resident set size.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let texts: Vec<String> = serde_json::from_slice(
        &std::fs::read(&args.texts)
            .map_err(|e| format!("cannot read {}: {e}", args.texts.display()))?,
    )
    .map_err(|e| {
        format!(
            "{} is not a JSON array of strings: {e}",
            args.texts.display()
        )
    })?;
    if texts.is_empty() {
        return Err(format!("{} holds no text", args.texts.display()));
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let model = MiniLm::load(&MiniLm::default_dir())
        .map_err(|e| format!("{e} (run {FETCH_COMMAND})"))?
        .with_threads(args.threads);

    let batches: Vec<&[&str]> = texts.chunks(args.batch).collect();
    std::hint::black_box(model.embed(batches[0]));
    let mut seconds = Vec::with_capacity(args.passes);
    let mut vectors = Vec::new();
    for _ in 0..args.passes {
        vectors.clear();
        let start = Instant::now();
        for batch in &batches {
            vectors.extend(model.embed(batch));
        }
        seconds.push(start.elapsed().as_secs_f64());
    }
    seconds.sort_by(f64::total_cmp);
    let median = seconds[seconds.len() / 2];

    if let Some(path) = &args.vectors {
        let bytes: Vec<u8> = vectors
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let passes: Vec<String> = seconds.iter().map(|s| format!("{s:.4}")).collect();
    println!(
        "{{\"engine\": \"kit\", \"batch\": {}, \"threads\": {}, \"texts\": {}, \"seconds\": {median:.4}, \"passes\": [{}], \"peak_rss_kib\": {}}}",
        args.batch,
        args.threads,
        texts.len(),
        passes.join(", "),
        peak_rss_kib().map_or("null".into(), |k| k.to_string())
    );
    Ok(())
}

fn main() {
    if let Err(err) = run() {
        eprintln!("compare: {err}");
        std::process::exit(2);
    }
}
