use std::error::Error;
use std::fmt;

/// Why a memory call failed.
///
/// ```
/// use memory_conformance::MemoryError;
/// assert_eq!(MemoryError::NotInitialized.to_string(), "Memory service is not initialized.");
/// let io = std::io::Error::other("disk full");
/// let err = MemoryError::backend_with_source("cannot write session s-1", io);
/// assert_eq!(err.to_string(), "memory backend failed: cannot write session s-1");
/// assert_eq!(std::error::Error::source(&err).unwrap().to_string(), "disk full");
/// let gap = MemoryError::Unsupported { operation: "delete_memory" };
/// assert_eq!(gap.to_string(), "this memory backend does not support delete_memory");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum MemoryError {
    /// A memory call was made where no memory service is configured (ADK's
    /// `IllegalStateException("Memory service is not initialized.")`).
    NotInitialized,
    /// The backend does not implement an optional call of the trait (a delta of events,
    /// explicit memories, deleting a memory, search options).
    Unsupported {
        /// The call, as the trait names it (`delete_memory`).
        operation: &'static str,
    },
    /// The backend itself failed: storage, network, a child process, bad data.
    Backend {
        /// What went wrong, for a person.
        message: String,
        /// The underlying error, when there is one.
        source: Option<Box<dyn Error + Send + Sync + 'static>>,
    },
}

impl MemoryError {
    /// A backend failure described by `message`.
    pub fn backend(message: impl Into<String>) -> Self {
        Self::Backend {
            message: message.into(),
            source: None,
        }
    }

    /// A backend failure described by `message`, caused by `source`.
    pub fn backend_with_source(
        message: impl Into<String>,
        source: impl Into<Box<dyn Error + Send + Sync + 'static>>,
    ) -> Self {
        Self::Backend {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// A backend failure described by `message`, which already shows what the backend said
    /// as the kit's redaction policy allows (a bridge child's refusal, redacted to its shape
    /// once stored content was sent); `said`, verbatim, is its cause for the program
    /// ([`backend_reason`](Self::backend_reason)), and a failure report never prints it
    /// ([`report`](Self::report)).
    #[cfg(feature = "harness")]
    pub(crate) fn backend_saying(message: impl Into<String>, said: String) -> Self {
        Self::backend_with_source(message, Said(said))
    }

    /// The error and its causes joined with `: `, as a failure report prints it: a cause the
    /// message already quotes is not repeated, and what a backend said that the message shows
    /// as the redaction policy allows ([`backend_saying`](Self::backend_saying)) never is.
    #[cfg(feature = "harness")]
    pub(crate) fn report(&self) -> String {
        let mut text = self.to_string();
        let mut source = self.source();
        while let Some(cause) = source {
            if cause.is::<Said>() {
                break;
            }
            let cause_text = cause.to_string();
            if !text.contains(&cause_text) {
                text.push_str(": ");
                text.push_str(&cause_text);
            }
            source = cause.source();
        }
        text
    }

    /// What the backend itself said: for a backend failure with a cause, the innermost cause
    /// (a bridge child's own message, without the request number, command line and stderr
    /// its error also carries), else the error as displayed. Recall snapshots pin this text,
    /// so that an error pinned there does not change from run to run.
    ///
    /// ```
    /// use memory_conformance::MemoryError;
    /// let refused = MemoryError::backend_with_source(
    ///     "bridge child `java …` failed request 22 (search): NoSuchElementException: No value present",
    ///     "NoSuchElementException: No value present",
    /// );
    /// assert_eq!(refused.backend_reason(), "memory backend failed: NoSuchElementException: No value present");
    /// assert_eq!(MemoryError::backend("disk full").backend_reason(), "memory backend failed: disk full");
    /// ```
    pub fn backend_reason(&self) -> String {
        let mut cause: &(dyn Error + 'static) = self;
        while let Some(inner) = cause.source() {
            cause = inner;
        }
        match self {
            Self::Backend {
                source: Some(_), ..
            } => format!("memory backend failed: {cause}"),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotInitialized => f.write_str("Memory service is not initialized."),
            Self::Unsupported { operation } => {
                write!(f, "this memory backend does not support {operation}")
            }
            Self::Backend { message, .. } => write!(f, "memory backend failed: {message}"),
        }
    }
}

impl Error for MemoryError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::NotInitialized | Self::Unsupported { .. } => None,
            Self::Backend { source, .. } => {
                source.as_deref().map(|err| err as &(dyn Error + 'static))
            }
        }
    }
}

/// What a backend said, verbatim, as the cause of an error whose message shows it as the
/// redaction policy allows ([`MemoryError::backend_saying`]).
#[cfg(feature = "harness")]
#[derive(Debug)]
struct Said(String);

#[cfg(feature = "harness")]
impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(feature = "harness")]
impl Error for Said {}
