//! Starting a bridged backend once per process and handing each case a fresh store of it.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use memory_conformance::conformance::Namespace;
use memory_conformance::conformance::{DEFAULT_OP_TIMEOUT, Gate, Subject};
use memory_conformance::process::ProcessBridge;
use memory_conformance::profile::Profile;
use memory_conformance::{MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait};
use tokio::sync::OnceCell;

/// The command that installs every bridged backend, from the repository's root.
/// The command that installs the bridged packages: `bash bridges/install.sh` in the repository,
/// else the script's full path (a CLI installed from the published crates carries the script in
/// its copy of this crate).
pub(crate) fn install() -> String {
    let script = bridges_dir().join("install.sh");
    match std::env::current_dir() {
        Ok(dir) if dir.join("bridges/install.sh") == script => "bash bridges/install.sh".into(),
        _ => format!("bash {}", script.display()),
    }
}

/// A backend in another language, run through the process bridge.
pub(crate) struct Bridged {
    /// The backend's name, as the child says in `hello`.
    pub(crate) name: &'static str,
    /// The version the child must report in `hello`: the one the profile was verified with.
    pub(crate) version: &'static str,
    /// Where the package comes from.
    pub(crate) registry: &'static str,
    /// The memory service the child runs.
    pub(crate) service: &'static str,
    /// Whether it is installed here; `Err` says how to install it.
    pub(crate) installed: fn() -> Result<(), String>,
    /// The child's command.
    pub(crate) command: fn() -> Command,
    /// The one child of this process, started on first use.
    pub(crate) child: &'static OnceCell<Result<ProcessBridge, String>>,
}

impl Bridged {
    /// The gate of the backend: every rule against `profile`, each case on a fresh store of
    /// the one child, and every test ignored, with the install command, where it is not
    /// installed.
    pub(crate) fn gate(&'static self, profile: Profile) -> Gate {
        let subject =
            Subject::namespaced(self.name, profile, move |namespace| self.open(namespace))
                .cleanup_with(move |namespace| self.forget(namespace));
        Gate::new(subject)
            .op_timeout(DEFAULT_OP_TIMEOUT + ProcessBridge::HARNESS_MARGIN)
            .describe(format!(
                "{} ({}), {}, through the process bridge",
                self.version, self.registry, self.service
            ))
            .available((self.installed)())
    }

    /// An instance of the backend on the storage of `namespace` in its child (started on first
    /// use): the first instance of a case's namespace starts empty, later ones reach the same
    /// storage (a reopen, a second instance), as protocol v2's `open` does. When the child
    /// cannot be started or the store cannot be opened, every call of the returned service
    /// fails with the reason.
    pub(crate) async fn open(&'static self, namespace: Namespace) -> Arc<dyn MemoryService> {
        let child = self.child.get_or_init(|| self.start()).await;
        let store = match child {
            Ok(bridge) => bridge.open(namespace.as_str()).await.map_err(message),
            Err(reason) => Err(reason.clone()),
        };
        match store {
            Ok(store) => Arc::new(store),
            Err(reason) => Arc::new(Unreachable(reason)),
        }
    }

    /// Removes the storage of a case's namespace from the child, once the case is over.
    fn forget(&'static self, namespace: &Namespace) {
        if let Some(Ok(bridge)) = self.child.get() {
            bridge.forget(namespace.as_str());
        }
    }

    async fn start(&'static self) -> Result<ProcessBridge, String> {
        (self.installed)()?;
        let bridge = ProcessBridge::spawn((self.command)())
            .await
            .map_err(message)?;
        if bridge.version() != self.version {
            return Err(format!(
                "the {} bridge runs {}, but its profile was verified against {}: run `{}`",
                self.name,
                bridge.version(),
                self.version,
                install()
            ));
        }
        Ok(bridge)
    }
}

/// The variable that names the folder of the bundled bridges, for a `memory-conformance`
/// installed away from the repository it was built in.
pub const BRIDGES_DIR_VAR: &str = "MEMORY_CONFORMANCE_BRIDGES_DIR";

/// The folder where the bundled bridges and their installs live: `$MEMORY_CONFORMANCE_BRIDGES_DIR`
/// when set (a checkout's `bridges/` folder, after `bash bridges/install.sh`), else this crate's
/// folder in the repository it was built from.
pub(crate) fn bridges_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        std::env::var_os(BRIDGES_DIR_VAR)
            .filter(|dir| !dir.is_empty())
            .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
    })
}

/// Whether `program` is an executable file in a folder of the `PATH`.
pub(crate) fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| is_executable(&dir.join(program)))
    })
}

/// Whether `path` is a file that can be run.
pub(crate) fn is_executable(path: &Path) -> bool {
    let Ok(meta) = path.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

fn message(error: MemoryError) -> String {
    match error {
        MemoryError::Backend { message, .. } => message,
        other => other.to_string(),
    }
}

/// A backend that could not be reached: every call fails with the reason.
struct Unreachable(String);

#[async_trait]
impl MemoryService for Unreachable {
    async fn add_session_to_memory(&self, _session: &Session) -> Result<(), MemoryError> {
        Err(MemoryError::backend(self.0.clone()))
    }

    async fn search_memory(
        &self,
        _app_name: &str,
        _user_id: &str,
        _query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        Err(MemoryError::backend(self.0.clone()))
    }
}
