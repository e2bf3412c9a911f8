//! The `ripple impact` report at statement level (the default level): the lines DCIA
//! (000, section 3.3) finds impacted outside the changed lines, in both versions, each
//! with the chain of dependences that explains it, and the changed lines themselves.
//!
//! A line is impacted when some IR node on it is in IMPACTEDNODE; when several nodes of
//! one line are, the explanation shown is the shortest chain (then the first node), so
//! the report does not depend on hash order. Lines of system headers and nodes without
//! source text (synthetic spans) are left out. Lines are sorted by version (old first),
//! file and line; the text rendering groups them by function.

use std::collections::BTreeMap;
use std::fmt::Write;

use ripple_analyses::dcia::{DciaResult, VersionImpact};
use ripple_analyses::sem_equiv::StatementEquivalences;
use ripple_ir::Program;
use serde::{Deserialize, Serialize};

/// The statement-level impact report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ImpactLinesView {
    pub schema: u32,
    pub old: String,
    pub new: String,
    #[serde(deserialize_with = "crate::interned::one")]
    pub level: crate::interned::Word,
    /// Impacted lines that hold no changed statement, sorted by version, file, line.
    pub impacted_lines: Vec<ImpactedLineView>,
    /// The steps of the impacted lines' chains after their first, shared: chains that
    /// end alike (most do: they meet on their way back to the change) hold one copy of
    /// their common end. A step's `next` is the index of the step after it (always a
    /// smaller one), none for the last (the changed statement).
    #[serde(default)]
    pub chain_steps: Vec<ChainStep>,
    /// Lines holding a statement not in MAPPED (SYNT-CHANGED), sorted.
    pub changed_lines: Vec<LineView>,
    /// Changes proved to do what the code they replace did (SEM-DCIA's statement
    /// equivalences): no source of impact.
    pub equivalences: Vec<EquivalenceView>,
    /// Whether every changed line is covered by a proved equivalence and nothing is
    /// impacted: the change is proved not to alter behaviour.
    pub proved_equivalent: bool,
    /// With `--semantic` or `--level K`: how far the whole-function proofs went.
    pub semantic: Option<SemanticView>,
    pub summary: ImpactLinesSummary,
    /// Where the analysis over-approximated: constructs the frontend could not model and
    /// memory regions kept context-insensitive; each makes the impact larger, never
    /// smaller.
    /// Set when code could not be read: the report's first line, saying why the result
    /// is over-approximated.
    pub incomplete: Option<String>,
    pub approximations: Vec<String>,
}

impl ImpactLinesView {
    /// How the impacted lines split between the versions, as the text says it after
    /// their count (empty when all are of one version): a line both versions hold
    /// counts once in each, as each version's list (and each SARIF result) has it.
    pub fn version_split(&self) -> String {
        let old = self
            .impacted_lines
            .iter()
            .filter(|l| l.version == "old")
            .count();
        let new = self.impacted_lines.len() - old;
        if old == 0 || new == 0 {
            String::new()
        } else {
            format!(" ({old} of the old version, {new} of the new)")
        }
    }

    /// The chain of an impacted line: the line first (`file:line`), then each
    /// dependence back to the changed statement (last, ending in ` changed`).
    pub fn chain(&self, line: &ImpactedLineView) -> Vec<String> {
        let mut chain = vec![format!("{}:{}", line.file, line.line)];
        let mut at = line.via;
        while let Some(step) = at.and_then(|i| self.chain_steps.get(i as usize)) {
            chain.push(step.step.clone());
            at = step.next;
        }
        chain
    }

    /// The last step of an impacted line's chain: the changed statement it starts from.
    pub fn chain_origin(&self, line: &ImpactedLineView) -> Option<&str> {
        let mut at = self.chain_steps.get(line.via? as usize)?;
        while let Some(next) = at.next.and_then(|i| self.chain_steps.get(i as usize)) {
            at = next;
        }
        Some(&at.step)
    }

    /// Whether a wall-clock cut-off, not a work budget, stopped some proof of the impact:
    /// another run may then give another one.
    pub fn machine_dependent(&self) -> bool {
        self.approximations
            .iter()
            .any(|a| a.contains("wall-clock cut-off"))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineView {
    /// `old` or `new`.
    #[serde(deserialize_with = "crate::interned::one")]
    pub version: crate::interned::Word,
    pub file: String,
    pub line: u32,
}

/// Why a version's memory was abstracted by unification, as a report line.
fn unification_note(version: &str, fallback: ripple_analyses::dcia::PointsToFallback) -> String {
    use ripple_analyses::dcia::PointsToFallback as Fallback;
    let why = match fallback {
        Fallback::Chosen => "as asked (--points-to unification)".to_string(),
        Fallback::AboveNodeLimit { nodes, limit } => format!(
            "the program has {nodes} IR nodes, above the {limit} up to which the inclusion-based analysis runs (--points-to inclusion to run it anyway)"
        ),
        Fallback::PastWorkLimit { limit } => format!(
            "the inclusion-based analysis passed its budget of {limit} steps (--points-to inclusion to run it without one)"
        ),
    };
    format!(
        "{version}: memory regions by unification points-to, {why}: objects that may alias one pointer share a region, so impact through memory is coarser"
    )
}

/// The anytime levels of the whole-function proofs (000 Alg. 1) a run went through.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SemanticView {
    /// The last level run (call distance from the change).
    pub level: usize,
    pub levels: Vec<SemanticLevelView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SemanticLevelView {
    pub level: usize,
    pub tried: usize,
    pub proved: usize,
    /// Functions of the level left untried (past the per-level limit).
    pub skipped: usize,
}

/// A change proved equivalent: the old and new lines, in the function's file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct EquivalenceView {
    pub function: String,
    pub old_file: String,
    pub old_lines: Vec<u32>,
    pub new_file: String,
    pub new_lines: Vec<u32>,
    /// `statements` (the new statements end in the old ones' state) or `argument N` (of
    /// the call on the line, from 1: the new expression has the old value).
    pub what: String,
    /// How it was established: `solver`.
    #[serde(deserialize_with = "crate::interned::one")]
    pub proof: crate::interned::Word,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ImpactedLineView {
    #[serde(deserialize_with = "crate::interned::one")]
    pub version: crate::interned::Word,
    pub file: String,
    pub line: u32,
    pub function: String,
    /// Where the line's chain goes after the line itself: the index of its second step
    /// in [`ImpactLinesView::chain_steps`] ([`ImpactLinesView::chain`] follows it, e.g.
    /// to `["a.c:41", "delim (param of print_minor_vers)", "a.c:14 call argument",
    /// "a.c:13 changed"]`); none for a chain of the line alone.
    pub via: Option<u32>,
    /// The dependence distance from the nearest changed statement: the number of steps
    /// of the chain (the shortest found; 1 for a direct dependent).
    pub distance: u32,
    /// The line's source text, when the sources were read again for the text report
    /// (shown under its chain).
    #[serde(skip)]
    pub text: Option<String>,
}

/// A step of the shared chains: its text, and the index of the step after it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ChainStep {
    pub step: String,
    pub next: Option<u32>,
}

/// Shares the chains of `lines` (each the line first): every line's `via` is set to the
/// second step of its chain in the returned table, which holds each distinct end of a
/// chain once. Steps come before the steps that point to them, so the table is the same
/// for the same lines.
fn share_chains(lines: &mut [ImpactedLineView], chains: &[Vec<String>]) -> Vec<ChainStep> {
    let mut steps: Vec<ChainStep> = Vec::new();
    let mut known: rustc_hash::FxHashMap<(&str, Option<u32>), u32> = Default::default();
    for (line, chain) in lines.iter_mut().zip(chains) {
        let mut next = None;
        for step in chain.iter().skip(1).rev() {
            let id = *known.entry((step.as_str(), next)).or_insert_with(|| {
                steps.push(ChainStep {
                    step: step.clone(),
                    next,
                });
                u32::try_from(steps.len() - 1).unwrap_or(u32::MAX)
            });
            next = Some(id);
        }
        line.via = next;
    }
    steps
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ImpactLinesSummary {
    pub changed_lines: usize,
    pub impacted_lines: usize,
    /// The impacted lines of plain DCIA, without the equivalences (SEM-DCIA's reduction
    /// is the difference).
    pub dcia_impacted_lines: usize,
    /// Functions with at least one impacted line (by name, both versions), sorted.
    pub impacted_functions: Vec<String>,
    /// Impacted lines and functions at each distance, nearest first.
    pub by_distance: Vec<DistanceCount>,
    /// Set with `--depth N`: the report holds only the lines within distance N, a
    /// prefix of the full impact (every line nearer than N is in it).
    pub depth: Option<u32>,
    /// Where the impact spreads: per version, the memory regions and "whether f
    /// returns" through which the most impacted lines are reached only (lower bounds),
    /// largest first.
    pub hubs: Vec<HubView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct HubView {
    #[serde(deserialize_with = "crate::interned::one")]
    pub version: crate::interned::Word,
    pub name: String,
    /// Impacted lines reached only through it.
    pub lines: usize,
    pub functions: usize,
    /// Impacted lines whose shortest chain passes through it.
    pub chain_lines: usize,
}

/// The hubs a report names, with what their counts mean: those through which a tenth
/// of the impact or more passes only through them; failing that (no way is the only
/// one, as when most memory is one class), the three through which most shortest
/// chains pass. Each with the count shown.
pub fn hubs_worth_naming(s: &ImpactLinesSummary) -> Option<(&'static str, Vec<(&HubView, usize)>)> {
    let worth = (s.impacted_lines / 10).max(2);
    let only: Vec<(&HubView, usize)> = s
        .hubs
        .iter()
        .filter(|h| h.lines >= worth)
        .map(|h| (h, h.lines))
        .collect();
    if !only.is_empty() {
        return Some(("impacted lines reached only through it", only));
    }
    let mut ways: Vec<(&HubView, usize)> = s
        .hubs
        .iter()
        .filter(|h| h.chain_lines >= worth)
        .map(|h| (h, h.chain_lines))
        .collect();
    ways.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.name.cmp(&b.0.name)));
    ways.truncate(3);
    (!ways.is_empty()).then_some((
        "impacted lines whose shortest chain passes through it; none is reached through one only",
        ways,
    ))
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct DistanceCount {
    pub distance: u32,
    pub lines: usize,
    pub functions: usize,
}

/// Builds the report from the DCIA result on both versions; `depth`: keep only the
/// lines within that dependence distance.
pub fn impact_lines_view(
    labels: (&str, &str),
    old: &Program,
    new: &Program,
    result: &DciaResult,
    equivalences: &StatementEquivalences,
    depth: Option<u32>,
) -> ImpactLinesView {
    let mut changed_lines = Vec::new();
    let mut impacted_lines = Vec::new();
    for (version, program, impact) in [("old", old, &result.old), ("new", new, &result.new)] {
        let changed = changed_of(version, program, impact);
        impacted_lines.extend(impacted_of(version, program, impact, &changed));
        changed_lines.extend(changed);
    }
    changed_lines.sort();
    changed_lines.dedup();
    if let Some(depth) = depth {
        impacted_lines.retain(|(l, _)| l.distance <= depth);
    }
    impacted_lines.sort_by(|(a, _), (b, _)| {
        (a.version == "new", &a.file, a.line).cmp(&(b.version == "new", &b.file, b.line))
    });
    let (mut impacted_lines, chains): (Vec<ImpactedLineView>, Vec<Vec<String>>) =
        impacted_lines.into_iter().unzip();
    let chain_steps = share_chains(&mut impacted_lines, &chains);
    drop(chains);
    let mut impacted_functions: Vec<String> =
        impacted_lines.iter().map(|l| l.function.clone()).collect();
    impacted_functions.sort();
    impacted_functions.dedup();
    let mut approximations = Vec::new();
    let mut incomplete = None;
    let loose = ripple_analyses::unread::changed_unread_declarations(old, new);
    if !loose.is_empty() {
        incomplete = Some(format!(
            "incomplete: text that could not be read changed outside functions ({}): what it declares (a type, a prototype) may differ in ways this report does not follow",
            loose.join(", ")
        ));
    }
    for (version, program, impact) in [("old", old, &result.old), ("new", new, &result.new)] {
        let unread = program
            .approximations
            .iter()
            .filter(|a| a.kind == ripple_ir::ApproximationKind::ParseError)
            .count();
        if unread > 0 && incomplete.is_none() {
            incomplete = Some(format!(
                "incomplete: {unread} region(s) of the {version} version could not be read; each is a havoc (it may read and write everything reachable), so impact through it is over-reported"
            ));
        }
        if !program.approximations.is_empty() {
            approximations.push(format!(
                "{version}: {} construct(s) the IR does not model are havocs (see ripple stats)",
                program.approximations.len()
            ));
        }
        let unmodelled = ripple_analyses::dcia::unmodelled_library_functions(program);
        if let [first, rest @ ..] = unmodelled.as_slice() {
            let shown: Vec<&str> = rest.iter().take(4).map(String::as_str).collect();
            let more = match rest.len().saturating_sub(4) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            let shown = std::iter::once(first.as_str())
                .chain(shown)
                .collect::<Vec<_>>()
                .join(", ");
            approximations.push(format!(
                "{version}: {} library function(s) without a model ({shown}{more}) are taken to read and write all they are given and the library's state, to call back what they are given, and to be able not to return: a changed argument reaches what runs after the call",
                unmodelled.len()
            ));
        }
        if let Some(fallback) = impact.points_to_fallback {
            approximations.push(unification_note(version, fallback));
        }
        if let [first, rest @ ..] = impact.fields_merged.as_slice() {
            let others = match rest.len() {
                0 => String::new(),
                n => format!(" and {n} other object(s)"),
            };
            approximations.push(format!(
                "{version}: points-to keeps apart the members of an object's type and at most 32 other offsets (elements of arrays of numbers, fields of heap blocks); {first}{others} had more addressed, and their further offsets share one cell (what is stored at one may be read at another)"
            ));
        }
        if impact.global_regions > 0 {
            approximations.push(format!(
                "{version}: the {} memory regions most functions use are context-insensitive to bound the dependence graph: a write of one anywhere reaches every read of it",
                impact.global_regions
            ));
        }
    }
    // A library: its client's calls are the program's entry points.
    if !new.client_functions().is_empty() {
        approximations.push(
            "a library (no main): a client may call its functions in any order with the objects it was given, so what one leaves in memory reaches what every one reads; what the client does with returned values is its own code's, not followed"
                .to_string(),
        );
    }
    if equivalences.not_compared > 0 {
        approximations.push(format!(
            "{} changed region(s) were not compared for equivalence (past the first {}, or past the solver work of {} s the comparisons share); each is a source of impact",
            equivalences.not_compared,
            ripple_analyses::sem_equiv::MAX_REGIONS,
            ripple_analyses::sem_equiv::STAGE_WORK.as_secs()
        ));
    }
    let equivalences = equivalence_views(old, new, equivalences);
    let proved_equivalent = !equivalences.is_empty()
        && impacted_lines.is_empty()
        && changed_lines.iter().all(|l| {
            equivalences.iter().any(|e| {
                let (file, lines) = match l.version {
                    "old" => (&e.old_file, &e.old_lines),
                    _ => (&e.new_file, &e.new_lines),
                };
                *file == l.file && lines.contains(&l.line)
            })
        });
    ImpactLinesView {
        schema: crate::IMPACT_SCHEMA_VERSION,
        equivalences,
        proved_equivalent,
        semantic: None,
        incomplete,
        approximations,
        old: labels.0.to_string(),
        new: labels.1.to_string(),
        level: "statement",
        summary: ImpactLinesSummary {
            changed_lines: changed_lines.len(),
            impacted_lines: impacted_lines.len(),
            dcia_impacted_lines: impacted_lines.len(),
            impacted_functions,
            by_distance: by_distance(&impacted_lines),
            depth,
            hubs: [("old", &result.old), ("new", &result.new)]
                .into_iter()
                .flat_map(|(version, impact)| {
                    impact.hubs.iter().map(move |h| HubView {
                        version,
                        name: h.name.clone(),
                        lines: h.lines,
                        functions: h.functions,
                        chain_lines: h.chain_lines,
                    })
                })
                .collect(),
        },
        impacted_lines,
        chain_steps,
        changed_lines,
    }
}

/// Adds the functions proved equivalent as a whole (`ripple impact --semantic`) to the
/// report: each covers every line of the function in both versions.
pub fn add_function_equivalences(
    view: &mut ImpactLinesView,
    old: &Program,
    new: &Program,
    found: &ripple_analyses::sem_equiv::FunctionEquivalences,
) {
    let lines = |span: ripple_ir::Span| -> Vec<u32> {
        (span.start_line..=span.end_line.max(span.start_line)).collect()
    };
    for &(o, n) in &found.proved {
        let (fo, fnew) = (&old.functions[o], &new.functions[n]);
        view.equivalences.push(EquivalenceView {
            function: fnew.name.clone(),
            old_file: old.file_path(fo.span.file).to_string(),
            old_lines: lines(fo.span),
            new_file: new.file_path(fnew.span.file).to_string(),
            new_lines: lines(fnew.span),
            what: "function".to_string(),
            proof: "semantic difference",
        });
    }
    if found.not_proved > 0 {
        view.approximations.push(format!(
            "{} function(s) not proved equivalent as a whole (different, or undecided within the budget)",
            found.not_proved
        ));
    }
    view.semantic = Some(SemanticView {
        level: found.levels.last().map_or(0, |l| l.level),
        levels: found
            .levels
            .iter()
            .map(|l| SemanticLevelView {
                level: l.level,
                tried: l.tried,
                proved: l.proved,
                skipped: l.skipped,
            })
            .collect(),
    });
    if found.stopped_by_clock {
        view.approximations.push(
            "the whole-function proofs were stopped by the wall-clock cut-off, not the work budget: on another machine they may prove more or less".to_string(),
        );
    }
    view.proved_equivalent = !view.equivalences.is_empty()
        && view.impacted_lines.is_empty()
        && view.changed_lines.iter().all(|l| {
            view.equivalences.iter().any(|e| {
                let (file, lines) = match l.version {
                    "old" => (&e.old_file, &e.old_lines),
                    _ => (&e.new_file, &e.new_lines),
                };
                *file == l.file && lines.contains(&l.line)
            })
        });
}

fn equivalence_views(
    old: &Program,
    new: &Program,
    equivalences: &StatementEquivalences,
) -> Vec<EquivalenceView> {
    let lines = |spans: &[ripple_ir::Span]| -> Vec<u32> {
        let mut out: Vec<u32> = spans
            .iter()
            .map(|s| s.start_line)
            .filter(|&l| l > 0)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let file = |program: &Program, f: ripple_ir::FuncId, spans: &[ripple_ir::Span]| {
        let span = spans.first().copied().unwrap_or(program.functions[f].span);
        program.file_path(span.file).to_string()
    };
    let mut out: Vec<EquivalenceView> = equivalences
        .proved
        .iter()
        .map(|p| EquivalenceView {
            function: new.functions[p.functions.1].name.clone(),
            old_file: file(old, p.functions.0, &p.old_spans),
            old_lines: lines(&p.old_spans),
            new_file: file(new, p.functions.1, &p.new_spans),
            new_lines: lines(&p.new_spans),
            what: match p.argument {
                None => "statements".to_string(),
                Some(i) => format!("argument {}", i + 1),
            },
            proof: "solver",
        })
        .collect();
    out.sort_by(|a, b| {
        (&a.new_file, &a.new_lines, &a.old_lines, &a.what).cmp(&(
            &b.new_file,
            &b.new_lines,
            &b.old_lines,
            &b.what,
        ))
    });
    out.dedup();
    out
}

fn changed_of(version: &'static str, program: &Program, impact: &VersionImpact) -> Vec<LineView> {
    let mut out: Vec<LineView> = impact
        .changed_lines
        .iter()
        .filter(|(file, _)| !file.starts_with('/'))
        .map(|(file, line)| LineView {
            version,
            file: file.clone(),
            line: *line,
        })
        .collect();
    // A changed table or initializer is changed on every line of its declaration.
    for &g in &impact.changed_globals {
        let span = program.globals[g].span;
        if span.start_line == 0 || program.is_system_file(span.file) {
            continue;
        }
        for line in span.start_line..=span.end_line.max(span.start_line) {
            out.push(LineView {
                version,
                file: program.file_path(span.file).to_string(),
                line,
            });
        }
    }
    out.sort();
    out.dedup();
    out
}

fn impacted_of(
    version: &'static str,
    program: &Program,
    impact: &VersionImpact,
    changed: &[LineView],
) -> Vec<(ImpactedLineView, Vec<String>)> {
    // (file, line) -> the line, with the shortest explanation.
    let mut lines: BTreeMap<(String, u32), (ImpactedLineView, Vec<String>)> = BTreeMap::new();
    for node in &impact.impacted {
        let function = &program.functions[node.function];
        // The header line (entry and exit nodes) counts only when a parameter is
        // impacted; otherwise the body's lines say what is.
        let header = node.node == function.entry || node.node == function.exit;
        if header && !impact.is_parameter_impacted(node.function) {
            continue;
        }
        let span = function.nodes[node.node].span;
        if span.start_line == 0 || program.is_system_file(span.file) {
            continue;
        }
        let file = program.file_path(span.file).to_string();
        let key = LineView {
            version,
            file: file.clone(),
            line: span.start_line,
        };
        if changed.binary_search(&key).is_ok() {
            continue;
        }
        let mut chain: Vec<String> = node.chain.iter().map(|s| s.text.clone()).collect();
        // The chain starts at the node; name it by its line.
        let at = format!("{file}:{}", span.start_line);
        if chain.first() != Some(&at) {
            chain.insert(0, at);
        }
        let candidate = ImpactedLineView {
            version,
            file: file.clone(),
            line: span.start_line,
            function: function.name.clone(),
            distance: u32::try_from(chain.len().saturating_sub(1)).unwrap_or(u32::MAX),
            via: None,
            text: None,
        };
        let candidate = (candidate, chain);
        match lines.get_mut(&(file.clone(), span.start_line)) {
            Some(existing) if existing.1.len() <= candidate.1.len() => {}
            Some(existing) => *existing = candidate,
            None => {
                lines.insert((file, span.start_line), candidate);
            }
        }
    }
    lines.into_values().collect()
}

/// Lines and functions per distance (a function counts at its nearest line).
fn by_distance(lines: &[ImpactedLineView]) -> Vec<DistanceCount> {
    let mut nearest: BTreeMap<&str, u32> = BTreeMap::new();
    let mut counts: BTreeMap<u32, DistanceCount> = BTreeMap::new();
    for l in lines {
        let d = nearest.entry(&l.function).or_insert(l.distance);
        *d = (*d).min(l.distance);
        counts
            .entry(l.distance)
            .or_insert(DistanceCount {
                distance: l.distance,
                ..DistanceCount::default()
            })
            .lines += 1;
    }
    for d in nearest.values() {
        if let Some(c) = counts.get_mut(d) {
            c.functions += 1;
        }
    }
    counts.into_values().collect()
}

/// Lines shown per function in the text report unless every line is asked for.
pub const LINES_PER_FUNCTION: usize = 5;

/// Rows of the summary by distance in the text report before the rest is folded.
pub(crate) const DISTANCE_ROWS: usize = 8;

/// The human-readable report: a summary by distance first, then the impacted functions
/// nearest first, each with its nearest lines and their chains (`all`: every line).
/// Runs of changed lines a file lists in the text unless `--all` (the JSON has all).
const CHANGED_RUNS: usize = 24;

/// The changed `lines` (sorted) of a file as runs, `12-15, 20`: the first
/// [`CHANGED_RUNS`] of them unless `all`, the rest counted.
fn changed_runs(lines: &[u32], all: bool) -> String {
    let parts = crate::diff::line_runs(lines);
    if all || parts.len() <= CHANGED_RUNS {
        return parts.join(", ");
    }
    format!(
        "{}, and {} more run(s) (--all lists them)",
        parts[..CHANGED_RUNS].join(", "),
        parts.len() - CHANGED_RUNS
    )
}

pub fn render_text(view: &ImpactLinesView, all: bool) -> String {
    render_text_with(
        view,
        &TextOptions {
            all,
            whole_chains: all,
            max_functions: None,
        },
    )
}

/// What the text report shows.
pub struct TextOptions {
    /// Every line of every function, every distance (else the nearest, the rest counted).
    pub all: bool,
    /// Every step of the chains (else the first and last ones, the rest counted).
    pub whole_chains: bool,
    /// At most this many impacted functions (the nearest; the others counted), as a
    /// section of a longer report.
    pub max_functions: Option<usize>,
}

/// Steps of a chain the text shows from its start (the impacted line) when it is cut.
pub(crate) const CHAIN_HEAD: usize = 3;

/// Steps of a chain the text shows from its end (the change) when it is cut.
pub(crate) const CHAIN_TAIL: usize = 2;

/// Characters of a cut chain the text shows at most, besides its first and last steps
/// (which it always shows).
const CHAIN_WIDTH: usize = 160;

/// A chain as the text shows it, its steps joined by ` <- `: whole when `whole` or when
/// short (at most `CHAIN_HEAD + CHAIN_TAIL + 1` steps and [`CHAIN_WIDTH`] characters),
/// else its first step (the impacted line), its last (the change), and up to
/// [`CHAIN_HEAD`] and [`CHAIN_TAIL`] steps from each end while the text stays within
/// [`CHAIN_WIDTH`], with the number of steps left out between them; the flag says
/// whether it was cut.
pub fn chain_text(chain: &[String], whole: bool) -> (String, bool) {
    let joined = chain.join(" <- ");
    let short = chain.len() <= CHAIN_HEAD + CHAIN_TAIL + 1 && joined.chars().count() <= CHAIN_WIDTH;
    if whole || short || chain.len() <= 2 {
        return (joined, false);
    }
    let n = chain.len();
    let width = |head: usize, tail: usize| {
        let steps: usize = chain[..head]
            .iter()
            .chain(&chain[n - tail..])
            .map(|s| s.chars().count() + 4)
            .sum();
        steps + "… 999 steps … <- ".len()
    };
    let (mut head, mut tail) = (1, 1);
    loop {
        let mut grew = false;
        if head < CHAIN_HEAD && head + tail + 1 < n && width(head + 1, tail) <= CHAIN_WIDTH {
            head += 1;
            grew = true;
        }
        if tail < CHAIN_TAIL && head + tail + 1 < n && width(head, tail + 1) <= CHAIN_WIDTH {
            tail += 1;
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let left_out = n - head - tail;
    let text = format!(
        "{} <- … {left_out} step{} … <- {}",
        chain[..head].join(" <- "),
        if left_out == 1 { "" } else { "s" },
        chain[n - tail..].join(" <- ")
    );
    (text, true)
}

/// The text report with the parts `options` asks for.
pub fn render_text_with(view: &ImpactLinesView, options: &TextOptions) -> String {
    let all = options.all;
    let max_functions = options.max_functions;
    let mut out = String::new();
    if let Some(incomplete) = &view.incomplete {
        let _ = writeln!(out, "{incomplete}");
    }
    if view.changed_lines.is_empty() && view.impacted_lines.is_empty() {
        let _ = writeln!(out, "no changed statement: nothing impacted");
        return out;
    }
    if view.proved_equivalent {
        let _ = writeln!(
            out,
            "the change is proved equivalent: the changed statements, or the functions holding them, do what the old ones did; nothing impacted"
        );
    }
    let s = &view.summary;
    let _ = writeln!(
        out,
        "{} changed line(s); {} impacted line(s){} in {} function(s){}{}",
        s.changed_lines,
        s.impacted_lines,
        view.version_split(),
        s.impacted_functions.len(),
        match s.depth {
            Some(d) => format!(" within distance {d} (a prefix of the full impact)"),
            None => String::new(),
        },
        if s.dcia_impacted_lines > s.impacted_lines {
            format!(
                " ({} without the proved equivalences)",
                s.dcia_impacted_lines
            )
        } else {
            String::new()
        }
    );
    // The nearest distances one per row, the far tail folded into one (unless `--all`),
    // so that what follows fits the first screen.
    let shown = if all || s.by_distance.len() <= DISTANCE_ROWS {
        s.by_distance.len()
    } else {
        DISTANCE_ROWS - 1
    };
    for c in &s.by_distance[..shown] {
        let _ = write!(out, "  distance {}: {} line(s)", c.distance, c.lines);
        if c.functions > 0 {
            let _ = write!(out, "; {} function(s) first impacted here", c.functions);
        }
        out.push('\n');
    }
    if let (Some(first), Some(last)) = (s.by_distance.get(shown), s.by_distance.last()) {
        let rest = &s.by_distance[shown..];
        let lines: usize = rest.iter().map(|c| c.lines).sum();
        let functions: usize = rest.iter().map(|c| c.functions).sum();
        let _ = write!(
            out,
            "  distance {} to {}: {lines} line(s)",
            first.distance, last.distance
        );
        if functions > 0 {
            let _ = write!(out, "; {functions} function(s) first impacted there");
        }
        out.push('\n');
    }
    if let Some(semantic) = &view.semantic {
        let levels: Vec<String> = semantic
            .levels
            .iter()
            .map(|l| {
                format!(
                    "level {}: {} of {} proved{}",
                    l.level,
                    l.proved,
                    l.tried,
                    if l.skipped > 0 {
                        format!(", {} not tried", l.skipped)
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "whole functions tried (callers at level k are k calls from the change): {}",
            if levels.is_empty() {
                "none needed".to_string()
            } else {
                levels.join("; ")
            }
        );
    }
    if let Some((title, hubs)) = hubs_worth_naming(s) {
        let _ = writeln!(out, "where it spreads ({title}):");
        for (h, lines) in hubs {
            let _ = write!(out, "  {} {}: {lines} line(s)", h.version, h.name);
            if lines == h.lines {
                let _ = write!(out, " in {} function(s)", h.functions);
            }
            out.push('\n');
        }
    }
    if !view.equivalences.is_empty() {
        let _ = writeln!(out, "proved equivalent (no source of impact):");
        for e in &view.equivalences {
            let join = |lines: &[u32]| {
                lines
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let side = |file: &str, lines: &[u32]| {
                if lines.is_empty() {
                    format!("{file} (nothing)")
                } else {
                    format!("{file}:{}", join(lines))
                }
            };
            if e.what == "function" {
                let range = |file: &str, lines: &[u32]| match (lines.first(), lines.last()) {
                    (Some(a), Some(b)) => format!("{file}:{a}-{b}"),
                    _ => file.to_string(),
                };
                let _ = writeln!(
                    out,
                    "  function {}: every output (old {} = new {}) ({})",
                    e.function,
                    range(&e.old_file, &e.old_lines),
                    range(&e.new_file, &e.new_lines),
                    e.proof
                );
                continue;
            }
            let _ = writeln!(
                out,
                "  {} in {}: old {} = new {} ({})",
                e.what,
                e.function,
                side(&e.old_file, &e.old_lines),
                side(&e.new_file, &e.new_lines),
                e.proof
            );
        }
    }
    let _ = writeln!(out, "changed lines:");
    for version in ["old", "new"] {
        let mut by_file: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for l in view.changed_lines.iter().filter(|l| l.version == version) {
            by_file.entry(&l.file).or_default().push(l.line);
        }
        for (file, mut lines) in by_file {
            lines.sort_unstable();
            lines.dedup();
            let _ = writeln!(out, "  {version} {file}: {}", changed_runs(&lines, all));
        }
    }
    // Functions nearest first (then by name); in each, lines nearest first, then old
    // before new, by file and line.
    let mut groups: BTreeMap<&str, Vec<&ImpactedLineView>> = BTreeMap::new();
    for l in &view.impacted_lines {
        groups.entry(&l.function).or_default().push(l);
    }
    let mut groups: Vec<(u32, &str, Vec<&ImpactedLineView>)> = groups
        .into_iter()
        .map(|(f, mut lines)| {
            lines.sort_by_key(|l| (l.distance, l.version == "new", &l.file, l.line));
            (lines[0].distance, f, lines)
        })
        .collect();
    groups.sort_by_key(|(d, f, _)| (*d, *f));
    if !groups.is_empty() {
        let _ = writeln!(
            out,
            "impacted functions, nearest first{}:",
            if all { "" } else { " (--all for every line)" }
        );
    }
    let mut chains_cut = false;
    let listed = max_functions.unwrap_or(usize::MAX);
    let more = groups.len().saturating_sub(listed);
    for (distance, function, lines) in groups.into_iter().take(listed) {
        let _ = writeln!(out, "  {function} (distance {distance}):");
        let shown = if all { lines.len() } else { LINES_PER_FUNCTION };
        for l in lines.iter().take(shown) {
            let (chain, cut) = chain_text(&view.chain(l), options.whole_chains);
            chains_cut |= cut;
            let _ = writeln!(out, "    {} {chain}", l.version);
            if let Some(text) = &l.text {
                let _ = writeln!(out, "      {:>5} | {}", l.line, snippet(text));
            }
        }
        if lines.len() > shown {
            let _ = writeln!(out, "    ... {} more line(s)", lines.len() - shown);
        }
    }
    if more > 0 {
        let _ = writeln!(
            out,
            "  ... {more} more function(s), farther (`ripple impact` or --format json lists them)"
        );
    }
    if chains_cut {
        let _ = writeln!(
            out,
            "  (long chains are cut to their first and last steps; --all or --format json gives them whole)"
        );
    }
    for note in &view.approximations {
        let _ = writeln!(out, "approximation: {note}");
    }
    out
}

/// A source line as shown under its chain: without its indentation, cut at 100
/// characters.
fn snippet(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(100) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

pub fn render_json(view: &ImpactLinesView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Changed lines are listed as runs (`338-350`), at most [`CHANGED_RUNS`] of them
    /// per file unless `--all` (hiredis's ffc.h listed each of hundreds of lines).
    #[test]
    fn changed_lines_are_runs_and_counted_past_a_limit() {
        let lines: Vec<u32> = (338..=350).chain([383, 384]).collect();
        assert_eq!(changed_runs(&lines, false), "338-350, 383-384");
        let scattered: Vec<u32> = (0..30).map(|i| 10 * i + 1).collect();
        let cut = changed_runs(&scattered, false);
        assert!(
            cut.ends_with("231, and 6 more run(s) (--all lists them)"),
            "{cut}"
        );
        assert!(changed_runs(&scattered, true).ends_with("281, 291"));
    }

    fn line(file: &str, line: u32) -> ImpactedLineView {
        ImpactedLineView {
            version: "new",
            file: file.to_string(),
            line,
            function: "f".to_string(),
            via: None,
            distance: 0,
            text: None,
        }
    }

    /// Chains that end alike share their end: the table holds each distinct end once,
    /// every step points to an earlier one, and each line's chain reads back as it was.
    #[test]
    fn shared_chains_read_back_as_they_were() {
        let steps = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let tail: Vec<String> = (0..30).map(|i| format!("a.c:{}", 100 + i)).collect();
        let mut chains = Vec::new();
        let mut lines = Vec::new();
        for k in 0..20u32 {
            let mut chain = vec![format!("a.c:{k}")];
            chain.extend_from_slice(&tail[k as usize..]);
            chain.push("a.c:1 changed".to_string());
            chains.push(chain);
            lines.push(line("a.c", k));
        }
        chains.push(steps(&["b.c:7", "x (param of g)", "a.c:1 changed"]));
        lines.push(line("b.c", 7));
        chains.push(steps(&["b.c:9"]));
        lines.push(line("b.c", 9));
        let chain_steps = share_chains(&mut lines, &chains);
        // 30 steps of the shared tail, the changed line, the parameter.
        assert_eq!(chain_steps.len(), 32);
        for (i, step) in chain_steps.iter().enumerate() {
            assert!(step.next.is_none_or(|n| (n as usize) < i), "{step:?}");
        }
        let view = ImpactLinesView {
            schema: 2,
            old: String::new(),
            new: String::new(),
            level: "statement",
            impacted_lines: lines,
            chain_steps,
            changed_lines: Vec::new(),
            equivalences: Vec::new(),
            proved_equivalent: false,
            semantic: None,
            summary: ImpactLinesSummary::default(),
            incomplete: None,
            approximations: Vec::new(),
        };
        for (l, chain) in view.impacted_lines.iter().zip(&chains) {
            assert_eq!(&view.chain(l), chain);
            assert_eq!(
                view.chain_origin(l),
                chain.get(1).and(chain.last()).map(String::as_str)
            );
        }
    }

    /// A long chain in the text keeps its first and last steps and counts the others;
    /// a short one, or any with `--all`, is whole.
    #[test]
    fn long_chains_are_cut_in_the_text() {
        let chain: Vec<String> = (0..40)
            .map(|i| format!("src/emitter.c:{}", 1000 + i))
            .chain(["src/emitter.c:7 changed".to_string()])
            .collect();
        let (text, cut) = chain_text(&chain, false);
        assert!(cut);
        assert!(
            text.starts_with("src/emitter.c:1000 <- src/emitter.c:1001"),
            "{text}"
        );
        assert!(
            text.ends_with("<- src/emitter.c:1039 <- src/emitter.c:7 changed"),
            "{text}"
        );
        assert!(text.contains(" <- … 36 steps … <- "), "{text}");
        assert!(text.chars().count() <= CHAIN_WIDTH, "{text}");
        let (whole, cut) = chain_text(&chain, true);
        assert!(!cut);
        assert_eq!(whole, chain.join(" <- "));
        let short = &chain[35..];
        assert_eq!(chain_text(short, false), (short.join(" <- "), false));
    }

    fn hub(name: &str, lines: usize, chain_lines: usize) -> HubView {
        HubView {
            version: "new",
            name: name.into(),
            lines,
            functions: 1,
            chain_lines,
        }
    }

    #[test]
    fn hubs_named_are_those_that_carry_a_tenth_of_the_impact() {
        let mut s = ImpactLinesSummary {
            impacted_lines: 1000,
            hubs: vec![hub("g", 400, 900), hub("h", 50, 950), hub("k", 0, 10)],
            ..Default::default()
        };
        let (title, named) = hubs_worth_naming(&s).unwrap();
        assert!(title.contains("only through it"), "{title}");
        assert_eq!(named.len(), 1);
        assert_eq!((named[0].0.name.as_str(), named[0].1), ("g", 400));
        // No line is reached through one hub only (every region one class): the ways
        // most shortest chains take, most first, at most three; never a list of zeros.
        s.hubs = vec![
            hub("a", 0, 200),
            hub("b", 0, 900),
            hub("c", 0, 500),
            hub("d", 0, 300),
            hub("e", 0, 5),
        ];
        let (title, named) = hubs_worth_naming(&s).unwrap();
        assert!(title.contains("shortest chain"), "{title}");
        let names: Vec<(&str, usize)> = named.iter().map(|(h, n)| (h.name.as_str(), *n)).collect();
        assert_eq!(names, [("b", 900), ("c", 500), ("d", 300)]);
        s.hubs = vec![hub("a", 0, 3)];
        assert!(hubs_worth_naming(&s).is_none());
    }
}
