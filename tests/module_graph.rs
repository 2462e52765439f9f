//! The kit's modules import each other without a cycle, between folders and between files: a
//! reader can take the modules in an order where each uses only what came before. They stand
//! in layers (the contract a backend runs with, diagnosis, recall, the harness), each importing
//! only those its place allows, and no source file outgrows the budget a reader can take in.
//!
//! The graph is read from the sources: every `crate::…`, `super::…` and `self::…` path outside
//! comments and `#[cfg(test)]` modules is an edge from its file to the deepest module it names.
//! Edges between a module and its own ancestors (a `mod.rs` re-exporting its children, a child
//! reaching its parent's items) do not count: they are one room, not two. Test modules stand at
//! the end of their file, as everywhere in the kit.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path below `src/`: `["conformance", "declare", "gate"]` for
/// `src/conformance/declare/gate.rs`.
type Module = Vec<String>;

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).expect("a file below src/");
    let mut module: Module = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if module
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        module.pop();
    }
    module
}

/// The file's code: comment lines and everything from its `#[cfg(test)] mod tests` on left out.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b`, `super::x` or `self::y` path in `code`, as its segments.
fn paths(code: &str) -> Vec<Vec<&str>> {
    let mut found = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: &str = code[at..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("");
            found.push(path.split("::").filter(|s| !s.is_empty()).collect());
        }
    }
    found
}

/// The deepest module of `modules` that `path`, written in `from`, names.
fn target(modules: &BTreeSet<Module>, from: &Module, path: &[&str]) -> Option<Module> {
    let (mut base, mut rest): (Module, &[&str]) = match *path.first()? {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (from.clone(), &path[1..]),
        "super" => {
            let mut base = from.clone();
            let mut rest = path;
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    let mut deepest = modules.contains(&base).then(|| base.clone());
    while let Some((first, tail)) = rest.split_first() {
        base.push((*first).to_owned());
        if modules.contains(&base) {
            deepest = Some(base.clone());
        }
        rest = tail;
    }
    deepest
}

fn is_ancestor(a: &Module, b: &Module) -> bool {
    a.len() < b.len() && b[..a.len()] == a[..]
}

/// The groups of nodes that reach each other (Tarjan), those of more than one node only.
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Search<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Search<'_> {
        fn visit(&mut self, node: &Module) {
            let next = self.index.len();
            self.index.insert(node.clone(), next);
            self.low.insert(node.clone(), next);
            self.stack.push(node.clone());
            for to in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(to) {
                    self.visit(to);
                    let low = self.low[node].min(self.low[to]);
                    self.low.insert(node.clone(), low);
                } else if self.stack.contains(to) {
                    let low = self.low[node].min(self.index[to]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let at = self
                    .stack
                    .iter()
                    .rposition(|n| n == node)
                    .expect("on the stack");
                let group = self.stack.split_off(at);
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !search.index.contains_key(node) {
            search.visit(node);
        }
    }
    search.found
}

/// The kit's import graph, file by file.
fn file_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let from = module_of(&src, file);
        let text = std::fs::read_to_string(file).expect("a readable source");
        let targets: BTreeSet<Module> = paths(&code(&text))
            .iter()
            .filter_map(|path| target(&modules, &from, path))
            .filter(|to| {
                !to.is_empty() && *to != from && !is_ancestor(to, &from) && !is_ancestor(&from, to)
            })
            .collect();
        edges.insert(from, targets);
    }
    edges
}

fn shown(groups: &[Vec<Module>], edges: &BTreeMap<Module, BTreeSet<Module>>) -> String {
    groups
        .iter()
        .map(|group| {
            group
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| group.contains(to))
                        .map(move |to| format!("  {} -> {}", from.join("::"), to.join("::")))
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn no_two_files_of_the_kit_import_each_other() {
    let edges = file_graph();
    assert!(edges.len() > 50, "the kit's files were not found");
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles between files (each line an import of the cycle):\n{}",
        shown(&found, &edges)
    );
}

#[test]
fn no_two_folders_of_the_kit_import_each_other() {
    let mut folders: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, targets) in file_graph() {
        let Some(folder) = from.first() else { continue };
        let entry = folders.entry(vec![folder.clone()]).or_default();
        entry.extend(
            targets
                .iter()
                .filter(|to| to[0] != *folder)
                .map(|to| vec![to[0].clone()]),
        );
    }
    let found = cycles(&folders);
    assert!(
        found.is_empty(),
        "import cycles between folders of src/:\n{}",
        shown(&found, &folders)
    );
}

/// Inside every folder too (`conformance/`'s stages, ...): its files and subfolders, each
/// taken with everything below it, import each other without a cycle.
#[test]
fn no_two_parts_of_a_folder_import_each_other() {
    let edges = file_graph();
    let folders: BTreeSet<Module> = edges
        .keys()
        .flat_map(|module| (1..module.len()).map(|depth| module[..depth].to_vec()))
        .collect();
    let mut found = String::new();
    for folder in &folders {
        let part = |module: &Module| -> Option<Module> {
            is_ancestor(folder, module).then(|| module[..=folder.len()].to_vec())
        };
        let mut parts: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (from, targets) in &edges {
            let Some(from_part) = part(from) else {
                continue;
            };
            let entry = parts.entry(from_part.clone()).or_default();
            entry.extend(
                targets
                    .iter()
                    .filter_map(part)
                    .filter(|to| *to != from_part),
            );
        }
        let groups = cycles(&parts);
        if !groups.is_empty() {
            found.push_str(&format!(
                "in {}:\n{}\n",
                folder.join("::"),
                shown(&groups, &parts)
            ));
        }
    }
    assert!(
        found.is_empty(),
        "import cycles between the files and folders of a folder:\n{found}"
    );
}

#[test]
fn the_graph_reader_sees_a_cycle_when_there_is_one() {
    let module = |path: &str| -> Module { path.split("::").map(str::to_owned).collect() };
    let modules: BTreeSet<Module> = ["a", "a::x", "b"].into_iter().map(module).collect();
    let code = code("// crate::b in a comment\nuse crate::b::Thing;\nuse super::x::f;\n");
    let targets: Vec<_> = paths(&code)
        .iter()
        .filter_map(|p| target(&modules, &module("a::y"), p))
        .collect();
    assert_eq!(targets, [module("b"), module("a::x")]);
    let edges = BTreeMap::from([
        (module("a"), BTreeSet::from([module("b")])),
        (module("b"), BTreeSet::from([module("a")])),
        (module("c"), BTreeSet::from([module("a")])),
    ]);
    assert_eq!(cycles(&edges).len(), 1);
    assert_eq!(shown(&cycles(&edges), &edges).lines().count(), 2);
}

/// The kit's layers, each a set of modules (a module belongs to the layer of the longest
/// prefix that names it), and the layers each may import: the contract (what a backend needs
/// at run time) nothing above it; diagnosis and recall the contract only; the harness all.
const LAYERS: &[(&str, &[&str], &[&str])] = &[
    (
        "contract",
        &[
            "model",
            "service",
            "error",
            "in_memory",
            "tokenize",
            "profile",
            "embed",
            "conformance::declare",
            "benchmark::floor",
            "benchmark::question_kind",
        ],
        &["contract"],
    ),
    (
        "diagnosis",
        &["inspect", "sessions", "explain", "load_memory"],
        &["contract", "diagnosis"],
    ),
    ("recall", &["probe", "benchmark"], &["contract", "recall"]),
    (
        "harness",
        &["conformance", "infer", "process"],
        &["contract", "diagnosis", "recall", "harness"],
    ),
];

/// The layer of `module`: the one with the longest prefix of it.
fn layer_of(module: &Module) -> Option<&'static str> {
    LAYERS
        .iter()
        .flat_map(|(layer, prefixes, _)| prefixes.iter().map(move |prefix| (*layer, *prefix)))
        .filter(|(_, prefix)| {
            let prefix: Vec<&str> = prefix.split("::").collect();
            module.len() >= prefix.len() && module[..prefix.len()] == prefix[..]
        })
        .max_by_key(|(_, prefix)| prefix.split("::").count())
        .map(|(layer, _)| layer)
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let edges = file_graph();
    let unplaced: Vec<String> = edges
        .keys()
        .filter(|module| !module.is_empty() && layer_of(module).is_none())
        .map(|module| module.join("::"))
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules in no layer (place each in LAYERS): {unplaced:?}"
    );
    let mut forbidden = Vec::new();
    for (from, targets) in &edges {
        let Some(layer) = layer_of(from) else {
            continue;
        };
        let (_, _, allowed) = LAYERS
            .iter()
            .find(|(name, ..)| *name == layer)
            .expect("a layer");
        for to in targets {
            let target = layer_of(to).expect("every module is placed");
            if !allowed.contains(&target) {
                forbidden.push(format!(
                    "  {} ({layer}) -> {} ({target})",
                    from.join("::"),
                    to.join("::")
                ));
            }
        }
    }
    assert!(
        forbidden.is_empty(),
        "imports across layers that the layering forbids:\n{}",
        forbidden.join("\n")
    );
}

/// The most lines a source file of the kit holds outside its test module.
const MOST_LINES: usize = 700;

/// The most files at the root of `src/conformance/`: the rest stand in its stages' folders.
const MOST_CONFORMANCE_ROOT_FILES: usize = 12;

#[test]
fn no_source_file_is_longer_than_the_budget() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).expect("a readable source");
            let lines = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or("")
                .lines()
                .count();
            (lines > MOST_LINES).then(|| format!("  {} ({lines} lines)", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "source files over {MOST_LINES} lines outside their test module (split each along a seam):\n{}",
        long.join("\n")
    );
    let root: Vec<String> = std::fs::read_dir(src.join("conformance"))
        .expect("src/conformance/ is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        root.len() <= MOST_CONFORMANCE_ROOT_FILES,
        "{} files at the root of src/conformance/, at most {MOST_CONFORMANCE_ROOT_FILES}: put each in its stage's folder: {root:?}",
        root.len()
    );
}
