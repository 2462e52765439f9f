//! Embedding speed: one short sentence, and a batch of 500 chat-length sentences.
//!
//! ```text
//! bash embedders/minilm/fetch-model.sh
//! cargo bench -p memory-embedder-minilm --bench embed
//! ```
//!
//! Without the model's files it prints the fetch command and measures nothing.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use memory_embedder_minilm::{FETCH_COMMAND, MiniLm};

/// 500 chat-length sentences (8 to 30 words), varied so their token counts differ.
fn chat_sentences() -> Vec<String> {
    let openings = [
        "Can you remind me",
        "I told you last week",
        "Please remember that",
        "What did I say about",
        "By the way,",
        "Quick question:",
        "Note for later:",
        "Don't forget",
    ];
    let subjects = [
        "my favourite coffee is a flat white with oat milk",
        "the meeting with Dana moved to Thursday at 3pm",
        "order #4417 shipped on Monday but hasn't arrived yet",
        "I'm allergic to peanuts and shellfish",
        "my daughter's birthday party is on the 14th, she's turning seven",
        "we prefer the window seat when booking flights to Lisbon",
        "the wifi password at the cabin is written on the fridge",
        "I switched my phone plan to the unlimited one in March",
        "the project deadline is the end of the quarter",
        "my landlord still hasn't fixed the heating in the bedroom",
    ];
    let endings = [
        "",
        " thanks!",
        " — does that still hold?",
        " and please keep it in mind for next time.",
        " Can you add it to my notes?",
    ];
    (0..500)
        .map(|i| {
            format!(
                "{} {}{}",
                openings[i % openings.len()],
                subjects[(i / openings.len()) % subjects.len()],
                endings[i % endings.len()]
            )
        })
        .collect()
}

fn embed(c: &mut Criterion) {
    let model = match MiniLm::load(&MiniLm::default_dir()) {
        Ok(model) => model,
        Err(err) => {
            eprintln!("skipping the benchmarks: {err}\n(run {FETCH_COMMAND})");
            return;
        }
    };
    let mut group = c.benchmark_group("minilm");
    group.sample_size(20);

    let one = "My favourite coffee is a flat white.";
    group.throughput(Throughput::Elements(1));
    group.bench_function("embed_one_sentence", |b| {
        b.iter(|| model.embed(black_box(&[one])))
    });

    let sentences = chat_sentences();
    let texts: Vec<&str> = sentences.iter().map(String::as_str).collect();
    let tokens: usize = texts.iter().map(|t| model.token_ids(t).len()).sum();
    eprintln!(
        "500 chat sentences: {tokens} tokens ({:.1} a sentence)",
        tokens as f64 / 500.0
    );
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.sample_size(10);
    group.bench_function("embed_500_chat_sentences", |b| {
        b.iter(|| model.embed(black_box(&texts)))
    });
    group.finish();
}

criterion_group!(benches, embed);
criterion_main!(benches);
