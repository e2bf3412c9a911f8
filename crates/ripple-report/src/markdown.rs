//! The statement-level impact report as Markdown, for a pull-request comment: the
//! verdict first, then the counts by distance, where the impact spreads, what was proved
//! equivalent, the impacted functions nearest first with one shortest chain each, and
//! the over-approximations. The full list of lines is in the JSON or SARIF report.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::impact_lines::{ImpactLinesView, ImpactedLineView};

/// Impacted functions listed (nearest first); the count of the others follows.
const MAX_FUNCTIONS: usize = 20;

/// Text for a table cell: pipes escaped, in code.
pub(crate) fn code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'").replace('|', "\\|"))
}

/// A chain for a table cell, each step in code: the first and last steps of a long one,
/// the number left out between them (the JSON has it whole).
fn chain_cells(chain: &[String]) -> Vec<String> {
    use crate::impact_lines::{CHAIN_HEAD, CHAIN_TAIL};
    if chain.len() <= CHAIN_HEAD + CHAIN_TAIL + 1 {
        return chain.iter().map(|c| code(c)).collect();
    }
    let left_out = chain.len() - CHAIN_HEAD - CHAIN_TAIL;
    chain[..CHAIN_HEAD]
        .iter()
        .map(|c| code(c))
        .chain([format!("… {left_out} steps …")])
        .chain(chain[chain.len() - CHAIN_TAIL..].iter().map(|c| code(c)))
        .collect()
}

pub fn render(view: &ImpactLinesView) -> String {
    format!(
        "### ripple: impact of the change\n\n{}",
        render_section(view)
    )
}

/// The impact report without its heading (a section of `ripple diff`'s report).
pub fn render_section(view: &ImpactLinesView) -> String {
    let mut out = String::new();
    let s = &view.summary;
    if let Some(incomplete) = &view.incomplete {
        let _ = writeln!(out, "> **Warning:** {incomplete}\n");
    }
    if view.changed_lines.is_empty() && view.impacted_lines.is_empty() {
        let _ = writeln!(out, "No changed statement: nothing impacted.");
        return out;
    }
    if view.proved_equivalent {
        let _ = writeln!(
            out,
            "**The change is proved equivalent**: the changed statements, or the functions holding them, do what the old ones did; nothing is impacted.\n"
        );
    }
    let _ = write!(
        out,
        "**{} changed line(s); {} impacted line(s){} in {} function(s)**",
        s.changed_lines,
        s.impacted_lines,
        view.version_split(),
        s.impacted_functions.len()
    );
    if s.dcia_impacted_lines > s.impacted_lines {
        let _ = write!(
            out,
            " ({} without the proved equivalences)",
            s.dcia_impacted_lines
        );
    }
    if let Some(d) = s.depth {
        let _ = write!(out, ", within distance {d} (a prefix of the full impact)");
    }
    out.push_str("\n\n");
    if !s.by_distance.is_empty() {
        let _ = writeln!(out, "| distance | lines | functions first impacted |");
        let _ = writeln!(out, "|---:|---:|---:|");
        // The nearest distances one per row, the far tail folded into one, as in the
        // text report.
        let rows = crate::impact_lines::DISTANCE_ROWS;
        let shown = if s.by_distance.len() <= rows {
            s.by_distance.len()
        } else {
            rows - 1
        };
        for c in &s.by_distance[..shown] {
            let _ = writeln!(out, "| {} | {} | {} |", c.distance, c.lines, c.functions);
        }
        if let (Some(first), Some(last)) = (s.by_distance.get(shown), s.by_distance.last()) {
            let rest = &s.by_distance[shown..];
            let _ = writeln!(
                out,
                "| {} to {} | {} | {} |",
                first.distance,
                last.distance,
                rest.iter().map(|c| c.lines).sum::<usize>(),
                rest.iter().map(|c| c.functions).sum::<usize>()
            );
        }
        out.push('\n');
    }
    if let Some((title, hubs)) = crate::impact_lines::hubs_worth_naming(s) {
        let _ = writeln!(out, "Where it spreads ({title}):\n");
        for (h, lines) in hubs {
            let _ = write!(out, "- {} {}: {lines} line(s)", h.version, code(&h.name));
            if lines == h.lines {
                let _ = write!(out, " in {} function(s)", h.functions);
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if !view.equivalences.is_empty() {
        let _ = writeln!(out, "Proved equivalent (no source of impact):\n");
        for e in &view.equivalences {
            let join = |l: &[u32]| l.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let _ = writeln!(
                out,
                "- {} in {}: old {} = new {} ({})",
                e.what,
                code(&e.function),
                code(&format!("{}:{}", e.old_file, join(&e.old_lines))),
                code(&format!("{}:{}", e.new_file, join(&e.new_lines))),
                e.proof
            );
        }
        out.push('\n');
    }
    // Per function, its nearest line.
    let mut nearest: BTreeMap<&str, (&ImpactedLineView, usize)> = BTreeMap::new();
    for l in &view.impacted_lines {
        let entry = nearest.entry(l.function.as_str()).or_insert((l, 0));
        entry.1 += 1;
        if (l.distance, l.version, l.line) < (entry.0.distance, entry.0.version, entry.0.line) {
            entry.0 = l;
        }
    }
    let mut functions: Vec<(&ImpactedLineView, usize)> = nearest.into_values().collect();
    functions.sort_by(|(a, _), (b, _)| (a.distance, &a.function).cmp(&(b.distance, &b.function)));
    if !functions.is_empty() {
        let _ = writeln!(
            out,
            "| function | distance | lines | why (shortest chain) |"
        );
        let _ = writeln!(out, "|---|---:|---:|---|");
        for (l, count) in functions.iter().take(MAX_FUNCTIONS) {
            let chain = chain_cells(&view.chain(l));
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                code(&l.function),
                l.distance,
                count,
                chain.join(" ← ")
            );
        }
        if functions.len() > MAX_FUNCTIONS {
            let _ = writeln!(
                out,
                "\n{} more function(s); every line is in the JSON or SARIF report.",
                functions.len() - MAX_FUNCTIONS
            );
        }
        out.push('\n');
    }
    if !view.approximations.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Over-approximations ({})</summary>\n",
            view.approximations.len()
        );
        for a in &view.approximations {
            let _ = writeln!(out, "- {a}");
        }
        let _ = writeln!(out, "\n</details>");
    }
    out
}
