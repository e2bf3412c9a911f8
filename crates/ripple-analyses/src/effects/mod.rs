//! Change effects and test-suite assessment (Santelices, 002, chapters 3, 5 and 6).
//!
//! - [`changes`]: the change model (002 Definition 14) and the variants `P'\C`.
//! - [`chains`]: dependence chains from each change up to distance `d` (CHAIN
//!   requirements, 002 section 5.2), on both versions.
//! - [`monitor`]: demand-driven monitoring of a run (002 section 6.2).
//! - This module: the requirements of each change (CHAIN, PROP, and the STMT, BR and DU
//!   baselines), and [`assess`], which replays a suite's runs on both versions
//!   (SATISFYREQSDEMAND, 002 Fig. 17, without drawing new tests): which requirements
//!   each test satisfies, which tests reveal a difference, and which add nothing.
//!
//! A chain found in both versions (the old one maps onto the new one through MAPPED) is
//! one requirement, satisfied by the new version's runs, as 002 Table 8 counts E1's
//! chains. A CHAIN requirement is satisfied by a run that covers the chain: occurrences of its
//! statements linked by the chain's dependences, starting at an occurrence of the change.
//! A PROP requirement (002 section 6.1) is satisfied when, in addition, the affecting
//! state of every dependence of that instance (the decision of a branch, the value
//! assigned) differs from the state of the same occurrence (same statement, same
//! execution count) in the other version's run on the same test; a statement the other
//! version does not run there differs. Several changes (002 section 7.1): once another
//! change has run, the state is taken as infected, so the PROP requirements of a change
//! that runs after another are satisfied by covering their chains, and counted apart.

pub mod chains;
pub mod changes;
pub mod inline;
pub mod monitor;
pub mod state;

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::Sdg;
use ripple_ir::{NodeKind, Program};

use crate::dcia::Side;
pub use chains::{Chain, ChainLimits, ChangeChains, Dep, DepKind};
pub use changes::{Change, ChangeSet, FilePair, NodeRef};
pub use monitor::{Monitor, MonitorConfig, State, Trace};
pub use state::{state_requirement, StateLimits, StateRequirement};

/// A CHAIN requirement, and its PROP state requirement.
#[derive(Clone, Debug)]
pub struct Requirement {
    pub change: usize,
    /// The version the chain is in; `None`: it is in both (the old chain maps onto the
    /// new one through MAPPED).
    pub side: Option<Side>,
    /// The chain, in the new version unless `side` is `Some(Side::Old)`.
    pub chain: Chain,
    /// For a chain in both versions, the old version's (the one that maps onto `chain`).
    pub old_chain: Option<Chain>,
}

/// The requirements of one change.
#[derive(Clone, Debug)]
pub struct ChangeRequirements {
    pub change: usize,
    /// Sorted by distance.
    pub chains: Vec<Requirement>,
    /// Whether the enumeration stopped at its limit in either version.
    pub truncated: bool,
    /// BR: the outcomes of the branches within distance `d` (new version).
    pub branches: Vec<(NodeRef, bool)>,
    /// DU: the data dependences within distance `d` (new version).
    pub def_uses: Vec<(NodeRef, NodeRef)>,
}

/// The requirements of every change.
#[derive(Clone, Debug)]
pub struct Requirements {
    pub changes: Vec<ChangeRequirements>,
    pub distance: usize,
}

/// Computes the CHAIN requirements and the BR and DU baselines of every change.
pub fn requirements(
    old: &Program,
    new: &Program,
    old_sdg: &Sdg,
    new_sdg: &Sdg,
    set: &ChangeSet,
    limits: ChainLimits,
) -> Requirements {
    let mut out = Vec::new();
    for change in &set.changes {
        let new_chains = chains::chains_from(new, new_sdg, change.id, &change.new_nodes, limits);
        let old_chains = chains::chains_from(old, old_sdg, change.id, &change.old_nodes, limits);
        let known: FxHashSet<&Vec<Dep>> = new_chains.chains.iter().map(|c| &c.deps).collect();
        let mut reqs: Vec<Requirement> = Vec::new();
        // The old chains that map onto new ones, by the new chain's dependences.
        let mut both: FxHashMap<Vec<Dep>, Chain> = FxHashMap::default();
        let mut old_only = Vec::new();
        for chain in &old_chains.chains {
            match map_deps(&chain.deps, &set.old_to_new) {
                Some(mapped) if known.contains(&mapped) => {
                    both.insert(mapped, chain.clone());
                }
                _ => old_only.push(chain.clone()),
            }
        }
        for chain in &new_chains.chains {
            let old_chain = both.get(&chain.deps).cloned();
            reqs.push(Requirement {
                change: change.id,
                side: if old_chain.is_some() {
                    None
                } else {
                    Some(Side::New)
                },
                chain: chain.clone(),
                old_chain,
            });
        }
        reqs.extend(old_only.into_iter().map(|chain| Requirement {
            change: change.id,
            side: Some(Side::Old),
            chain,
            old_chain: None,
        }));
        // Nearest first; at one distance, chains that stay in the changed function, then
        // those of the new version.
        let key = |r: &Requirement| {
            let leaves = r.chain.deps.iter().any(|d| d.to.0 != r.chain.root.0);
            (r.chain.len(), leaves, r.side == Some(Side::Old))
        };
        reqs.sort_by(|a, b| {
            key(a)
                .cmp(&key(b))
                .then_with(|| a.chain.deps.cmp(&b.chain.deps))
        });
        let mut branches = FxHashSet::default();
        let mut def_uses = FxHashSet::default();
        for c in &new_chains.chains {
            for d in &c.deps {
                for node in [d.from, d.to] {
                    if matches!(
                        new.functions[node.0].nodes[node.1].kind,
                        NodeKind::Branch { .. }
                    ) {
                        branches.insert((node, true));
                        branches.insert((node, false));
                    }
                }
                if d.kind == DepKind::Data {
                    def_uses.insert((d.from, d.to));
                }
            }
        }
        let mut branches: Vec<_> = branches.into_iter().collect();
        branches.sort_unstable();
        let mut def_uses: Vec<_> = def_uses.into_iter().collect();
        def_uses.sort_unstable();
        out.push(ChangeRequirements {
            change: change.id,
            chains: reqs,
            truncated: new_chains.truncated || old_chains.truncated,
            branches,
            def_uses,
        });
    }
    Requirements {
        changes: out,
        distance: limits.distance,
    }
}

fn map_deps(deps: &[Dep], map: &FxHashMap<NodeRef, NodeRef>) -> Option<Vec<Dep>> {
    deps.iter()
        .map(|d| {
            Some(Dep {
                from: *map.get(&d.from)?,
                to: *map.get(&d.to)?,
                kind: d.kind,
            })
        })
        .collect()
}

/// What to monitor in each version's runs: (old, new).
pub fn monitor_configs(
    reqs: &Requirements,
    set: &ChangeSet,
    max_occurrences: usize,
) -> (MonitorConfig, MonitorConfig) {
    let mut old = MonitorConfig {
        distance: reqs.distance as u32,
        max_occurrences,
        ..MonitorConfig::default()
    };
    old.chain_nodes = Some(FxHashSet::default());
    let mut new = old.clone();
    for c in &set.changes {
        old.roots.extend(c.old_nodes.iter().map(|&n| (n, c.id)));
        new.roots.extend(c.new_nodes.iter().map(|&n| (n, c.id)));
    }
    for r in reqs.changes.iter().flat_map(|c| &c.chains) {
        // A chain both versions have is followed in the runs of both.
        let sides = [
            (r.side == Some(Side::Old), Some(&r.chain)),
            (true, r.old_chain.as_ref()),
        ];
        for (in_old, chain) in sides {
            let Some(chain) = chain else {
                continue;
            };
            let (own, other, map) = if in_old {
                (&mut old, &mut new, &set.old_to_new)
            } else {
                (&mut new, &mut old, &set.new_to_old)
            };
            let nodes = own.chain_nodes.get_or_insert_with(FxHashSet::default);
            nodes.insert(chain.root);
            nodes.extend(chain.deps.iter().map(|d| d.to));
            for d in &chain.deps {
                own.interest.insert(d.from);
                if let Some(&m) = map.get(&d.from) {
                    other.interest.insert(m);
                }
            }
        }
    }
    (old, new)
}

/// The static state requirements of one requirement: in its own version (the new one
/// for a chain both have, as 002 counts it) and, for a chain both versions have, in the
/// old version too.
#[derive(Clone, Debug)]
pub struct States {
    pub own: StateRequirement,
    pub old: Option<StateRequirement>,
}

/// The state requirement of a chain both versions have, in the old version (`None` for
/// a chain of one version): 002 runs
/// COMPUTEEFFECTS on both programs, and some effects are the old version's only (a
/// statement the new version no longer runs for some inputs).
pub fn old_state(
    old: &Program,
    new: &Program,
    req: &Requirement,
    set: &ChangeSet,
    limits: StateLimits,
) -> Option<StateRequirement> {
    let chain = req.old_chain.as_ref()?;
    Some(state_requirement(old, new, chain, &set.old_to_new, limits))
}

/// How one test ran on both versions.
#[derive(Clone, Debug)]
pub struct TestRun {
    pub old: Trace,
    pub new: Trace,
    /// Whether the outputs (standard output, exit status) differ.
    pub differs: bool,
}

/// How a chain was covered by one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cover {
    /// Some instance had a differing affecting state at every dependence.
    pub propagated: bool,
    /// Some instance started after another change had run (state taken as infected).
    pub assumed: bool,
}

/// The chains of every requirement of one version as a trie: a run's dependence
/// occurrences extend a prefix only where some requirement continues it, so monitoring
/// follows the requirements, never every dynamic path.
#[derive(Clone, Debug, Default)]
pub struct ChainTrie {
    children: FxHashMap<(u32, Dep), u32>,
    /// The trie roots of each change statement.
    roots: FxHashMap<NodeRef, Vec<u32>>,
    /// The requirement (change index, requirement index) a trie node completes.
    complete: Vec<Option<(usize, usize)>>,
}

impl ChainTrie {
    /// The tries of the old and the new version's requirements; a chain both versions
    /// have is in both (its old counterpart in the old one's).
    pub fn of(reqs: &Requirements) -> [ChainTrie; 2] {
        let mut tries = [ChainTrie::default(), ChainTrie::default()];
        for (c, cr) in reqs.changes.iter().enumerate() {
            for (r, req) in cr.chains.iter().enumerate() {
                let own = (usize::from(req.side != Some(Side::Old)), Some(&req.chain));
                for (version, chain) in [own, (0, req.old_chain.as_ref())] {
                    let Some(chain) = chain else {
                        continue;
                    };
                    let trie = &mut tries[version];
                    let mut at = trie.root(chain.root);
                    for dep in &chain.deps {
                        let next = trie.complete.len() as u32;
                        at = *trie.children.entry((at, *dep)).or_insert(next);
                        if at == next {
                            trie.complete.push(None);
                        }
                    }
                    trie.complete[at as usize] = Some((c, r));
                }
            }
        }
        tries
    }

    fn root(&mut self, node: NodeRef) -> u32 {
        if let Some(r) = self.roots.get(&node) {
            return r[0];
        }
        let id = self.complete.len() as u32;
        self.complete.push(None);
        self.roots.insert(node, vec![id]);
        id
    }
}

/// The requirements one run covers, with how: `(change index, requirement index)`.
/// `other` is the other version's run on the same test and `map` takes this version's
/// statements to the other's.
pub fn covered_chains(
    trace: &Trace,
    other: &Trace,
    map: &FxHashMap<NodeRef, NodeRef>,
    trie: &ChainTrie,
) -> FxHashMap<(usize, usize), Cover> {
    // Per occurrence: (trie node, propagated, assumed).
    let mut at: Vec<Vec<(u32, bool, bool)>> = vec![Vec::new(); trace.occurrences.len()];
    let differs = |occ: &monitor::Occurrence| {
        let theirs = map
            .get(&occ.node)
            .and_then(|m| other.states.get(&(*m, occ.index)));
        theirs != Some(&occ.state)
    };
    let mut out: FxHashMap<(usize, usize), Cover> = FxHashMap::default();
    for (i, occ) in trace.occurrences.iter().enumerate() {
        let mut here: Vec<(u32, bool, bool)> = Vec::new();
        if occ.change.is_some() {
            for &root in trie.roots.get(&occ.node).into_iter().flatten() {
                here.push((root, true, occ.after_other_change));
            }
        }
        for &(src, kind) in &occ.sources {
            let source = &trace.occurrences[src as usize];
            if at[src as usize].is_empty() {
                continue;
            }
            let dep = Dep {
                from: source.node,
                to: occ.node,
                kind,
            };
            let changed_state = differs(source);
            for &(p, prop, assumed) in &at[src as usize] {
                if let Some(&child) = trie.children.get(&(p, dep)) {
                    let entry = (child, prop && changed_state, assumed);
                    if !here.contains(&entry) {
                        here.push(entry);
                    }
                }
            }
        }
        for &(node, prop, assumed) in &here {
            if let Some(req) = trie.complete[node as usize] {
                let cover = out.entry(req).or_default();
                cover.propagated |= prop && !assumed;
                cover.assumed |= assumed;
            }
        }
        at[i] = here;
    }
    out
}

/// The results of one requirement over a suite.
#[derive(Clone, Debug, Default)]
pub struct RequirementResult {
    /// Tests (indexes) covering the chain.
    pub covered_by: Vec<usize>,
    /// Tests satisfying the state requirement (PROP).
    pub propagated_by: Vec<usize>,
    /// Tests satisfying it only because another change ran first.
    pub assumed_by: Vec<usize>,
    /// For a chain both versions have, the tests covering it in the old version's runs,
    /// and those propagating a difference along it there (the lists above are the new
    /// version's, as 002 counts them).
    pub old_covered_by: Vec<usize>,
    pub old_propagated_by: Vec<usize>,
}

/// The results of one change over a suite.
#[derive(Clone, Debug, Default)]
pub struct ChangeResult {
    pub change: usize,
    /// Per requirement of [`ChangeRequirements::chains`], in order.
    pub requirements: Vec<RequirementResult>,
    /// STMT: tests that run the change (in either version).
    pub run_by: Vec<usize>,
    /// BR and DU after the change ran (new version): covered of the totals.
    pub branches_covered: usize,
    pub def_uses_covered: usize,
}

/// The assessment of a suite.
#[derive(Clone, Debug, Default)]
pub struct Assessment {
    pub changes: Vec<ChangeResult>,
    /// Tests whose outputs differ between the versions.
    pub revealing: Vec<usize>,
    /// Tests kept by SATISFYREQSDEMAND (each satisfies a CHAIN or PROP requirement no
    /// earlier test satisfied), in suite order; the others add nothing.
    pub kept: Vec<usize>,
}

/// What one test satisfies of one change's requirements (indexes into
/// [`ChangeRequirements`]'s lists).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Satisfied {
    /// STMT: the change ran (in either version).
    pub stmt: bool,
    pub branches: Vec<usize>,
    pub def_uses: Vec<usize>,
    /// CHAIN: the chains covered.
    pub chains: Vec<usize>,
    /// PROP: the chains propagated (or covered after another change ran).
    pub props: Vec<usize>,
    /// The chains among `props` satisfied only by the rule of 002 section 7.1.
    pub assumed: Vec<usize>,
    /// Chains both versions have, covered and propagated in the old version's run.
    pub old_chains: Vec<usize>,
    pub old_props: Vec<usize>,
}

/// What one test satisfies, per change of `reqs` in order (`tries`: [`ChainTrie::of`]).
pub fn satisfied(
    reqs: &Requirements,
    tries: &[ChainTrie; 2],
    set: &ChangeSet,
    run: &TestRun,
) -> Vec<Satisfied> {
    let covers_old = covered_chains(&run.old, &run.new, &set.old_to_new, &tries[0]);
    let covers_new = covered_chains(&run.new, &run.old, &set.new_to_old, &tries[1]);
    reqs.changes
        .iter()
        .enumerate()
        .map(|(ci, cr)| {
            let ran_new = run.new.changes_run.contains(&cr.change);
            let mut s = Satisfied {
                stmt: ran_new || run.old.changes_run.contains(&cr.change),
                ..Satisfied::default()
            };
            if ran_new {
                s.branches = (0..cr.branches.len())
                    .filter(|&i| run.new.branches_after.contains(&cr.branches[i]))
                    .collect();
                s.def_uses = (0..cr.def_uses.len())
                    .filter(|&i| run.new.du_after.contains(&cr.def_uses[i]))
                    .collect();
            }
            for (r, req) in cr.chains.iter().enumerate() {
                let (own, twin) = match req.side {
                    Some(Side::Old) => (covers_old.get(&(ci, r)), None),
                    Some(Side::New) => (covers_new.get(&(ci, r)), None),
                    None => (covers_new.get(&(ci, r)), covers_old.get(&(ci, r))),
                };
                if let Some(c) = own {
                    s.chains.push(r);
                    if c.propagated || c.assumed {
                        s.props.push(r);
                    }
                    if c.assumed && !c.propagated {
                        s.assumed.push(r);
                    }
                }
                if let Some(c) = twin {
                    s.old_chains.push(r);
                    if c.propagated {
                        s.old_props.push(r);
                    }
                }
            }
            s
        })
        .collect()
}

/// Replays the runs of a suite against the requirements (SATISFYREQSDEMAND, 002 Fig. 17).
pub fn assess(reqs: &Requirements, set: &ChangeSet, runs: &[TestRun]) -> Assessment {
    let tries = ChainTrie::of(reqs);
    let per_test: Vec<Vec<Satisfied>> = runs
        .iter()
        .map(|r| satisfied(reqs, &tries, set, r))
        .collect();
    let revealing: Vec<bool> = runs.iter().map(|r| r.differs).collect();
    assess_satisfied(reqs, &per_test, &revealing)
}

/// [`assess`] from what each test satisfies and whether its output differs.
pub fn assess_satisfied(
    reqs: &Requirements,
    per_test: &[Vec<Satisfied>],
    revealing: &[bool],
) -> Assessment {
    let mut out = Assessment {
        revealing: (0..revealing.len()).filter(|&t| revealing[t]).collect(),
        ..Assessment::default()
    };
    let mut keep = vec![false; revealing.len()];
    for (c, cr) in reqs.changes.iter().enumerate() {
        let mut result = ChangeResult {
            change: cr.change,
            requirements: vec![RequirementResult::default(); cr.chains.len()],
            ..ChangeResult::default()
        };
        let mut branches: FxHashSet<usize> = FxHashSet::default();
        let mut def_uses: FxHashSet<usize> = FxHashSet::default();
        // (requirement, what: CHAIN, PROP, and both in the old version) satisfied by an
        // earlier test.
        let mut done: FxHashSet<(usize, u8)> = FxHashSet::default();
        for (t, sat) in per_test.iter().enumerate() {
            let s = &sat[c];
            if s.stmt {
                result.run_by.push(t);
            }
            branches.extend(&s.branches);
            def_uses.extend(&s.def_uses);
            for &r in &s.chains {
                result.requirements[r].covered_by.push(t);
                keep[t] |= done.insert((r, 0));
            }
            for &r in &s.props {
                if s.assumed.contains(&r) {
                    result.requirements[r].assumed_by.push(t);
                } else {
                    result.requirements[r].propagated_by.push(t);
                }
                keep[t] |= done.insert((r, 1));
            }
            for &r in &s.old_chains {
                result.requirements[r].old_covered_by.push(t);
                keep[t] |= done.insert((r, 2));
            }
            for &r in &s.old_props {
                result.requirements[r].old_propagated_by.push(t);
                keep[t] |= done.insert((r, 3));
            }
        }
        result.branches_covered = branches.len();
        result.def_uses_covered = def_uses.len();
        out.changes.push(result);
    }
    // SATISFYREQSDEMAND keeps a test when it satisfies something new in suite order:
    // the first satisfier of each requirement.
    out.kept = (0..revealing.len()).filter(|&t| keep[t]).collect();
    out
}

/// A test criterion of 002 Table 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    Stmt,
    Br,
    Du,
    Chain,
    Prop,
}

impl Criterion {
    pub const ALL: [Criterion; 5] = [
        Criterion::Stmt,
        Criterion::Br,
        Criterion::Du,
        Criterion::Chain,
        Criterion::Prop,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Criterion::Stmt => "STMT",
            Criterion::Br => "BR",
            Criterion::Du => "DU",
            Criterion::Chain => "CHAIN",
            Criterion::Prop => "PROP",
        }
    }

    /// The requirements a test satisfies under the criterion (PROP includes CHAIN's).
    fn requirements(self, s: &Satisfied) -> Vec<(u8, usize)> {
        match self {
            Criterion::Stmt => s.stmt.then_some((0, 0)).into_iter().collect(),
            Criterion::Br => s.branches.iter().map(|&i| (0, i)).collect(),
            Criterion::Du => s.def_uses.iter().map(|&i| (0, i)).collect(),
            Criterion::Chain => s.chains.iter().map(|&i| (0, i)).collect(),
            Criterion::Prop => {
                let mut v: Vec<(u8, usize)> = s.chains.iter().map(|&i| (0, i)).collect();
                v.extend(s.props.iter().map(|&i| (1, i)));
                v
            }
        }
    }
}

/// How well suites adequate for one criterion find one change (002 Table 7).
#[derive(Clone, Debug, PartialEq)]
pub struct Adequacy {
    pub criterion: Criterion,
    /// Requirements the pool satisfies (the suites satisfy all of them).
    pub requirements: usize,
    /// Share of the suites holding a difference-revealing test, in percent; `None` when
    /// the pool satisfies no requirement.
    pub detection: Option<f64>,
    pub mean_size: f64,
}

/// For each change and criterion, `suites` random greedy suites drawn from the pool
/// (`per_test`, `revealing`): tests taken in a random order, each kept when it
/// satisfies a requirement the suite does not yet satisfy, until the suite satisfies
/// everything the pool does. The order comes from `seed`, so the result is the same on
/// every run.
pub fn adequacy(
    per_test: &[Vec<Satisfied>],
    revealing: &[bool],
    changes: usize,
    suites: usize,
    seed: u64,
) -> Vec<Vec<Adequacy>> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for c in 0..changes {
        let mut row = Vec::new();
        for criterion in Criterion::ALL {
            let reqs: Vec<Vec<(u8, usize)>> = per_test
                .iter()
                .map(|s| criterion.requirements(&s[c]))
                .collect();
            let all: FxHashSet<(u8, usize)> = reqs.iter().flatten().copied().collect();
            if all.is_empty() {
                row.push(Adequacy {
                    criterion,
                    requirements: 0,
                    detection: None,
                    mean_size: 0.0,
                });
                continue;
            }
            let (mut found, mut size) = (0usize, 0usize);
            let mut order: Vec<usize> = (0..per_test.len()).collect();
            for _ in 0..suites {
                // Fisher-Yates.
                for i in (1..order.len()).rev() {
                    let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                    order.swap(i, j);
                }
                let mut have: FxHashSet<(u8, usize)> = FxHashSet::default();
                let mut reveals = false;
                for &t in &order {
                    if reqs[t].iter().any(|r| !have.contains(r)) {
                        have.extend(&reqs[t]);
                        size += 1;
                        reveals |= revealing[t];
                        if have.len() == all.len() {
                            break;
                        }
                    }
                }
                found += usize::from(reveals);
            }
            row.push(Adequacy {
                criterion,
                requirements: all.len(),
                detection: Some(100.0 * found as f64 / suites.max(1) as f64),
                mean_size: size as f64 / suites.max(1) as f64,
            });
        }
        out.push(row);
    }
    out
}

/// A small deterministic generator (SplitMix64) for drawing suites and tests.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The statements that may read the initial value of one of `globals` (a changed
/// initializer): those loading from them by name. `None` when the address of one is
/// used otherwise (kept, passed, stored, in another global's initializer): then any
/// statement may read it through a pointer. A run that executes none of these
/// statements cannot observe the initial values, so a test whose monitored runs miss
/// them all is not selected for them.
pub fn global_readers(
    program: &Program,
    globals: &[ripple_ir::GlobalId],
) -> Option<FxHashSet<NodeRef>> {
    let wanted: FxHashSet<ripple_ir::GlobalId> = globals.iter().copied().collect();
    let mut escapes = false;
    let mut readers = FxHashSet::default();
    let mut value = |g: ripple_ir::GlobalId| escapes |= wanted.contains(&g);
    for global in &program.globals {
        for item in global.init.iter().flat_map(|i| &i.items) {
            if let ripple_ir::InitItem::Value { value: v, .. }
            | ripple_ir::InitItem::Bits { value: v, .. } = item
            {
                v.global_uses(&mut |_| {}, &mut value);
            }
        }
    }
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            let mut reads = false;
            let mut at = |g: ripple_ir::GlobalId| reads |= wanted.contains(&g);
            // A store is no read, but a bit-field store rewrites its storage unit.
            let place = |p: &ripple_ir::Place,
                         at: &mut dyn FnMut(ripple_ir::GlobalId),
                         value: &mut dyn FnMut(ripple_ir::GlobalId)| match p
            {
                ripple_ir::Place::Local(_) => {}
                ripple_ir::Place::Mem { addr, .. } => addr.address_global_uses(&mut |_| {}, value),
                ripple_ir::Place::Bits { addr, .. } => addr.address_global_uses(at, value),
            };
            match &node.kind {
                NodeKind::Assign { dst, value: v } => {
                    place(dst, &mut at, &mut value);
                    v.global_uses(&mut at, &mut value);
                }
                NodeKind::Call { dst, callee, args } => {
                    if let Some(dst) = dst {
                        place(dst, &mut at, &mut value);
                    }
                    if let ripple_ir::Callee::Indirect(target) = callee {
                        target.global_uses(&mut at, &mut value);
                    }
                    for a in args {
                        a.global_uses(&mut at, &mut value);
                    }
                }
                NodeKind::Branch { cond } => cond.global_uses(&mut at, &mut value),
                NodeKind::Havoc { dst: Some(dst), .. } => place(dst, &mut at, &mut value),
                NodeKind::Havoc { dst: None, .. }
                | NodeKind::Entry
                | NodeKind::Exit
                | NodeKind::Skip => {}
            }
            if reads {
                readers.insert((f, n));
            }
        }
    }
    (!escapes).then_some(readers)
}

/// The functions a run of the program may execute: those reachable through the call
/// graph (calls through pointers to every address-taken function that fits) from `main`
/// and from every address-taken function (a library may call one back at any time).
/// `None` for a program without `main`.
pub fn may_run(program: &Program) -> Option<Vec<bool>> {
    let main = program.defined_main()?;
    let graph = ripple_graph::CallGraph::build(program);
    let mut seen = vec![false; program.functions.len()];
    let mut stack: Vec<ripple_ir::FuncId> = graph.address_taken.clone();
    stack.push(main);
    while let Some(f) = stack.pop() {
        if !std::mem::replace(&mut seen[f.index()], true) {
            stack.extend(graph.callees[f.index()].iter().copied());
        }
    }
    Some(seen)
}
