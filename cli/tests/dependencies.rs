//! The command a user installs (and the Python wheel builds) depends on the kit alone among the
//! project's crates: no bundled backend, adapter, bridge crate or embedder, which the project's
//! own tool (`tools/bundled/`) holds.

#[test]
fn the_command_depends_on_no_bundled_backend() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let dependencies = text
        .split("\n[dependencies]\n")
        .nth(1)
        .expect("Cargo.toml has [dependencies]")
        .split("\n[")
        .next()
        .unwrap_or_default();
    let paths: Vec<&str> = dependencies
        .lines()
        .filter(|line| line.contains("path = "))
        .collect();
    assert_eq!(
        paths.len(),
        1,
        "the kit is the command's only dependency in this repository: {paths:#?}"
    );
    assert!(
        paths[0].starts_with("memory-conformance = { path = \"..\""),
        "{paths:#?}"
    );
}
