//! BERT's WordPiece tokenizer, as `tokenizer.json` describes it for all-MiniLM-L6-v2 and as
//! Hugging Face's `tokenizers` runs it (the library sentence-transformers calls):
//!
//! 1. added tokens (`[CLS]`, `[SEP]`, `[MASK]`, ...; not normalised) are matched in the raw text
//!    first and become their own ids;
//! 2. the rest is normalised (BertNormalizer): control characters, NUL and U+FFFD removed and
//!    every whitespace character made a space; spaces put around CJK ideographs; NFD and
//!    non-spacing marks removed (accents stripped); each character lowercased;
//! 3. split into words (BertPreTokenizer) on whitespace, every punctuation character a word of
//!    its own;
//! 4. each word into word pieces (WordPiece), greedy longest match first, a continuation
//!    starting with `##`; a word with a part no piece matches, or of more than 100 characters,
//!    is one `[UNK]`;
//! 5. `[CLS]` pieces `[SEP]`, the pieces cut so the whole fits the model's sequence length.

use std::collections::HashMap;

use serde_json::Value;
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// The tokenizer read from `tokenizer.json`.
#[derive(Debug)]
pub(crate) struct Tokenizer {
    vocab: HashMap<String, u32>,
    unk: u32,
    cls: u32,
    sep: u32,
    prefix: String,
    max_chars_per_word: usize,
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
    /// Added tokens matched in the raw text, longest first.
    added: Vec<(String, u32)>,
}

fn field<'a>(value: &'a Value, path: &str) -> Result<&'a Value, String> {
    path.split('.')
        .try_fold(value, |v, key| v.get(key))
        .ok_or_else(|| format!("no `{path}`"))
}

fn string<'a>(value: &'a Value, path: &str) -> Result<&'a str, String> {
    field(value, path)?
        .as_str()
        .ok_or_else(|| format!("`{path}` is not a string"))
}

fn flag(value: &Value, path: &str, default: Option<bool>) -> Result<bool, String> {
    match value.get(path) {
        Some(Value::Bool(b)) => Ok(*b),
        None | Some(Value::Null) => default.ok_or_else(|| format!("no `{path}`")),
        Some(_) => Err(format!("`{path}` is not a boolean")),
    }
}

impl Tokenizer {
    /// Reads the tokenizer from `tokenizer.json`'s content; an error says what is not the BERT
    /// WordPiece tokenizer this module implements.
    pub(crate) fn from_json(json: &Value) -> Result<Tokenizer, String> {
        let expect = |path: &str, want: &str| -> Result<(), String> {
            let got = string(json, path)?;
            if got == want {
                Ok(())
            } else {
                Err(format!(
                    "`{path}` is {got:?}, this crate reads only {want:?}"
                ))
            }
        };
        expect("model.type", "WordPiece")?;
        expect("normalizer.type", "BertNormalizer")?;
        expect("pre_tokenizer.type", "BertPreTokenizer")?;
        expect("post_processor.type", "TemplateProcessing")?;

        let vocab_json = field(json, "model.vocab")?
            .as_object()
            .ok_or("`model.vocab` is not an object")?;
        let mut vocab = HashMap::with_capacity(vocab_json.len());
        for (piece, id) in vocab_json {
            let id = id
                .as_u64()
                .and_then(|id| u32::try_from(id).ok())
                .ok_or_else(|| format!("the id of {piece:?} in `model.vocab` is not a u32"))?;
            vocab.insert(piece.clone(), id);
        }
        let lookup = |token: &str| -> Result<u32, String> {
            vocab
                .get(token)
                .copied()
                .ok_or_else(|| format!("{token:?} is not in `model.vocab`"))
        };
        let unk = lookup(string(json, "model.unk_token")?)?;
        let cls = lookup("[CLS]")?;
        let sep = lookup("[SEP]")?;
        let prefix = string(json, "model.continuing_subword_prefix")?.to_owned();
        let max_chars_per_word = field(json, "model.max_input_chars_per_word")?
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or("`model.max_input_chars_per_word` is not a number")?;

        let normalizer = field(json, "normalizer")?;
        let clean_text = flag(normalizer, "clean_text", Some(true))?;
        let handle_chinese_chars = flag(normalizer, "handle_chinese_chars", Some(true))?;
        let lowercase = flag(normalizer, "lowercase", Some(true))?;
        // `null` means: strip accents when lowercasing, as the original BERT does.
        let strip_accents = flag(normalizer, "strip_accents", Some(lowercase))?;

        let mut added = Vec::new();
        if let Some(tokens) = json.get("added_tokens").and_then(Value::as_array) {
            for token in tokens {
                let content = string(token, "content")?;
                for option in ["single_word", "lstrip", "rstrip", "normalized"] {
                    if flag(token, option, Some(false))? {
                        return Err(format!(
                            "the added token {content:?} has `{option}`, which this crate does not implement"
                        ));
                    }
                }
                let id = token
                    .get("id")
                    .and_then(Value::as_u64)
                    .and_then(|id| u32::try_from(id).ok())
                    .ok_or_else(|| format!("the added token {content:?} has no u32 `id`"))?;
                if !content.is_empty() {
                    added.push((content.to_owned(), id));
                }
            }
        }
        // Leftmost-longest matching: at one position, the longest token wins.
        added.sort_by_key(|(token, _)| std::cmp::Reverse(token.len()));

        Ok(Tokenizer {
            vocab,
            unk,
            cls,
            sep,
            prefix,
            max_chars_per_word,
            clean_text,
            handle_chinese_chars,
            strip_accents,
            lowercase,
            added,
        })
    }

    /// The largest id the tokenizer can produce.
    pub(crate) fn max_id(&self) -> u32 {
        let added = self.added.iter().map(|(_, id)| *id);
        self.vocab
            .values()
            .copied()
            .chain(added)
            .chain([self.unk, self.cls, self.sep])
            .max()
            .unwrap_or(0)
    }

    /// `[CLS]`, the word pieces of `text`, `[SEP]`: at most `max_len` ids (at least 2), the
    /// pieces past `max_len - 2` cut off as `truncation=True` does for one sequence.
    pub(crate) fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let budget = max_len.saturating_sub(2);
        let mut ids = Vec::with_capacity(budget.min(64) + 2);
        ids.push(self.cls);
        let mut buffer = String::new();
        'segments: for segment in self.split_added(text) {
            if ids.len() > budget {
                break;
            }
            match segment {
                Segment::Added(id) => ids.push(id),
                Segment::Text(text) => {
                    // Normalisation is per character except NFD's reordering of combining marks,
                    // which a space (a starter) bounds, and a space stays a space: normalising
                    // the text a space-separated part at a time gives the same string, and a
                    // long text stops costing anything once the budget is full.
                    for part in text.split(' ') {
                        if part.is_empty() {
                            continue;
                        }
                        self.normalize(part, &mut buffer);
                        for word in pre_tokenize(&buffer) {
                            self.word_pieces(word, &mut ids);
                            if ids.len() > budget {
                                break 'segments;
                            }
                        }
                    }
                }
            }
        }
        ids.truncate(budget + 1);
        ids.push(self.sep);
        ids
    }

    /// The raw text cut around the added tokens it holds.
    fn split_added<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Segment<'t>> + 't {
        let mut rest = text;
        let mut pending: Option<u32> = None;
        std::iter::from_fn(move || {
            if let Some(id) = pending.take() {
                return Some(Segment::Added(id));
            }
            if rest.is_empty() {
                return None;
            }
            if !self.added.is_empty() {
                for (start, _) in rest.char_indices() {
                    let here = &rest[start..];
                    if let Some((token, id)) =
                        self.added.iter().find(|(token, _)| here.starts_with(token))
                    {
                        let before = &rest[..start];
                        rest = &rest[start + token.len()..];
                        if before.is_empty() {
                            return Some(Segment::Added(*id));
                        }
                        pending = Some(*id);
                        return Some(Segment::Text(before));
                    }
                }
            }
            let all = rest;
            rest = "";
            Some(Segment::Text(all))
        })
    }

    /// BertNormalizer, into `out`.
    fn normalize(&self, text: &str, out: &mut String) {
        out.clear();
        let mut spaced = String::with_capacity(text.len());
        for c in text.chars() {
            let c = if self.clean_text {
                if c == '\0' || c == '\u{fffd}' || is_control(c) {
                    continue;
                }
                if is_whitespace(c) { ' ' } else { c }
            } else {
                c
            };
            if self.handle_chinese_chars && is_chinese_char(c) {
                spaced.push(' ');
                spaced.push(c);
                spaced.push(' ');
            } else {
                spaced.push(c);
            }
        }
        let lowercase = self.lowercase;
        let mut push = |c: char| {
            if lowercase {
                out.extend(c.to_lowercase());
            } else {
                out.push(c);
            }
        };
        if self.strip_accents {
            spaced
                .nfd()
                .filter(|c| !c.is_mark_nonspacing())
                .for_each(&mut push);
        } else {
            spaced.chars().for_each(&mut push);
        }
    }

    /// WordPiece on one word, the ids pushed onto `ids`.
    fn word_pieces(&self, word: &str, ids: &mut Vec<u32>) {
        if word.chars().count() > self.max_chars_per_word {
            ids.push(self.unk);
            return;
        }
        let first = ids.len();
        let mut candidate = String::with_capacity(self.prefix.len() + word.len());
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                candidate.clear();
                if start > 0 {
                    candidate.push_str(&self.prefix);
                }
                candidate.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(candidate.as_str()) {
                    found = Some(id);
                    break;
                }
                // Back off by one character.
                end = word[..end]
                    .char_indices()
                    .next_back()
                    .map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => {
                    ids.push(id);
                    start = end;
                }
                None => {
                    ids.truncate(first);
                    ids.push(self.unk);
                    return;
                }
            }
        }
    }
}

enum Segment<'t> {
    Added(u32),
    Text(&'t str),
}

/// BertPreTokenizer: words split on whitespace, each punctuation character a word of its own.
fn pre_tokenize(text: &str) -> impl Iterator<Item = &str> {
    text.split(char::is_whitespace)
        .filter(|word| !word.is_empty())
        .flat_map(|word| {
            let mut rest = word;
            std::iter::from_fn(move || {
                let (start, c) = rest.char_indices().next()?;
                debug_assert_eq!(start, 0);
                let end = if is_punctuation(c) {
                    c.len_utf8()
                } else {
                    rest.char_indices()
                        .find(|&(_, c)| is_punctuation(c))
                        .map_or(rest.len(), |(i, _)| i)
                };
                let (piece, tail) = rest.split_at(end);
                rest = tail;
                Some(piece)
            })
        })
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// Tab, newline and carriage return are control characters that count as whitespace.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Cc, Cf and Co (the `is_other` of the tables `tokenizers` uses), but not tab, newline or
/// carriage return.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// The CJK Unified Ideographs blocks (not Hangul, Hiragana or Katakana).
fn is_chinese_char(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B920..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small tokenizer in `tokenizer.json`'s shape.
    fn tiny() -> Tokenizer {
        let pieces = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "un", "##aff",
            "##able", "cafe", "!", ",", ".", "?", "'", "s", "the", "a", "##b", "中", "国", "i",
            "naive", "resume", "-", "##s", "x",
        ];
        let vocab: serde_json::Map<String, Value> = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| ((*p).to_owned(), Value::from(i)))
            .collect();
        let added: Vec<Value> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
            .iter()
            .enumerate()
            .map(|(i, t)| {
                serde_json::json!({"id": i, "content": t, "single_word": false, "lstrip": false,
                    "rstrip": false, "normalized": false, "special": true})
            })
            .collect();
        let json = serde_json::json!({
            "added_tokens": added,
            "normalizer": {"type": "BertNormalizer", "clean_text": true,
                "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": {"type": "TemplateProcessing"},
            "model": {"type": "WordPiece", "unk_token": "[UNK]",
                "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                "vocab": vocab},
        });
        Tokenizer::from_json(&json).expect("the tiny tokenizer loads")
    }

    fn pieces(tokenizer: &Tokenizer, text: &str) -> Vec<String> {
        let by_id: HashMap<u32, &str> = tokenizer
            .vocab
            .iter()
            .map(|(p, id)| (*id, p.as_str()))
            .collect();
        tokenizer
            .encode(text, 256)
            .into_iter()
            .map(|id| by_id[&id].to_owned())
            .collect()
    }

    #[test]
    fn cls_and_sep_around_an_empty_text() {
        let t = tiny();
        assert_eq!(pieces(&t, ""), ["[CLS]", "[SEP]"]);
        assert_eq!(pieces(&t, " \t\n "), ["[CLS]", "[SEP]"]);
    }

    #[test]
    fn lowercased_and_accents_stripped() {
        let t = tiny();
        assert_eq!(
            pieces(&t, "Hello WORLD"),
            ["[CLS]", "hello", "world", "[SEP]"]
        );
        assert_eq!(pieces(&t, "Café"), ["[CLS]", "cafe", "[SEP]"]);
        // Decomposed input (e + combining acute) gives the same.
        assert_eq!(pieces(&t, "Cafe\u{301}"), ["[CLS]", "cafe", "[SEP]"]);
        assert_eq!(
            pieces(&t, "naïve résumé"),
            ["[CLS]", "naive", "resume", "[SEP]"]
        );
        // İ decomposes to I and a combining dot above, which goes with the accents.
        assert_eq!(pieces(&t, "İ"), ["[CLS]", "i", "[SEP]"]);
    }

    #[test]
    fn punctuation_is_split_off() {
        let t = tiny();
        assert_eq!(
            pieces(&t, "hello,world!?"),
            ["[CLS]", "hello", ",", "world", "!", "?", "[SEP]"]
        );
        assert_eq!(
            pieces(&t, "the world's"),
            ["[CLS]", "the", "world", "'", "s", "[SEP]"]
        );
        // Non-ASCII punctuation too (U+2014 EM DASH is Pd, not in the tiny vocabulary).
        assert_eq!(pieces(&t, "a—a"), ["[CLS]", "a", "[UNK]", "a", "[SEP]"]);
        // ASCII symbols that Unicode does not call punctuation are split as BERT does.
        assert_eq!(pieces(&t, "a$a"), ["[CLS]", "a", "[UNK]", "a", "[SEP]"]);
    }

    #[test]
    fn cjk_ideographs_are_one_word_each() {
        let t = tiny();
        assert_eq!(pieces(&t, "中国"), ["[CLS]", "中", "国", "[SEP]"]);
        assert_eq!(pieces(&t, "a中a"), ["[CLS]", "a", "中", "a", "[SEP]"]);
    }

    #[test]
    fn continuation_pieces_start_with_hashes() {
        let t = tiny();
        assert_eq!(
            pieces(&t, "unaffable"),
            ["[CLS]", "un", "##aff", "##able", "[SEP]"]
        );
        assert_eq!(pieces(&t, "abb"), ["[CLS]", "a", "##b", "##b", "[SEP]"]);
    }

    #[test]
    fn a_word_with_an_unknown_part_is_one_unk() {
        let t = tiny();
        assert_eq!(
            pieces(&t, "unaffz hello"),
            ["[CLS]", "[UNK]", "hello", "[SEP]"]
        );
        assert_eq!(pieces(&t, "🙂"), ["[CLS]", "[UNK]", "[SEP]"]);
        let long = "a".repeat(100) + " " + &"a".repeat(101);
        let ids = t.encode(&long, 256);
        // 100 characters are word-pieced ("a", then no "##a": one UNK); 101 are one UNK
        // without trying.
        assert_eq!(ids.len(), 4);
        assert_eq!(ids[2], t.unk);
    }

    #[test]
    fn controls_are_removed_and_whitespace_splits() {
        let t = tiny();
        assert_eq!(pieces(&t, "hel\u{0}lo"), ["[CLS]", "hello", "[SEP]"]);
        assert_eq!(pieces(&t, "hel\u{200b}lo"), ["[CLS]", "hello", "[SEP]"]); // Cf
        assert_eq!(pieces(&t, "hel\u{fffd}lo"), ["[CLS]", "hello", "[SEP]"]);
        // Vertical tab is a control character (removed), not whitespace.
        assert_eq!(pieces(&t, "hel\u{b}lo"), ["[CLS]", "hello", "[SEP]"]);
        assert_eq!(
            pieces(&t, "hello\u{a0}world\u{3000}x"),
            ["[CLS]", "hello", "world", "x", "[SEP]"]
        );
    }

    #[test]
    fn added_tokens_are_matched_before_normalisation() {
        let t = tiny();
        assert_eq!(
            pieces(&t, "hello[MASK]world"),
            ["[CLS]", "hello", "[MASK]", "world", "[SEP]"]
        );
        assert_eq!(pieces(&t, "[SEP]"), ["[CLS]", "[SEP]", "[SEP]"]);
        // Lowercase is not the token: brackets are punctuation, `mask` is unknown here.
        assert_eq!(
            pieces(&t, "[mask]"),
            ["[CLS]", "[UNK]", "[UNK]", "[UNK]", "[SEP]"]
        );
    }

    #[test]
    fn truncated_to_the_sequence_length_with_cls_and_sep() {
        let t = tiny();
        let text = "hello ".repeat(1000);
        for max_len in [2, 3, 10, 256] {
            let ids = t.encode(&text, max_len);
            assert_eq!(ids.len(), max_len);
            assert_eq!(ids[0], t.cls);
            assert_eq!(ids[max_len - 1], t.sep);
        }
        // A word's pieces are cut too, not dropped whole.
        let ids = t.encode("unaffable", 4);
        assert_eq!(pieces(&t, "unaffable")[..3], ["[CLS]", "un", "##aff"]);
        assert_eq!(ids, [t.cls, 7, 8, t.sep]);
    }

    proptest::proptest! {
        /// No panic on any string, and the ids stay in shape: `[CLS]` first, `[SEP]` last, at
        /// most `max_len`.
        #[test]
        fn any_string_encodes_within_bounds(
            text in proptest::prop_oneof![
                proptest::prelude::any::<String>(),
                "\\PC{0,200}",
                "[a-z\\[\\] A-Z#\u{301}\u{4e2d}]{0,60}",
            ],
            max_len in 2usize..300,
        ) {
            let t = tiny();
            let ids = t.encode(&text, max_len);
            proptest::prop_assert!(ids.len() >= 2 && ids.len() <= max_len);
            proptest::prop_assert_eq!(ids[0], t.cls);
            proptest::prop_assert_eq!(ids[ids.len() - 1], t.sep);
            proptest::prop_assert!(ids.iter().all(|id| *id <= t.max_id()));
        }
    }

    #[test]
    fn the_pre_tokenizer_splits_as_bert() {
        let words: Vec<&str> = pre_tokenize("Hey friend!     How are you?!?").collect();
        assert_eq!(
            words,
            ["Hey", "friend", "!", "How", "are", "you", "?", "!", "?"]
        );
    }
}
