//! Storage namespaces: every generated case runs on one no other case uses.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that moves the scratch folder of [`Namespace::scratch_file`].
pub const SCRATCH_DIR: &str = "MEMORY_CONFORMANCE_SCRATCH_DIR";

static NAMESPACES: AtomicU64 = AtomicU64::new(0);

/// A storage namespace, unique within the process: ASCII letters, digits and `_`, so it can
/// name a file, a table prefix or a schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Namespace(String);

impl Namespace {
    /// A namespace no other call in this process returns.
    pub fn fresh() -> Self {
        static PROCESS: OnceLock<u32> = OnceLock::new();
        let n = NAMESPACES.fetch_add(1, Ordering::Relaxed);
        Self(format!("mc_{}_{n}", PROCESS.get_or_init(std::process::id)))
    }

    /// The namespace as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A path for a storage file of this namespace, `<scratch>/<namespace>.<extension>`, for
    /// backends that keep memories in files. The scratch folder is created on demand: the
    /// folder named by `MEMORY_CONFORMANCE_SCRATCH_DIR` when it is set, else
    /// `/dev/shm/memory-conformance` where a memory-backed `/dev/shm` exists (commits and
    /// fsyncs still happen, they are just cheap), else `memory-conformance` in the temporary
    /// folder. Pair it with [`Namespace::remove_scratch_files`] as the subject's cleanup.
    ///
    /// ```
    /// use memory_conformance::conformance::Namespace;
    /// let namespace = Namespace::fresh();
    /// let path = namespace.scratch_file("db").unwrap();
    /// std::fs::write(&path, b"x").unwrap();
    /// namespace.remove_scratch_files();
    /// assert!(!path.exists());
    /// ```
    pub fn scratch_file(&self, extension: &str) -> std::io::Result<PathBuf> {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir)?;
        Ok(dir.join(format!("{}.{extension}", self.0)))
    }

    /// Removes every scratch file of this namespace (`<namespace>.*`, which includes SQLite's
    /// `-wal` and `-shm` companions). Errors are ignored: cleanup is best effort.
    pub fn remove_scratch_files(&self) {
        let prefix = format!("{}.", self.0);
        let Ok(entries) = std::fs::read_dir(scratch_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The folder scratch files go to.
pub(crate) fn scratch_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(SCRATCH_DIR).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let shm = Path::new("/dev/shm");
    let root = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    root.join("memory-conformance")
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
