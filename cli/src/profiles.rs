//! The profiles `explain` and `diagnose` take by name.

use memory_conformance::profile::Profile;

/// Every preset, by the name `--profile` takes.
pub fn presets() -> Vec<Profile> {
    vec![
        Profile::reference(),
        Profile::adk_python(),
        Profile::adk_js(),
        Profile::adk_java(),
        Profile::adk_go(),
        Profile::adk_rust_in_memory(),
        Profile::adk_rust_sqlite(),
        memory_sqlite_fts5::profile(),
    ]
}

/// The preset called `name`, or an error listing them.
pub fn by_name(name: &str) -> Result<Profile, String> {
    let presets = presets();
    let names: Vec<String> = presets.iter().map(|p| p.name.clone()).collect();
    presets.into_iter().find(|p| p.name == name).ok_or_else(|| {
        format!(
            "no profile is called {name:?}; the presets are {}",
            names.join(", ")
        )
    })
}
