//! The `ripple invariants` report (invariant diffs, 003): per point, the version
//! invariants of the chosen versions and the invariant churns between consecutive ones,
//! each churn with the lines that cause it; text leads with the churns.

use std::fmt::Write;

use ripple_analyses::invariants::{At, ChurnLines, InvariantDiff, SourceLine, VersionResult};
use serde::{Deserialize, Serialize};

/// The JSON document.
#[derive(Debug, Serialize, Deserialize)]
pub struct InvariantsView {
    pub schema: u32,
    /// The versions as given, in order (churns name them by position, from 1).
    pub versions: Vec<String>,
    pub points: Vec<PointView>,
    pub graph: GraphView,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct GraphView {
    pub nodes: usize,
    pub shared_nodes: usize,
    pub solver_queries: u64,
    /// `wall-clock cut-off` when that, not the work budget, stopped some query: the
    /// result may then differ on another machine.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::interned::optional"
    )]
    pub stopped_by: Option<crate::interned::Word>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct PointView {
    pub function: String,
    /// `entry`, `exit`, or `line N`.
    pub at: String,
    /// The point's `file:line` in the first chosen version.
    pub line: Option<String>,
    /// Its `file:line` in the last chosen version that has it, when that is another
    /// (the new version's exit, which a review reads); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_line: Option<String>,
    pub version_invariants: Vec<String>,
    /// Per chosen version: the invariants proved, or why none are given.
    pub invariants: Vec<VersionInvariants>,
    pub churns: Vec<ChurnView>,
    /// Loops whose iterations were abstracted (what holds after any number of them).
    pub loops_abstracted: Vec<String>,
    /// Loops unrolled (`--unroll K`) where a path was cut at the bound: when any, what is
    /// said of this point holds on the executions within the bound only.
    pub loops_unrolled: Vec<String>,
    /// The bound of the unrolling when `loops_unrolled` is not empty (the point's
    /// invariants and churns are then bounded, not proved for every execution).
    pub bounded: Option<u32>,
    /// Other over-approximations made at the point, in words.
    pub notes: Vec<String>,
}

impl PointView {
    /// Whether some chosen version was left undecided here.
    pub fn undecided(&self) -> bool {
        self.invariants.iter().any(|v| v.status == "undecided")
    }

    /// Nothing to report: no churn and no undecided version.
    pub fn is_quiet(&self) -> bool {
        self.churns.is_empty() && !self.undecided()
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct VersionInvariants {
    pub version: usize,
    /// `proved`, `undecided` or `absent`.
    #[serde(deserialize_with = "crate::interned::one")]
    pub status: crate::interned::Word,
    pub invariants: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ChurnView {
    pub from: usize,
    pub to: usize,
    pub removed: Vec<String>,
    pub added: Vec<String>,
    pub lines: LinesView,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct LinesView {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub shared: Vec<String>,
}

fn line_text(l: &SourceLine) -> String {
    format!("{}:{}", l.file, l.line)
}

fn lines_view(l: &ChurnLines) -> LinesView {
    LinesView {
        added: l.added.iter().map(line_text).collect(),
        removed: l.removed.iter().map(line_text).collect(),
        shared: l.shared.iter().map(line_text).collect(),
    }
}

/// Builds the view; `chosen` are the positions (from 0) of the versions analysed.
/// `unroll`: the bound loops were unrolled to, if they were (`--unroll`).
pub fn invariants_view(
    diff: &InvariantDiff,
    names: &[String],
    chosen: &[usize],
    unroll: Option<u32>,
) -> InvariantsView {
    let points = diff
        .points
        .iter()
        .map(|p| PointView {
            function: p.function.clone(),
            at: match p.at {
                At::Entry => "entry".into(),
                At::Exit => "exit".into(),
                At::Line(l) => format!("line {l}"),
            },
            line: p.lines.iter().flatten().next().map(line_text),
            last_line: {
                let mut lines = p.lines.iter().flatten().map(line_text);
                let first = lines.next();
                lines
                    .next_back()
                    .filter(|last| Some(last) != first.as_ref())
            },
            version_invariants: p.version_invariants.clone(),
            invariants: p
                .invariants
                .iter()
                .zip(chosen)
                .map(|(r, &v)| match r {
                    VersionResult::Proved(list) => VersionInvariants {
                        version: v + 1,
                        status: "proved",
                        invariants: list.clone(),
                        reason: None,
                    },
                    VersionResult::Undecided(why) => VersionInvariants {
                        version: v + 1,
                        status: "undecided",
                        invariants: Vec::new(),
                        reason: Some(why.clone()),
                    },
                    VersionResult::Absent => VersionInvariants {
                        version: v + 1,
                        status: "absent",
                        invariants: Vec::new(),
                        reason: None,
                    },
                })
                .collect(),
            churns: p
                .churns
                .iter()
                .map(|c| ChurnView {
                    from: c.from + 1,
                    to: c.to + 1,
                    removed: c.removed.clone(),
                    added: c.added.clone(),
                    lines: lines_view(&c.lines),
                })
                .collect(),
            loops_abstracted: p.loops.iter().map(line_text).collect(),
            loops_unrolled: p.unrolled.iter().map(line_text).collect(),
            bounded: unroll.filter(|_| !p.unrolled.is_empty()),
            notes: p.notes.clone(),
        })
        .collect();
    InvariantsView {
        schema: crate::SCHEMA_VERSION,
        versions: names.to_vec(),
        points,
        graph: GraphView {
            nodes: diff.nodes,
            shared_nodes: diff.shared_nodes,
            solver_queries: diff.queries,
            stopped_by: diff.stopped_by_clock.then_some("wall-clock cut-off"),
        },
    }
}

pub fn render_json(view: &InvariantsView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Text: the churns first (what changed, and why), then the version invariants; with
/// `all`, every version's invariants too. Points without churn are counted, not listed,
/// unless `all`.
pub fn render_text(view: &InvariantsView, all: bool) -> String {
    let mut out = String::new();
    let versions = view
        .versions
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{}={v}", i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(out, "versions: {versions}");
    let mut quiet = 0;
    // Points left undecided with nothing else to say: one line for all of them.
    let mut undecided: Vec<String> = Vec::new();
    for p in &view.points {
        if p.is_quiet() && !all {
            quiet += 1;
            continue;
        }
        let said = p
            .churns
            .iter()
            .any(|c| !(c.removed.is_empty() && c.added.is_empty()))
            || !p.version_invariants.is_empty();
        if !all && !said {
            let mut reasons: Vec<&str> = p
                .invariants
                .iter()
                .filter(|v| v.status == "undecided")
                .filter_map(|v| v.reason.as_deref())
                .collect();
            reasons.dedup();
            undecided.push(format!("{} ({})", p.function, reasons.join("; ")));
            continue;
        }
        let mut place = p.line.as_deref().unwrap_or("?").to_string();
        if let Some(last) = &p.last_line {
            let version = p
                .invariants
                .iter()
                .rev()
                .find(|v| v.status != "absent")
                .map_or(0, |v| v.version);
            place = format!("{place}; {last} in {version}");
        }
        let _ = writeln!(out, "\n{} at {} ({place})", p.function, p.at);
        // A churn with nothing added or removed says nothing.
        for c in p
            .churns
            .iter()
            .filter(|c| !(c.removed.is_empty() && c.added.is_empty()))
        {
            let _ = writeln!(out, "  churn {} -> {}:", c.from, c.to);
            for r in &c.removed {
                let _ = writeln!(out, "    - {r}");
            }
            for a in &c.added {
                let _ = writeln!(out, "    + {a}");
            }
            let mut because = Vec::new();
            if !c.lines.added.is_empty() {
                because.push(format!("added {}", c.lines.added.join(", ")));
            }
            if !c.lines.removed.is_empty() {
                because.push(format!("removed {}", c.lines.removed.join(", ")));
            }
            if !c.lines.shared.is_empty() {
                because.push(format!("shared {}", c.lines.shared.join(", ")));
            }
            if !because.is_empty() {
                let _ = writeln!(out, "    because of lines: {}", because.join("; "));
            }
        }
        if !p.version_invariants.is_empty() {
            let _ = writeln!(
                out,
                "  version invariants: {}",
                p.version_invariants.join(", ")
            );
        }
        for v in &p.invariants {
            match v.status {
                "undecided" => {
                    let _ = writeln!(
                        out,
                        "  version {}: undecided ({})",
                        v.version,
                        v.reason.as_deref().unwrap_or("")
                    );
                }
                "absent" if all => {
                    let _ = writeln!(out, "  version {}: no such point", v.version);
                }
                "proved" if all => {
                    let _ = writeln!(out, "  version {}: {}", v.version, v.invariants.join(", "));
                }
                _ => {}
            }
        }
        for note in &p.notes {
            let _ = writeln!(out, "  note: {note}");
        }
        if !p.loops_abstracted.is_empty() {
            let _ = writeln!(
                out,
                "  loops abstracted (any number of iterations): {}",
                p.loops_abstracted.join(", ")
            );
        }
        if let Some(k) = p.bounded {
            let _ = writeln!(
                out,
                "  bounded: loops unrolled, paths cut past {k} iteration(s) of: {}; what is said here holds only on executions within that bound",
                p.loops_unrolled.join(", ")
            );
        }
    }
    if quiet > 0 {
        let _ = writeln!(
            out,
            "\n{quiet} point(s) without churn (--all lists their invariants)"
        );
    }
    if !undecided.is_empty() {
        let _ = writeln!(
            out,
            "{}{} point(s) undecided, with no churn found (--all shows what was abstracted): {}",
            if quiet > 0 { "" } else { "\n" },
            undecided.len(),
            undecided.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "\ngraph: {} nodes, {} shared by several versions; {} solver queries",
        view.graph.nodes, view.graph.shared_nodes, view.graph.solver_queries
    );
    if view.graph.stopped_by.is_some() {
        let _ = writeln!(
            out,
            "stopped by the wall-clock cut-off, not the work budget: the points left undecided may be decided on another machine"
        );
    }
    out
}

/// Markdown, for `ripple diff --format markdown`: a table of the churns (nothing when
/// there is none), and the points left undecided counted.
pub fn render_markdown(view: &InvariantsView) -> String {
    use crate::markdown::code;
    let mut out = String::new();
    let churns: Vec<(&PointView, &ChurnView)> = view
        .points
        .iter()
        .flat_map(|p| p.churns.iter().map(move |c| (p, c)))
        .collect();
    if !churns.is_empty() {
        let _ = writeln!(out, "#### Invariant churns\n");
        let _ = writeln!(
            out,
            "| function | at | holds only in old | holds only in new | because of lines |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|");
        for (p, c) in churns {
            let list =
                |items: &[String]| items.iter().map(|i| code(i)).collect::<Vec<_>>().join(", ");
            let mut lines: Vec<String> = c.lines.added.clone();
            lines.extend(c.lines.removed.iter().cloned());
            lines.extend(c.lines.shared.iter().cloned());
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(&p.function),
                p.at,
                list(&c.removed).replace('|', "\\|"),
                list(&c.added).replace('|', "\\|"),
                lines.join(", ")
            );
        }
        out.push('\n');
    }
    let undecided = view.points.iter().filter(|p| p.undecided()).count();
    if undecided > 0 {
        let _ = writeln!(
            out,
            "_Invariants: {undecided} changed function(s) left undecided within the budget._\n"
        );
    }
    out
}
