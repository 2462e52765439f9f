//! The benchmark's figures as Markdown tables and an SVG plot, for reports.

use std::fmt::Write as _;

use super::metrics::Metrics;
use super::question_kind::QuestionKind;
use super::run::BenchmarkRun;

/// A share as a percentage with no decimals (`83%`).
fn percent(value: f64) -> String {
    format!("{:.0}%", value * 100.0)
}

/// One row per backend: recall@1, @5, @10, MRR and the unanswerable questions that returned
/// nothing, over the [headline](BenchmarkRun::headline) questions (every question of version
/// 1; LoCoMo's categories 1 to 4).
pub fn overall_table(runs: &[&BenchmarkRun]) -> String {
    let mut out = String::from(
        "| backend | recall@1 | recall@5 | recall@10 | MRR | unanswerable: nothing returned |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for run in runs {
        let m = run.headline();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} | {} |",
            run.backend,
            percent(m.recall_at_1),
            percent(m.recall_at_5),
            percent(m.recall_at_10),
            m.mrr,
            m.unanswerable_empty.map_or("-".into(), percent)
        );
    }
    out
}

/// One row per question kind of the runs' data set, one column per backend: recall@5 and MRR
/// (for tool-only questions, which nothing answers, the share that returned nothing).
pub fn by_kind_table(runs: &[&BenchmarkRun]) -> String {
    let mut out = String::from("| kind | questions |");
    for run in runs {
        let _ = write!(out, " {} |", run.backend);
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|".repeat(runs.len()));
    out.push('\n');
    let kinds = runs.first().map_or(&[][..], |run| run.dataset.kinds());
    for &kind in kinds {
        let Some(first) = runs.first() else { break };
        let _ = write!(
            out,
            "| {} | {} |",
            kind.name(),
            first.of_kind(kind).questions
        );
        for run in runs {
            let _ = write!(out, " {} |", cell(&run.of_kind(kind)));
        }
        out.push('\n');
    }
    out
}

/// `r@5 / MRR`, or for a kind nothing answers, `nothing n%`.
fn cell(m: &Metrics) -> String {
    if m.answerable == 0 {
        return format!(
            "nothing {}",
            m.unanswerable_empty.map_or("-".into(), percent)
        );
    }
    format!("{} / {:.2}", percent(m.recall_at_5), m.mrr)
}

/// A heatmap of recall@5 (and, for tool-only questions, the share returning nothing): one row
/// per backend, one column per kind and one for all questions, each cell shaded by its value
/// and labelled with it.
pub fn svg(runs: &[&BenchmarkRun]) -> String {
    const CELL_W: usize = 86;
    const CELL_H: usize = 30;
    const LEFT: usize = 170;
    const TOP: usize = 118;
    // One column per kind, then all questions (`None`).
    let kinds = runs.first().map_or(&[][..], |run| run.dataset.kinds());
    let columns: Vec<(&str, Option<QuestionKind>)> = kinds
        .iter()
        .map(|&kind| (kind.name(), Some(kind)))
        .chain(std::iter::once(("all", None)))
        .collect();
    let value = |run: &BenchmarkRun, column: Option<QuestionKind>| match column {
        None => Some(run.overall().recall_at_5),
        Some(kind) => {
            let m = run.of_kind(kind);
            if m.answerable == 0 {
                m.unanswerable_empty
            } else {
                Some(m.recall_at_5)
            }
        }
    };
    let width = LEFT + CELL_W * columns.len() + 80;
    let height = TOP + CELL_H * runs.len() + 48;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
    );
    let version = runs.first().map_or(0, |r| r.version);
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Recall@5 by question kind (recall benchmark v{version})</text>"
    );
    // Column names rise to the right from their column's middle, clear of the cells.
    for (i, (name, _)) in columns.iter().enumerate() {
        let x = LEFT + i * CELL_W + CELL_W / 3;
        let _ = writeln!(
            out,
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"start\" transform=\"rotate(-35 {x} {})\">{name}</text>",
            TOP - 8,
            TOP - 8
        );
    }
    for (row, run) in runs.iter().enumerate() {
        let y = TOP + row * CELL_H;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            LEFT - 8,
            y + CELL_H / 2 + 4,
            escape(&run.backend)
        );
        for (i, (_, column)) in columns.iter().enumerate() {
            let x = LEFT + i * CELL_W;
            let (fill, label, ink) = match value(run, *column) {
                Some(v) => (
                    shade(v),
                    percent(v),
                    if v > 0.55 { "#ffffff" } else { "#1a1a1a" },
                ),
                None => ("#eeeeee".to_owned(), "-".to_owned(), "#1a1a1a"),
            };
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#ffffff\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{label}</text>",
                CELL_W,
                CELL_H,
                x + CELL_W / 2,
                y + CELL_H / 2 + 4
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"11\" fill=\"#555555\">Each cell: the share of answering events in a backend's first 5 entries, averaged over the kind's questions.</text>",
        TOP + CELL_H * runs.len() + 22
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"11\" fill=\"#555555\">tool-only: nothing in text answers these; the cell is the share that returned nothing.</text>",
        TOP + CELL_H * runs.len() + 38
    );
    out.push_str("</svg>\n");
    out
}

/// White (0) to dark blue (1).
fn shade(value: f64) -> String {
    let v = value.clamp(0.0, 1.0);
    let channel = |from: f64, to: f64| (from + (to - from) * v).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        channel(247.0, 8.0),
        channel(251.0, 48.0),
        channel(255.0, 107.0)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
