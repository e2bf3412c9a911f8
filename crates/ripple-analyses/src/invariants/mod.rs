//! Invariant diffs (003): version invariants and invariant churns of two or more versions
//! of a program, each churn tied to the source lines that cause it.
//!
//! For every point of interest that all the chosen versions share on the multi-version
//! graph ([`mvicfg`], 003 section III-B; a *matched program point*), one query over the
//! point's variables is raised (RaiseQuery), propagated backwards once for all versions
//! ([`query`], PropagateQuery) and resolved per version by the solver
//! (`ripple_symex::invariant`, ResolveQuery): the invariants of the templates that hold
//! on every path of that version. Then (003 section II-A):
//!
//! - a *version invariant* of a set of versions (Definition 1) is an invariant every
//!   version of the set has at the point;
//! - an *invariant churn* between versions `a` and `b` (Definition 2) is the point, the
//!   invariants only `a` has (removed) and only `b` has (added), and the statements that
//!   changed the query's variables in either version, split into the lines only `b` has
//!   (added), only `a` has (removed), and both have (shared).
//!
//! Invariants are equal across versions when they are the same template instance with
//! the same parameters, or, for expressions of the inputs, when the solver proves the two
//! expressions equal. Soundness: the paths are followed exactly except through loops
//! (havocked, see [`query`]) and calls not entered (results and possibly memory unknown),
//! both over-approximations, so a reported invariant holds on every execution; what a
//! budget cuts is reported as undecided, never as an invariant. With loops unrolled to a
//! bound instead ([`QueryLimits::unroll`]), a point where a path was cut at the bound
//! lists the loops ([`PointResult::unrolled`]): its invariants hold on the executions
//! within the bound only, and the report says so.

pub mod mvicfg;
pub mod query;

use std::collections::BTreeSet;
use std::sync::Arc;

use ripple_ir::Program;
use ripple_symex::invariant::{resolve, same_value, verify, PathFact};
use ripple_symex::term::Term;
use ripple_symex::z3::Model;

use crate::unread::UnreadCode;
pub use ripple_symex::Smt;

pub use mvicfg::{Mvicfg, Versions};
pub use query::{Cause, QueryLimits};
pub use ripple_symex::invariant::Templates;
pub use ripple_symex::invariant::{Invariant, Relation};
pub use ripple_symex::Budget;

/// Where in a function invariants are asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Entry,
    Exit,
    /// Before the first statement of this line (of the first chosen version).
    Line(u32),
}

/// What to compute.
#[derive(Clone, Debug)]
pub struct InvariantConfig {
    /// The versions of interest (indices), in order; churns are between consecutive ones.
    pub versions: Vec<usize>,
    /// Functions (name or key) and points; every function's exit when empty.
    pub points: Vec<(String, At)>,
    pub templates: Templates,
    pub limits: QueryLimits,
    /// The solver budget of the whole run.
    pub budget: Budget,
    /// The solver work each version of each point may spend resolving its candidates.
    pub per_point: std::time::Duration,
}

/// A source line of one version.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

/// The lines responsible for a churn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChurnLines {
    pub added: Vec<SourceLine>,
    pub removed: Vec<SourceLine>,
    pub shared: Vec<SourceLine>,
}

/// An invariant churn between two versions (003 Definition 2).
#[derive(Clone, Debug)]
pub struct Churn {
    pub from: usize,
    pub to: usize,
    pub removed: Vec<String>,
    pub added: Vec<String>,
    pub lines: ChurnLines,
}

/// The invariants of one version at a point.
#[derive(Clone, Debug)]
pub enum VersionResult {
    Proved(Vec<String>),
    /// The point's paths were not all followed, or the solver ran out of budget.
    Undecided(String),
    /// The version does not have the point.
    Absent,
}

/// The results at one point.
#[derive(Clone, Debug)]
pub struct PointResult {
    pub function: String,
    pub at: At,
    /// The point's line in each chosen version (when it has one).
    pub lines: Vec<Option<SourceLine>>,
    pub vars: Vec<String>,
    /// Per chosen version (in the order of [`InvariantConfig::versions`]).
    pub invariants: Vec<VersionResult>,
    /// Per chosen version, the invariants proved (variables indexed as in `vars`).
    pub proved: Vec<Option<Vec<Invariant>>>,
    /// Invariants all chosen versions have (none unless every version was decided).
    pub version_invariants: Vec<String>,
    pub churns: Vec<Churn>,
    /// Loops whose iterations were abstracted, by line.
    pub loops: Vec<SourceLine>,
    /// Loops unrolled ([`QueryLimits::unroll`]) where paths were cut at the bound, by
    /// line: when there are any, what is said of this point holds on the executions
    /// that take each loop's back edge at most that many times, not on all of them.
    pub unrolled: Vec<SourceLine>,
    /// Other over-approximations made at this point (calls not entered, values made
    /// unknown), in words.
    pub notes: Vec<String>,
    pub steps: usize,
}

/// The whole result.
#[derive(Clone, Debug)]
pub struct InvariantDiff {
    pub points: Vec<PointResult>,
    /// Nodes of the multi-version graph, and how many are shared by several versions.
    pub nodes: usize,
    pub shared_nodes: usize,
    pub queries: u64,
    /// Whether the wall-clock cut-off, not the work budget, stopped some query (the
    /// result may then differ on another machine).
    pub stopped_by_clock: bool,
}

/// Computes the invariant diffs of `programs` (`matches[i]` between versions i and i+1).
pub fn invariant_diffs(
    programs: &[&Program],
    graph: &Mvicfg,
    config: &InvariantConfig,
) -> Result<InvariantDiff, String> {
    invariant_diffs_on(&mut Smt::new(config.budget), programs, graph, config)
}

/// [`invariant_diffs`] with a solver made beforehand (by `Smt::new(config.budget)`, and
/// warmed up while the versions were read) that has answered no query yet.
pub fn invariant_diffs_on(
    smt: &mut Smt,
    programs: &[&Program],
    graph: &Mvicfg,
    config: &InvariantConfig,
) -> Result<InvariantDiff, String> {
    smt.abstract_floats();
    let chosen: Versions = config.versions.iter().fold(0, |s, v| s | (1 << v));
    let mut points = Vec::new();
    let wanted: Vec<(usize, At)> = if config.points.is_empty() {
        (0..graph.functions.len())
            .filter(|&f| graph.functions[f].versions & chosen == chosen)
            .map(|f| (f, At::Exit))
            .collect()
    } else {
        let mut out = Vec::new();
        for (name, at) in &config.points {
            let f = graph
                .functions
                .iter()
                .position(|f| &f.name == name || &f.key == name)
                .ok_or_else(|| format!("no function `{name}` in the versions"))?;
            out.push((f, *at));
        }
        out
    };
    let unread: Vec<UnreadCode> = programs.iter().map(|p| UnreadCode::of(p)).collect();
    for (f, at) in wanted {
        // Each point's queries are its own: a fresh solver for each, so that what the
        // solver keeps does not grow with the number of points.
        smt.restart();
        points.push(point(programs, graph, f, at, config, &unread, smt)?);
    }
    let (nodes, shared_nodes) = graph.size();
    Ok(InvariantDiff {
        points,
        nodes,
        shared_nodes,
        queries: smt.queries,
        stopped_by_clock: smt.stopped_by_clock(),
    })
}

fn point(
    programs: &[&Program],
    graph: &Mvicfg,
    f: usize,
    at: At,
    config: &InvariantConfig,
    unread: &[UnreadCode],
    smt: &mut Smt,
) -> Result<PointResult, String> {
    let chosen: Versions = config.versions.iter().fold(0, |s, v| s | (1 << v));
    let func = &graph.functions[f];
    let first = config.versions[0];
    let node = match at {
        At::Exit => func.exit,
        At::Entry => func.entry,
        At::Line(line) => {
            let program = programs[first];
            let fid = func.origin[first].ok_or("function missing")?;
            let ir = &program.functions[fid];
            // The first node of the line in the order of the graph's nodes.
            (0..func.nodes.len())
                .filter(|&n| {
                    func.nodes[n].origin[first]
                        .is_some_and(|id| ir.nodes[id].span.start_line == line)
                        && !matches!(func.nodes[n].stmt, mvicfg::Stmt::Entry | mvicfg::Stmt::Exit)
                })
                .min_by_key(|&n| func.nodes[n].origin[first].map(|id| id.index()))
                .ok_or_else(|| format!("no statement of `{}` at line {line}", func.name))?
        }
    };
    let present = func.nodes[node].versions & chosen;
    // Variables: the return value at the exit, then the named scalars.
    let mut vars: Vec<(String, Term, Option<Arc<str>>)> = Vec::new();
    // The versions declaring each variable (the return value: every version).
    let mut declared: Vec<Versions> = Vec::new();
    let mut notes = Vec::new();
    // A name with another type in some version is two variables: not compared.
    let retyped = |name: &Arc<str>, notes: &mut Vec<String>, shown: &str| {
        let other = func.retyped.contains(name);
        if other {
            notes.push(format!(
                "`{shown}` names variables of different types (in some version, or in two scopes): its invariants are not listed"
            ));
        }
        other
    };
    if at == At::Exit {
        if let Some((name, repr)) = &func.ret {
            if !retyped(name, &mut notes, "return") {
                vars.push(("return".to_string(), Term::Var(name.clone(), *repr), None));
                declared.push(Versions::MAX);
            }
        }
    }
    for (name, repr, memory, versions) in &func.scalars {
        if retyped(name, &mut notes, name) {
            continue;
        }
        let term = if *memory {
            Term::Load(
                Arc::new(Term::Addr(Arc::from(format!("local:{name}")))),
                *repr,
            )
        } else {
            Term::Var(name.clone(), *repr)
        };
        // A parameter never assigned trivially equals itself.
        let own = (!*memory).then(|| name.clone());
        vars.push((name.to_string(), term, own));
        declared.push(*versions);
    }
    let terms: Vec<Term> = vars.iter().map(|v| v.1.clone()).collect();
    let own: Vec<Option<Arc<str>>> = vars.iter().map(|v| v.2.clone()).collect();
    let names: Vec<String> = vars.iter().map(|v| v.0.clone()).collect();
    let mut result = query::propagate(graph, f, node, present, &terms, config.limits);
    if result.incomplete != 0 && config.limits.depth > 0 {
        notes.push(format!(
            "calls not entered: entering them made more than {} propagation steps",
            config.limits.steps
        ));
        // Too many paths through the callees: again with calls as unknown effects.
        let shallow = QueryLimits {
            depth: 0,
            ..config.limits
        };
        result = query::propagate(graph, f, node, present, &terms, shallow);
    }

    // Inputs whose variable the function changes print as `name@entry` in expressions.
    let mut modified: Vec<Arc<str>> = Vec::new();
    for (i, own) in own.iter().enumerate() {
        if let Some(name) = own {
            let itself = Term::Var(name.clone(), terms[i].repr());
            if result.paths.iter().any(|p| p.values[i] != itself) {
                modified.push(name.clone());
            }
        }
    }
    let members = MemberNames::of(programs, func);
    let render = |inv: &Invariant| -> String {
        match inv {
            Invariant::Equals { var, expr } => {
                let expr = expr.map(&mut |t| match t {
                    Term::Var(n, r) if modified.contains(n) => {
                        Some(Term::Var(Arc::from(format!("{n}@entry")), *r))
                    }
                    t => members.name(t, &modified),
                });
                Invariant::Equals { var: *var, expr }.render(&names)
            }
            _ => inv.render(&names),
        }
    };

    let mut per_version: Vec<Option<Vec<Invariant>>> = Vec::new();
    // Inputs the solver showed for any version: each one refutes, without a query,
    // what it violates in any version.
    let mut samples: Vec<Model> = Vec::new();
    let mut facts_of: Vec<Vec<PathFact>> = Vec::new();
    let mut results = Vec::new();
    for &v in &config.versions {
        let bit = 1u64 << v;
        let facts: Vec<PathFact> = result
            .paths
            .iter()
            .filter(|p| p.versions & bit != 0)
            .map(|p| PathFact {
                cond: p.cond.clone(),
                values: p.values.clone(),
            })
            .collect();
        facts_of.push(facts);
        if present & bit == 0 {
            per_version.push(None);
            results.push(VersionResult::Absent);
            continue;
        }
        // What a version says of code it could not read would be about a guess.
        if let Some(place) = func.origin[v].and_then(|id| unread[v].function(id)) {
            per_version.push(None);
            results.push(VersionResult::Undecided(format!(
                "runs code that could not be read ({place})"
            )));
            continue;
        }
        if computes_long_double(graph, f, v) {
            per_version.push(None);
            results.push(VersionResult::Undecided(
                "computes with long double, which is not modelled exactly".into(),
            ));
            continue;
        }
        if result.incomplete & bit != 0 {
            per_version.push(None);
            results.push(VersionResult::Undecided(format!(
                "more than {} propagation steps",
                config.limits.steps
            )));
            continue;
        }
        // Each version of each point has its own share of work.
        smt.set_phase_work(ripple_symex::smt::work_of(config.per_point));
        let facts = facts_of.last().expect("pushed");
        let resolved = resolve(smt, facts, terms.len(), &own, config.templates);
        let invariants = resolved.invariants;
        samples.extend(resolved.samples);
        let spent = smt.phase_work_left() == 0;
        smt.set_phase_end(None);
        if spent && invariants.is_empty() {
            per_version.push(None);
            results.push(VersionResult::Undecided("solver budget spent".into()));
            continue;
        }
        results.push(VersionResult::Proved(
            invariants.iter().map(&render).collect(),
        ));
        per_version.push(Some(invariants));
    }

    // Version invariants: proved in the first chosen version, verified in every other.
    let mut version_invariants = Vec::new();
    if per_version.iter().all(Option::is_some) {
        let first = per_version[0].as_ref().expect("decided");
        for inv in first {
            if (1..per_version.len())
                .all(|w| holds_in(smt, &per_version[w], &facts_of[w], inv, &samples) == Some(true))
            {
                version_invariants.push(render(inv));
            }
        }
    }

    // Churns between consecutive chosen versions: what one version proves and the other
    // is shown (by the solver, on its own paths) not to have.
    let mut churns = Vec::new();
    for w in 0..config.versions.len().saturating_sub(1) {
        let (a, b) = (config.versions[w], config.versions[w + 1]);
        let (Some(ia), Some(ib)) = (&per_version[w], &per_version[w + 1]) else {
            continue;
        };
        // An invariant about a variable the other version does not declare (a local
        // removed or added) is no change of what the other version does: not compared.
        let in_both = |i: &&Invariant| {
            i.vars()
                .iter()
                .all(|&v| declared[v] & (1 << a) != 0 && declared[v] & (1 << b) != 0)
        };
        // A version whose paths had values made unknown (too large to keep) may fail an
        // invariant through the unknowns alone: what it fails is no churn.
        let exact = |v: usize| result.truncated & (1 << v) == 0;
        let removed: Vec<&Invariant> = ia
            .iter()
            .filter(in_both)
            .filter(|i| {
                exact(b)
                    && holds_in(smt, &per_version[w + 1], &facts_of[w + 1], i, &samples)
                        == Some(false)
            })
            .collect();
        let added: Vec<&Invariant> = ib
            .iter()
            .filter(in_both)
            .filter(|i| {
                exact(a) && holds_in(smt, &per_version[w], &facts_of[w], i, &samples) == Some(false)
            })
            .collect();
        // One churn per group of variables the changed invariants are about, with the
        // statements that changed those variables; the statements that changed the path
        // conditions count only where an invariant needs the conditions to hold.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for inv in removed.iter().chain(&added) {
            let vars = inv.vars();
            if !groups.contains(&vars) {
                groups.push(vars);
            }
        }
        for group in groups {
            let mine = |i: &&&Invariant| i.vars() == group;
            let gone: Vec<&Invariant> = removed.iter().filter(mine).copied().collect();
            let new: Vec<&Invariant> = added.iter().filter(mine).copied().collect();
            let needs_conditions = |smt: &mut Smt, facts: &[PathFact], invs: &[&Invariant]| {
                let unconditional: Vec<PathFact> = facts
                    .iter()
                    .map(|f| PathFact {
                        cond: ripple_symex::term::Cond::True,
                        values: f.values.clone(),
                    })
                    .collect();
                invs.iter().any(|i| {
                    verify(smt, &unconditional, i, &samples) != ripple_symex::Answer::Unsat
                })
            };
            let cond_a = needs_conditions(smt, &facts_of[w], &gone);
            let cond_b = needs_conditions(smt, &facts_of[w + 1], &new);
            let mut causes: BTreeSet<Cause> = BTreeSet::new();
            for p in &result.paths {
                let (in_a, in_b) = (p.versions & (1 << a) != 0, p.versions & (1 << b) != 0);
                if !in_a && !in_b {
                    continue;
                }
                for &i in &group {
                    causes.extend(p.causes[i].iter().copied());
                }
                if (in_a && cond_a) || (in_b && cond_b) {
                    causes.extend(p.cond_causes.iter().copied());
                }
            }
            churns.push(Churn {
                from: a,
                to: b,
                removed: gone.iter().map(|i| render(i)).collect(),
                added: new.iter().map(|i| render(i)).collect(),
                lines: churn_lines(programs, graph, &causes, a, b),
            });
        }
    }

    let lines = config
        .versions
        .iter()
        .map(|&v| node_line(programs, graph, f, node, v))
        .collect();
    let source_lines = |nodes: &std::collections::BTreeSet<Cause>| {
        let mut lines: Vec<SourceLine> = nodes
            .iter()
            .filter_map(|&(lf, ln)| {
                config
                    .versions
                    .iter()
                    .find_map(|&v| node_line(programs, graph, lf, ln, v))
            })
            .collect();
        lines.sort();
        lines.dedup();
        lines
    };
    let loops = source_lines(&result.loops);
    let unrolled = source_lines(&result.cut);
    if result.truncated != 0 {
        notes.push(
            "values too large to keep were made unknown: what a version then fails to show \
             is not a churn"
                .to_string(),
        );
    }
    Ok(PointResult {
        function: func.name.clone(),
        at,
        lines,
        vars: names,
        invariants: results,
        proved: per_version,
        version_invariants,
        churns,
        loops,
        unrolled,
        notes,
        steps: result.steps,
    })
}

/// The members of the records the pointer parameters point to, to name a load at a
/// constant offset of one (`decoder->_state`, not `*(signed char *)((char *)decoder +
/// 10)`): only when every version that has the function names those bytes alike (a
/// member moved by the change is left as bytes, which each version reads otherwise).
struct MemberNames<'p> {
    /// Per version that has the function: its program, and per pointer parameter its
    /// name and the type it points to.
    versions: Vec<(&'p Program, Pointees)>,
}

/// Pointer parameters by name, with the type each points to.
type Pointees = Vec<(Arc<str>, ripple_ir::TypeId)>;

impl<'p> MemberNames<'p> {
    fn of(programs: &[&'p Program], func: &mvicfg::MvFunction) -> MemberNames<'p> {
        let versions = func
            .origin
            .iter()
            .enumerate()
            .filter_map(|(v, id)| {
                let (program, id) = (*programs.get(v)?, (*id)?);
                let function = &program.functions[id];
                let pointees = function
                    .params
                    .iter()
                    .filter_map(|&var| {
                        let local = &function.locals[var];
                        match program.types.get(local.ty) {
                            ripple_ir::Type::Pointer(p) => {
                                Some((Arc::from(local.name.as_str()), *p))
                            }
                            _ => None,
                        }
                    })
                    .collect();
                Some((program, pointees))
            })
            .collect();
        MemberNames { versions }
    }

    /// `t` as a named member when it loads a whole member of a parameter's pointee at a
    /// constant offset (of a parameter the function does not change).
    fn name(&self, t: &Term, modified: &[Arc<str>]) -> Option<Term> {
        let Term::Load(address, repr) = t else {
            return None;
        };
        let (base, offset) = match address.as_ref() {
            Term::Binary(ripple_ir::BinOp::PtrAdd, base, offset, _) => match offset.as_ref() {
                Term::Int(k, _) => (base.as_ref(), u64::try_from(*k).ok()?),
                _ => return None,
            },
            base => (base, 0),
        };
        let Term::Var(name, _) = base else {
            return None;
        };
        if modified.contains(name) {
            return None;
        }
        let mut paths = self.versions.iter().map(|(program, pointees)| {
            let (_, pointee) = pointees.iter().find(|(n, _)| n == name)?;
            member_at(program, *pointee, offset, u64::from(repr.bits() / 8))
        });
        let path = paths.next()??;
        if !paths.all(|p| p.as_ref() == Some(&path)) {
            return None;
        }
        Some(Term::Var(Arc::from(format!("{name}->{path}")), *repr))
    }
}

/// The member of a record of type `ty` that is exactly the `size` bytes at `offset`:
/// `a.b`, `arr[2]`; None when those bytes are no one member (padding, part of one, a
/// bit-field).
fn member_at(program: &Program, ty: ripple_ir::TypeId, offset: u64, size: u64) -> Option<String> {
    let types = &program.types;
    let record = types.record(ty)?;
    let field = record.fields.iter().find(|f| {
        f.bit_field.is_none()
            && !f.name.is_empty()
            && f.offset <= offset
            && offset < f.offset + types.size_of(f.ty).max(1)
    })?;
    let within = offset - field.offset;
    let field_size = types.size_of(field.ty);
    if within == 0 && field_size == size && types.record(field.ty).is_none() {
        if let ripple_ir::Type::Array { .. } = types.get(field.ty) {
            return None;
        }
        return Some(field.name.clone());
    }
    match types.get(field.ty) {
        ripple_ir::Type::Record(_) => {
            let inner = member_at(program, field.ty, within, size)?;
            Some(format!("{}.{inner}", field.name))
        }
        ripple_ir::Type::Array { elem, .. } => {
            let step = types.size_of(*elem);
            if step == 0
                || types.record(*elem).is_some()
                || step != size
                || !within.is_multiple_of(step)
            {
                return None;
            }
            Some(format!("{}[{}]", field.name, within / step))
        }
        _ => None,
    }
}

/// Whether version `v` of function `f`, or a function it may enter, computes with `long
/// double`.
fn computes_long_double(graph: &Mvicfg, f: usize, v: usize) -> bool {
    let bit: Versions = 1 << v;
    let mut seen = vec![false; graph.functions.len()];
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        if std::mem::replace(&mut seen[g], true) {
            continue;
        }
        let function = &graph.functions[g];
        if function.long_double & bit != 0 {
            return true;
        }
        for node in function.nodes.iter().filter(|n| n.versions & bit != 0) {
            if let mvicfg::Stmt::Call {
                callee: mvicfg::Target::Defined(key),
                ..
            } = &node.stmt
            {
                stack.extend(graph.by_key[v].get(key.as_str()).copied());
            }
        }
    }
    false
}

/// Whether a version has `inv` at the point: listed among its invariants, or verified by
/// the solver on its paths (a bound looser than its tightest one, a relation it was not
/// asked for). `None` when the solver cannot tell.
fn holds_in(
    smt: &mut Smt,
    list: &Option<Vec<Invariant>>,
    facts: &[PathFact],
    inv: &Invariant,
    samples: &[Model],
) -> Option<bool> {
    let list = list.as_ref()?;
    if list.contains(inv) {
        return Some(true);
    }
    if let Invariant::Equals { var, expr } = inv {
        let same = list.iter().any(|other| {
            matches!(other, Invariant::Equals { var: v, expr: e } if v == var && same_value(smt, e, expr, samples))
        });
        if same {
            return Some(true);
        }
    }
    match verify(smt, facts, inv, samples) {
        ripple_symex::Answer::Unsat => Some(true),
        ripple_symex::Answer::Sat => Some(false),
        ripple_symex::Answer::Unknown => None,
    }
}

fn node_line(
    programs: &[&Program],
    graph: &Mvicfg,
    f: usize,
    node: usize,
    v: usize,
) -> Option<SourceLine> {
    let func = &graph.functions[f];
    let fid = func.origin[v]?;
    let id = func.nodes[node].origin[v]?;
    let program = programs[v];
    let span = program.functions[fid].nodes[id].span;
    if span.is_synthetic() {
        return None;
    }
    Some(SourceLine {
        file: program.files[span.file].path.clone(),
        line: span.start_line,
    })
}

/// Splits the causes of a churn between versions `a` and `b` into the lines only `b` has,
/// only `a` has, and both have.
fn churn_lines(
    programs: &[&Program],
    graph: &Mvicfg,
    causes: &BTreeSet<Cause>,
    a: usize,
    b: usize,
) -> ChurnLines {
    let mut lines = ChurnLines::default();
    for &(f, n) in causes {
        let versions = graph.functions[f].nodes[n].versions;
        let (in_a, in_b) = (versions & (1 << a) != 0, versions & (1 << b) != 0);
        match (in_a, in_b) {
            (true, true) => lines.shared.extend(node_line(programs, graph, f, n, b)),
            (false, true) => lines.added.extend(node_line(programs, graph, f, n, b)),
            (true, false) => lines.removed.extend(node_line(programs, graph, f, n, a)),
            (false, false) => {}
        }
    }
    for list in [&mut lines.added, &mut lines.removed, &mut lines.shared] {
        list.sort();
        list.dedup();
    }
    lines
}
