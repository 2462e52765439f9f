//! Recall snapshots as plain files, for teams without cargo-insta: `<dir>/<backend>.recall.md`
//! and `<dir>/<backend>.recall_vs_reference.md`, reviewed with `memory-conformance snapshot
//! review DIR` and accepted with `memory-conformance snapshot accept DIR`.

use std::path::{Path, PathBuf};

/// The suffix of a snapshot that differs from the pinned one, waiting for review.
const PENDING: &str = ".new";

/// Pins `text` as the snapshot `name` in `dir`: `Ok` when it equals the pinned one; else it
/// writes `<name>.new` beside it and says what differs and what to do.
pub fn pin(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let pinned = dir.join(name);
    let pending = with_pending(&pinned);
    let current = std::fs::read_to_string(&pinned).ok();
    if current.as_deref() == Some(text) {
        let _ = std::fs::remove_file(&pending);
        return Ok(());
    }
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&pending, text))
        .map_err(|err| format!("cannot write {}: {err}", pending.display()))?;
    let review = format!(
        "review it with `memory-conformance snapshot review {0}`, accept it with `memory-conformance snapshot accept {0}`, and commit {1}",
        dir.display(),
        pinned.display()
    );
    Err(match current {
        None => format!(
            "no recall is pinned at {} yet: wrote {}; {review}",
            pinned.display(),
            pending.display()
        ),
        Some(old) => format!(
            "the recall differs from {}:\n{}wrote {}; {review}",
            pinned.display(),
            diff(&old, text),
            pending.display()
        ),
    })
}

/// Every pending snapshot in `dir`, with the pinned file it would replace.
pub fn pending(dir: &Path) -> Result<Vec<(PathBuf, PathBuf)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|err| format!("cannot read {}: {err}", dir.display()))?;
    let mut found: Vec<(PathBuf, PathBuf)> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter_map(|path| {
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(PENDING)?
                .to_owned();
            Some((path.with_file_name(name), path))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// What `snapshot review` prints: each pending snapshot's difference from the pinned one.
pub fn review(dir: &Path) -> Result<String, String> {
    let mut out = String::new();
    for (pinned, pending) in pending(dir)? {
        let new = std::fs::read_to_string(&pending)
            .map_err(|err| format!("cannot read {}: {err}", pending.display()))?;
        let old = std::fs::read_to_string(&pinned).unwrap_or_default();
        out.push_str(&format!(
            "--- {}\n+++ {}\n{}",
            pinned.display(),
            pending.display(),
            diff(&old, &new)
        ));
    }
    if out.is_empty() {
        out = format!("no snapshot in {} waits for review\n", dir.display());
    }
    Ok(out)
}

/// What `snapshot accept` does: every pending snapshot replaces its pinned one. Returns the
/// files written.
pub fn accept(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut accepted = Vec::new();
    for (pinned, pending) in pending(dir)? {
        std::fs::rename(&pending, &pinned).map_err(|err| {
            format!(
                "cannot move {} to {}: {err}",
                pending.display(),
                pinned.display()
            )
        })?;
        accepted.push(pinned);
    }
    Ok(accepted)
}

fn with_pending(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(PENDING);
    PathBuf::from(name)
}

/// A line diff: `-` lines only in `old`, `+` lines only in `new`, in order, a removal before
/// the addition that takes its place (longest common subsequence; the snapshots are a few dozen
/// lines).
fn diff(old: &str, new: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("-{}\n", a[i]));
            i += 1;
        } else {
            out.push_str(&format!("+{}\n", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_snapshot_waits_for_review_and_accept_pins_it() {
        let dir = std::env::temp_dir().join(format!("mc-snapshots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let missing = pin(&dir, "b.recall.md", "one\ntwo\n").unwrap_err();
        assert!(missing.contains("no recall is pinned"), "{missing}");
        assert!(review(&dir).unwrap().contains("+one\n+two\n"));
        assert_eq!(accept(&dir).unwrap(), [dir.join("b.recall.md")]);
        pin(&dir, "b.recall.md", "one\ntwo\n").unwrap();
        let changed = pin(&dir, "b.recall.md", "one\nthree\n").unwrap_err();
        assert!(changed.contains("-two\n+three\n"), "{changed}");
        assert_eq!(
            std::fs::read_to_string(dir.join("b.recall.md")).unwrap(),
            "one\ntwo\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
