//! The `ripple effects` and `ripple tests --select` reports (change effects, 002): per
//! change, its CHAIN and PROP requirements by distance with the tests that satisfy
//! them, the STMT, BR and DU baselines, the difference-revealing tests and those that
//! add nothing; and the tests a change can affect, each with its reason. Text leads with
//! what is untested.

use std::fmt::Write;

use ripple_analyses::dcia::Side;
use ripple_analyses::effects::{
    Adequacy, Assessment, ChangeSet, DepKind, NodeRef, Requirements, StateRequirement, States,
};
use ripple_ir::Program;
use serde::Serialize;

/// One test of the suite as the report names it.
#[derive(Clone, Debug, Serialize)]
pub struct TestView {
    /// The suite file's line.
    pub line: usize,
    pub command: String,
    /// How each version ended (`exit N`, `signal N`, `timeout`, ...).
    pub old: String,
    pub new: String,
    pub differs: bool,
    /// Why the run was not monitored, if it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_monitored: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EffectsView {
    pub schema: u32,
    pub distance: usize,
    pub changes: Vec<ChangeView>,
    /// Absent with `--static`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite: Option<SuiteView>,
    /// With `--adequacy N`: per change, how often random suites adequate for each
    /// criterion reveal a difference (002 Table 7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adequacy: Option<AdequacyView>,
    /// What the analysis over-approximated or left out, in words.
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct AdequacyView {
    /// Random greedy suites drawn per change and criterion.
    pub suites: usize,
    pub changes: Vec<AdequacyRow>,
}

#[derive(Debug, Serialize)]
pub struct AdequacyRow {
    pub change: usize,
    pub criteria: Vec<CriterionView>,
}

#[derive(Debug, Serialize)]
pub struct CriterionView {
    pub criterion: &'static str,
    /// Requirements the pool satisfies.
    pub requirements: usize,
    /// Percent of the suites holding a difference-revealing test (absent when the pool
    /// satisfies no requirement of the criterion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detection: Option<f64>,
    pub mean_size: f64,
}

/// The view of [`ripple_analyses::effects::adequacy`]'s result.
pub fn adequacy_view(rows: &[Vec<Adequacy>], set: &ChangeSet, suites: usize) -> AdequacyView {
    AdequacyView {
        suites,
        changes: set
            .changes
            .iter()
            .zip(rows)
            .map(|(c, row)| AdequacyRow {
                change: c.id,
                criteria: row
                    .iter()
                    .map(|a| CriterionView {
                        criterion: a.criterion.name(),
                        requirements: a.requirements,
                        detection: a.detection.map(|d| (d * 10.0).round() / 10.0),
                        mean_size: (a.mean_size * 10.0).round() / 10.0,
                    })
                    .collect(),
            })
            .collect(),
    }
}

#[derive(Debug, Serialize)]
pub struct ChangeView {
    pub id: usize,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// Whether the change can be left out of a variant (false: changed through a macro
    /// or declaration, no lines of its own).
    pub separable: bool,
    pub requirements: Vec<RequirementView>,
    /// Whether the chain enumeration stopped at its limit.
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<ChangeCoverage>,
}

#[derive(Debug, Serialize)]
pub struct RequirementView {
    pub distance: usize,
    /// `both`, `new` or `old`: the versions the chain is in.
    pub version: &'static str,
    pub chain: Vec<DepView>,
    /// The source line the chain ends at, trimmed (empty when the file is not known).
    pub end: String,
    /// Tests (suite lines) covering the chain (CHAIN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<Vec<usize>>,
    /// Tests whose run propagates a difference along it (PROP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagated_by: Option<Vec<usize>>,
    /// Tests satisfying PROP only because another change ran first (002 section 7.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assumed_by: Option<Vec<usize>>,
    /// The static state requirement (partial symbolic execution), when computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StateView>,
    /// For a chain both versions have (whose lists above are the new version's runs, as
    /// 002 counts them): the same in the old version, where some effects are its own
    /// (a statement the new version no longer runs for some inputs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_old: Option<OldVersionView>,
}

#[derive(Debug, Serialize)]
pub struct OldVersionView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagated_by: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StateView>,
}

/// Whether a list of tests is given and holds some.
fn any(tests: &Option<Vec<usize>>) -> bool {
    tests.as_ref().is_some_and(|v| !v.is_empty())
}

impl RequirementView {
    /// Whether some test propagates a difference along the chain (PROP), in either
    /// version.
    pub fn propagated(&self) -> bool {
        any(&self.propagated_by)
            || any(&self.assumed_by)
            || self.in_old.as_ref().is_some_and(|o| any(&o.propagated_by))
    }

    /// Whether some test covers the chain (CHAIN), in either version.
    pub fn covered(&self) -> bool {
        any(&self.covered_by) || self.in_old.as_ref().is_some_and(|o| any(&o.covered_by))
    }

    /// `feasible` when some input satisfies the state requirement in either version,
    /// `infeasible` when none does in any, else `unknown`.
    pub fn status(&self) -> &'static str {
        let own = self.state.as_ref().map_or("unknown", |s| s.status);
        let old = self
            .in_old
            .as_ref()
            .map(|o| o.state.as_ref().map_or("unknown", |s| s.status));
        match (own, old) {
            ("feasible", _) | (_, Some("feasible")) => "feasible",
            ("infeasible", None | Some("infeasible")) => "infeasible",
            _ => "unknown",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// `feasible`, `infeasible` or `unknown`.
    pub status: &'static str,
    /// The condition on the function's inputs (feasible only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// An input satisfying it: parameter name and value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub witness: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The view of a static state requirement; conditions longer than 300 characters are
/// left out of the text (JSON keeps them).
pub fn state_view(r: &StateRequirement) -> StateView {
    match r {
        StateRequirement::Feasible { condition, witness } => StateView {
            status: "feasible",
            condition: Some(condition.to_string()),
            witness: witness.clone(),
            reason: None,
        },
        StateRequirement::Infeasible => StateView {
            status: "infeasible",
            condition: None,
            witness: Vec::new(),
            reason: None,
        },
        StateRequirement::Unknown(why) => StateView {
            status: "unknown",
            condition: None,
            witness: Vec::new(),
            reason: Some(why.clone()),
        },
    }
}

#[derive(Debug, Serialize)]
pub struct DepView {
    pub from: LineRef,
    pub to: LineRef,
    /// `data` or `control`.
    pub kind: &'static str,
    /// For data: the register defined (`*` for memory).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub variable: String,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LineRef {
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Serialize)]
pub struct ChangeCoverage {
    /// STMT: tests that run the change.
    pub run_by: Vec<usize>,
    pub chain: Count,
    pub prop: Count,
    pub branches: Count,
    pub def_uses: Count,
    /// Tests running the change whose output differs.
    pub revealing: Vec<usize>,
}

#[derive(Debug, Serialize)]
pub struct Count {
    pub satisfied: usize,
    pub total: usize,
}

#[derive(Debug, Serialize)]
pub struct SuiteView {
    pub tests: Vec<TestView>,
    /// Tests whose output differs between the versions.
    pub revealing: Vec<usize>,
    /// Tests that satisfy a requirement no earlier test satisfied.
    pub kept: Vec<usize>,
    /// The other monitored tests.
    pub add_nothing: Vec<usize>,
    pub not_monitored: Vec<usize>,
    /// With `--generate N`: the tests drawn from the generator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<GeneratedView>,
}

/// SATISFYREQSDEMAND's generated tests: drawn (mutations of the suite's tests) within a
/// budget while requirements were left, and kept when they satisfied one no test had.
/// Kept tests are numbered after the suite's last line and appear in `tests`.
#[derive(Debug, Serialize)]
pub struct GeneratedView {
    pub budget: usize,
    pub seed: u64,
    pub drawn: usize,
    pub kept: Vec<usize>,
    /// Requirements (CHAIN and PROP, over all changes) still unsatisfied after them.
    pub unsatisfied: usize,
    /// Where the kept tests were written (`--write-generated`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_to: Option<String>,
}

fn line_ref(program: &Program, (f, n): NodeRef) -> LineRef {
    let span = program.functions[f].nodes[n].span;
    LineRef {
        file: program
            .files
            .get(span.file)
            .map(|f| f.path.clone())
            .unwrap_or_default(),
        line: span.start_line,
    }
}

/// The report. `assessment` and `tests` are absent for static requirements only; the
/// assessment's test indexes are positions in `monitored` (indexes into `tests`).
pub fn effects_view(
    programs: [&Program; 2],
    set: &ChangeSet,
    reqs: &Requirements,
    assessment: Option<(&Assessment, &[usize], &[TestView])>,
    states: &[Vec<Option<States>>],
    notes: Vec<String>,
) -> EffectsView {
    let [old, new] = programs;
    let lines = |idx: &[usize]| -> Vec<usize> {
        match assessment {
            Some((_, monitored, tests)) => idx.iter().map(|&i| tests[monitored[i]].line).collect(),
            None => Vec::new(),
        }
    };
    let mut changes = Vec::new();
    for (c, cr) in set.changes.iter().zip(&reqs.changes) {
        let (file, line) = c.line(set);
        let (old_text, new_text) = c.text(set);
        let result = assessment.map(|(a, _, _)| &a.changes[c.id - 1]);
        let mut requirements = Vec::new();
        for (r, req) in cr.chains.iter().enumerate() {
            let program = if req.side == Some(Side::Old) {
                old
            } else {
                new
            };
            let chain = req
                .chain
                .deps
                .iter()
                .map(|d| DepView {
                    from: line_ref(program, d.from),
                    to: line_ref(program, d.to),
                    kind: if d.kind == DepKind::Data {
                        "data"
                    } else {
                        "control"
                    },
                    variable: if d.kind == DepKind::Data {
                        ripple_analyses::effects::chains::defined_name(program, d.from)
                    } else {
                        String::new()
                    },
                })
                .collect();
            let rr = result.map(|res| &res.requirements[r]);
            let state = states
                .get(c.id - 1)
                .and_then(|v| v.get(r))
                .and_then(Option::as_ref);
            let end = line_ref(program, req.chain.end());
            let end = source_line(set, req.side == Some(Side::Old), &end);
            requirements.push(RequirementView {
                end,
                distance: req.chain.len(),
                version: match req.side {
                    None => "both",
                    Some(Side::New) => "new",
                    Some(Side::Old) => "old",
                },
                chain,
                covered_by: rr.map(|rr| lines(&rr.covered_by)),
                propagated_by: rr.map(|rr| lines(&rr.propagated_by)),
                assumed_by: rr.map(|rr| lines(&rr.assumed_by)),
                state: state.map(|s| state_view(&s.own)),
                in_old: (req.side.is_none()).then(|| OldVersionView {
                    covered_by: rr.map(|rr| lines(&rr.old_covered_by)),
                    propagated_by: rr.map(|rr| lines(&rr.old_propagated_by)),
                    state: state.and_then(|s| s.old.as_ref()).map(state_view),
                }),
            });
        }
        let coverage = result.map(|res| {
            let count = |f: &dyn Fn(&RequirementView) -> bool| Count {
                satisfied: requirements.iter().filter(|r| f(r)).count(),
                total: requirements.len(),
            };
            let revealing = match assessment {
                Some((a, _, _)) => res
                    .run_by
                    .iter()
                    .copied()
                    .filter(|t| a.revealing.contains(t))
                    .collect::<Vec<_>>(),
                None => Vec::new(),
            };
            ChangeCoverage {
                run_by: lines(&res.run_by),
                chain: count(&RequirementView::covered),
                prop: count(&RequirementView::propagated),
                branches: Count {
                    satisfied: res.branches_covered,
                    total: cr.branches.len(),
                },
                def_uses: Count {
                    satisfied: res.def_uses_covered,
                    total: cr.def_uses.len(),
                },
                revealing: lines(&revealing),
            }
        });
        changes.push(ChangeView {
            id: c.id,
            function: c.function.clone(),
            file,
            line,
            old: old_text.iter().map(|l| l.trim().to_string()).collect(),
            new: new_text.iter().map(|l| l.trim().to_string()).collect(),
            separable: c.separable(),
            requirements,
            truncated: cr.truncated,
            coverage,
        });
    }
    let suite = assessment.map(|(a, monitored, tests)| {
        let kept = lines(&a.kept);
        let add_nothing = (0..monitored.len())
            .filter(|i| !a.kept.contains(i))
            .map(|i| tests[monitored[i]].line)
            .collect();
        SuiteView {
            tests: tests.to_vec(),
            revealing: tests.iter().filter(|t| t.differs).map(|t| t.line).collect(),
            kept,
            add_nothing,
            not_monitored: tests
                .iter()
                .filter(|t| t.not_monitored.is_some())
                .map(|t| t.line)
                .collect(),
            generated: None,
        }
    });
    EffectsView {
        schema: crate::SCHEMA_VERSION,
        distance: reqs.distance,
        changes,
        suite,
        adequacy: None,
        notes,
    }
}

pub fn render_json(view: &EffectsView) -> String {
    let mut s = serde_json::to_string_pretty(view).unwrap_or_default();
    s.push('\n');
    s
}

/// The text of a line of one version, from the change set's files.
fn source_line(set: &ChangeSet, old: bool, at: &LineRef) -> String {
    let file = set.files.iter().find(|f| {
        let path = if old { &f.old_path } else { &f.new_path };
        path.as_deref() == Some(at.file.as_str())
    });
    let text = file.map(|f| if old { &f.old_text } else { &f.new_text });
    let line = text.and_then(|t| t.lines().nth((at.line as usize).wrapping_sub(1)));
    let line = line.map(str::trim).unwrap_or_default();
    // Without a trailing comment, and short.
    let code = line.split("/*").next().unwrap_or(line).trim_end();
    let mut out: String = code.chars().take(50).collect();
    if code.chars().count() > 50 {
        out.push_str("...");
    }
    out
}

/// Writes requirement lines, those that read the same (chains through different
/// statements of the same lines) once with their number, up to `limit` lines.
fn write_grouped(s: &mut String, lines: impl Iterator<Item = String>, limit: usize) {
    let mut groups: Vec<(String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in lines {
        match index.get(&line) {
            Some(&i) => groups[i].1 += 1,
            None => {
                index.insert(line.clone(), groups.len());
                groups.push((line, 1));
            }
        }
    }
    for (line, n) in groups.iter().take(limit) {
        let _ = if *n > 1 {
            writeln!(s, "{line}  ({n} chains)")
        } else {
            writeln!(s, "{line}")
        };
    }
    let rest: usize = groups.iter().skip(limit).map(|(_, n)| n).sum();
    if rest > 0 {
        let _ = writeln!(s, "    ... {rest} more (--all)");
    }
}

fn chain_text(r: &RequirementView) -> String {
    let mut s = String::new();
    let mut file = String::new();
    for (i, d) in r.chain.iter().enumerate() {
        if i == 0 {
            let _ = write!(s, "{}", d.from.line);
            file.clone_from(&d.from.file);
        }
        let arrow = if d.kind == "data" {
            format!(" -{}-> ", d.variable)
        } else {
            " => ".to_string()
        };
        s.push_str(&arrow);
        if d.to.file != file {
            let _ = write!(s, "{}:", d.to.file);
            file.clone_from(&d.to.file);
        }
        let _ = write!(s, "{}", d.to.line);
    }
    if !r.end.is_empty() {
        let _ = write!(s, " `{}`", r.end);
    }
    s
}

/// How many tests a list holds, with the first few suite lines.
fn tests_text(lines: &[usize]) -> String {
    match lines.len() {
        0 => "none".to_string(),
        n => {
            let shown: Vec<String> = lines.iter().take(5).map(|l| format!("#{l}")).collect();
            let more = if n > 5 { ", ..." } else { "" };
            format!("{n} ({}{more})", shown.join(", "))
        }
    }
}

/// The text report: per change the summary, then the unsatisfied requirements (all of
/// them with `all`, else the nearest ten), then the satisfied ones.
pub fn render_text(view: &EffectsView, all: bool) -> String {
    let mut s = String::new();
    let limit = if all { usize::MAX } else { 10 };
    if view.changes.is_empty() {
        s.push_str("no statement changed\n");
    }
    for c in &view.changes {
        let _ = writeln!(s, "ch{}  {}  {}:{}", c.id, c.function, c.file, c.line);
        for l in &c.old {
            let _ = writeln!(s, "    - {l}");
        }
        for l in &c.new {
            let _ = writeln!(s, "    + {l}");
        }
        if !c.separable {
            s.push_str("    (changed through a macro or declaration: not separable)\n");
        }
        match &c.coverage {
            Some(cov) => {
                let _ = writeln!(
                    s,
                    "  run by {} tests, {} reveal a difference; CHAIN {}/{}, PROP {}/{}, BR {}/{}, DU {}/{} (distance {})",
                    cov.run_by.len(),
                    cov.revealing.len(),
                    cov.chain.satisfied,
                    cov.chain.total,
                    cov.prop.satisfied,
                    cov.prop.total,
                    cov.branches.satisfied,
                    cov.branches.total,
                    cov.def_uses.satisfied,
                    cov.def_uses.total,
                    view.distance
                );
                let satisfied = RequirementView::propagated;
                let status = RequirementView::status;
                // Untested: those some input can satisfy first, then the undecided ones;
                // the infeasible ones are only counted.
                let mut unsat: Vec<&RequirementView> = c
                    .requirements
                    .iter()
                    .filter(|r| !satisfied(r) && status(r) != "infeasible")
                    .collect();
                unsat.sort_by_key(|r| (status(r) != "feasible", r.distance));
                let infeasible = c
                    .requirements
                    .iter()
                    .filter(|r| !satisfied(r) && status(r) == "infeasible")
                    .count();
                if infeasible > 0 {
                    let _ = writeln!(
                        s,
                        "  {infeasible} requirement(s) no input can satisfy (infeasible state requirement)"
                    );
                }
                if !unsat.is_empty() {
                    let _ = writeln!(s, "  untested (d, chain, what is missing):");
                    let lines = unsat.iter().map(|r| {
                        let missing = if !r.covered() {
                            "not covered".to_string()
                        } else if any(&r.covered_by) {
                            format!(
                                "covered by {}, never propagated",
                                tests_text(r.covered_by.as_deref().unwrap_or_default())
                            )
                        } else {
                            let old = r.in_old.as_ref().and_then(|o| o.covered_by.as_deref());
                            format!(
                                "covered in the old version by {}, never propagated",
                                tests_text(old.unwrap_or_default())
                            )
                        };
                        format!(
                            "    {}  {}  {missing}{}",
                            r.distance,
                            chain_text(r),
                            side_note(r)
                        )
                    });
                    write_grouped(&mut s, lines, limit);
                }
                let sat: Vec<&RequirementView> =
                    c.requirements.iter().filter(|r| satisfied(r)).collect();
                if !sat.is_empty() {
                    let _ = writeln!(s, "  satisfied (d, chain, PROP by):");
                    let lines = sat.iter().map(|r| {
                        let own = r.propagated_by.as_deref().unwrap_or_default();
                        let old = r.in_old.as_ref().and_then(|o| o.propagated_by.as_deref());
                        let mut by = match old.filter(|v| !v.is_empty()) {
                            Some(old) if own.is_empty() => {
                                format!("{} in the old version", tests_text(old))
                            }
                            Some(old) => format!(
                                "{}; {} in the old version",
                                tests_text(own),
                                tests_text(old)
                            ),
                            None => tests_text(own),
                        };
                        if any(&r.assumed_by) {
                            let _ = write!(
                                by,
                                "; {} after another change",
                                r.assumed_by.as_ref().map_or(0, Vec::len)
                            );
                        }
                        format!(
                            "    {}  {}  {by}{}",
                            r.distance,
                            chain_text(r),
                            side_note(r)
                        )
                    });
                    write_grouped(&mut s, lines, limit);
                }
            }
            None => {
                let _ = writeln!(
                    s,
                    "  {} chains to distance {}",
                    c.requirements.len(),
                    view.distance
                );
                for r in c.requirements.iter().take(limit) {
                    let _ = writeln!(s, "    {}  {}{}", r.distance, chain_text(r), side_note(r));
                }
                if c.requirements.len() > limit {
                    let _ = writeln!(s, "    ... {} more (--all)", c.requirements.len() - limit);
                }
            }
        }
        if c.truncated {
            s.push_str("  (chain enumeration stopped at its limit)\n");
        }
    }
    if let Some(suite) = &view.suite {
        let _ = writeln!(
            s,
            "tests: {}; {} reveal a difference; {} satisfy a requirement no earlier test did; {} add nothing; {} not monitored",
            suite.tests.len(),
            suite.revealing.len(),
            suite.kept.len(),
            suite.add_nothing.len(),
            suite.not_monitored.len()
        );
        if !suite.revealing.is_empty() {
            let _ = writeln!(s, "  revealing: {}", tests_text(&suite.revealing));
        }
        if let Some(g) = &suite.generated {
            let _ = writeln!(
                s,
                "generated: {} test(s) drawn of {} (seed {}), {} kept for a requirement no test satisfied; {} requirement(s) still unsatisfied",
                g.drawn,
                g.budget,
                g.seed,
                g.kept.len(),
                g.unsatisfied
            );
            for t in suite.tests.iter().filter(|t| g.kept.contains(&t.line)) {
                let _ = writeln!(
                    s,
                    "  #{} {}{}",
                    t.line,
                    t.command,
                    if t.differs {
                        "  (reveals a difference)"
                    } else {
                        ""
                    }
                );
            }
            if let Some(file) = &g.written_to {
                let _ = writeln!(s, "  written to {file}");
            }
        }
        for t in suite
            .tests
            .iter()
            .filter(|t| t.not_monitored.is_some())
            .take(5)
        {
            let _ = writeln!(
                s,
                "  not monitored: #{} {}: {}",
                t.line,
                t.command,
                t.not_monitored.as_deref().unwrap_or_default()
            );
        }
    }
    if let Some(a) = &view.adequacy {
        let _ = writeln!(
            s,
            "random adequate suites ({} per change and criterion): % revealing a difference (mean size)",
            a.suites
        );
        let names: Vec<&str> = a.changes.first().map_or(Vec::new(), |r| {
            r.criteria.iter().map(|c| c.criterion).collect()
        });
        let _ = write!(s, "  {:<6}", "");
        for n in &names {
            let _ = write!(s, "{n:>16}");
        }
        s.push('\n');
        for row in &a.changes {
            let _ = write!(s, "  {:<6}", format!("ch{}", row.change));
            for c in &row.criteria {
                let cell = match c.detection {
                    Some(d) => format!("{d:.1}% ({:.1})", c.mean_size),
                    None => "n/a".to_string(),
                };
                let _ = write!(s, "{cell:>16}");
            }
            s.push('\n');
        }
    }
    for n in &view.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

fn side_note(r: &RequirementView) -> String {
    let mut s = match r.version {
        "old" => "  (old version only)".to_string(),
        "new" => "  (new version only)".to_string(),
        _ => String::new(),
    };
    let old = r.in_old.as_ref().and_then(|o| o.state.as_ref());
    match (&r.state, old) {
        // Said when the old version adds something: an effect of its own, or doubt.
        (Some(new), Some(old)) if old.status != "infeasible" && new.status != "feasible" => {
            let _ = write!(
                s,
                "  [state: {} in the new version; {} in the old]",
                state_text(new),
                state_text(old)
            );
        }
        (Some(state), _) => {
            let _ = write!(s, "  [state: {}]", state_text(state));
        }
        (None, _) => {}
    }
    s
}

/// A state requirement in words: `feasible, e.g. x=3`, `infeasible, no input
/// propagates`, `unknown, why`.
fn state_text(state: &StateView) -> String {
    match state.status {
        "feasible" => {
            let w: Vec<String> = state
                .witness
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            if w.is_empty() {
                "feasible".to_string()
            } else {
                format!("feasible, e.g. {}", w.join(" "))
            }
        }
        "infeasible" => "infeasible, no input propagates".to_string(),
        _ => format!("unknown, {}", state.reason.as_deref().unwrap_or_default()),
    }
}

/// One selected test.
#[derive(Debug, Serialize)]
pub struct SelectedTest {
    pub line: usize,
    pub command: String,
    pub reasons: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct SelectionView {
    pub schema: u32,
    pub tests: usize,
    pub selected: Vec<SelectedTest>,
    /// Tests whose output differs between the versions (every one must be selected).
    pub revealing: Vec<usize>,
    /// Sizes of other selections, for comparison: tests running a changed function, and
    /// tests running a changed line.
    pub by_function: usize,
    pub by_line: usize,
    pub notes: Vec<String>,
}

pub fn render_selection_text(view: &SelectionView) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} of {} tests can see the change (by changed statement; by changed function: {}, by changed line: {})",
        view.selected.len(),
        view.tests,
        view.by_function,
        view.by_line
    );
    for t in &view.selected {
        let _ = writeln!(s, "#{}  {}  -- {}", t.line, t.command, t.reasons.join("; "));
    }
    let missed: Vec<usize> = view
        .revealing
        .iter()
        .copied()
        .filter(|l| !view.selected.iter().any(|t| t.line == *l))
        .collect();
    let _ = writeln!(
        s,
        "{} tests reveal a difference; {} of them not selected",
        view.revealing.len(),
        missed.len()
    );
    for n in &view.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

pub fn render_selection_json(view: &SelectionView) -> String {
    let mut s = serde_json::to_string_pretty(view).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::write_grouped;

    #[test]
    fn requirement_lines_that_read_the_same_are_written_once_with_their_number() {
        let lines = ["    1  a", "    1  b", "    1  a", "    2  c"].map(String::from);
        let mut s = String::new();
        write_grouped(&mut s, lines.clone().into_iter(), 2);
        assert_eq!(
            s,
            "    1  a  (2 chains)\n    1  b\n    ... 1 more (--all)\n"
        );
        let mut all = String::new();
        write_grouped(&mut all, lines.into_iter(), usize::MAX);
        assert_eq!(all, "    1  a  (2 chains)\n    1  b\n    2  c\n");
    }
}
