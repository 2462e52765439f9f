//! The profiles the commands take: a preset by name, or a profile file (format 1, see
//! docs/profile-format.md).

use std::path::Path;

use memory_conformance::conformance::ProfileFile;
use memory_conformance::profile::Profile;

/// The bundled sqlite-fts5 backend's profile (`memory_sqlite_fts5::profile()`) as a profile
/// file, so the command knows it without building the backend; the project's own tool checks
/// that it is the backend's, byte for byte.
const SQLITE_FTS5: &str = include_str!("presets/sqlite-fts5.toml");

/// Every preset, by the name `--profile` takes: the kit's, then sqlite-fts5's.
pub fn presets() -> Vec<Profile> {
    let mut presets = memory_conformance::profile::presets();
    presets.push(
        ProfileFile::parse(SQLITE_FTS5)
            .expect("presets/sqlite-fts5.toml is a profile file")
            .profile,
    );
    presets
}

/// The preset called `name`, or the profile file at that path, or an error listing the
/// presets.
pub fn by_name(name: &str) -> Result<Profile, String> {
    load(name).map(|file| file.profile)
}

/// The profile file at `arg` (a path ending in `.toml`, or any existing file), or the preset
/// called `arg` as a file with nothing else declared.
pub fn load(arg: &str) -> Result<ProfileFile, String> {
    let path = Path::new(arg);
    if arg.ends_with(".toml") || path.is_file() {
        return ProfileFile::read(path).map_err(|err| err.to_string());
    }
    let presets = presets();
    let names: Vec<String> = presets.iter().map(|p| p.name.clone()).collect();
    presets
        .into_iter()
        .find(|p| p.name == arg)
        .map(ProfileFile::of)
        .ok_or_else(|| {
            format!(
                "no profile is called {arg:?}; the presets are {}, or name a profile file (.toml)",
                names.join(", ")
            )
        })
}
