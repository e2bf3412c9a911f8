//! Property test of SEA and SEB on randomly generated small programs against a
//! brute-force oracle over interprocedurally realizable paths.
//!
//! Definition checked (004 section 3): `g ∈ SEA(f)` (without ID) iff some realizable
//! path (calls and returns matched; starting at the entry of any function, since every
//! function may be called from outside) visits an entry of `f` and later an exit of `g`,
//! where for `g = f` the exit is of another activation than the entered one (the same
//! activation gives the optional ID relation). Functions without a body are entered and
//! left at the call. SEB is checked as the dual: `g ∈ SEB(f)` iff `f ∈ SEA(g)`.
//!
//! The oracle is exact: a tabulation (Reps, Horwitz, Sagiv) of same-level path edges over
//! the product of each CFG with a small automaton that tracks whether `f` was entered,
//! whether `g` then exited, and, in the frame, whether this activation is that first
//! entry of `f`. It shares no code with the algorithms beyond the call-site targets.
//!
//! SEA assumes, as the paper does, that every call may return: on programs where every
//! function may return the sets must be equal to the oracle's; on the others they must
//! contain them (sound over-approximation).

mod support;

use ripple_conformance::Rng;
use std::collections::{HashMap, HashSet};

use ripple_analyses::sea::{per_function, sea_sets, Algorithm, AllFunctions, Direction, SeaConfig};
use ripple_ir::{FuncId, NodeKind};
use support::{graphs, FunctionSpec, Graphs, Op};

/// A random program: 2 to 5 functions with bodies and 0 to 2 without. Every node's first
/// successor lies further on, so every node can reach the exit; a branch's second
/// successor may go back (loops). Calls are direct, or through a pointer of one of two
/// signatures; some nodes take function addresses, so pointer targets vary.
fn random_program(rng: &mut Rng) -> Vec<FunctionSpec> {
    let defined = 2 + rng.index(4);
    let externals = rng.index(3);
    let total = defined + externals;
    let mut specs = Vec::new();
    for f in 0..total {
        let signature = u8::from(rng.chance(30));
        if f >= defined {
            specs.push(FunctionSpec {
                name: format!("x{f}"),
                signature,
                body: None,
            });
            continue;
        }
        let middle = 1 + rng.index(6);
        let exit = middle + 1;
        let mut body = vec![Op::Entry(1)];
        for i in 1..=middle {
            let forward = i + 1 + rng.index(exit - i);
            let op = match rng.index(100) {
                0..=24 => Op::Skip(forward),
                25..=49 => Op::Branch(forward, 1 + rng.index(exit)),
                50..=79 => Op::Call(rng.index(total), forward),
                80..=89 => Op::CallPtr(u8::from(rng.chance(40)), forward),
                _ => Op::TakeAddress(rng.index(total), forward),
            };
            body.push(op);
        }
        body.push(Op::Exit);
        specs.push(FunctionSpec {
            name: format!("f{f}"),
            signature,
            body: Some(body),
        });
    }
    specs
}

/// The CFG the oracle walks: per function, nodes with successors and call targets;
/// functions without a body get a two-node CFG (entry, exit).
struct OracleCfg {
    nodes: Vec<Vec<(Vec<usize>, Vec<usize>)>>,
    entry: Vec<usize>,
    exit: Vec<usize>,
}

impl OracleCfg {
    fn new(g: &Graphs) -> OracleCfg {
        let mut targets: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for site in &g.callgraph.sites {
            targets.insert(
                (site.caller.index(), site.node.index()),
                site.target.callees().iter().map(|f| f.index()).collect(),
            );
        }
        let mut nodes = Vec::new();
        let mut entry = Vec::new();
        let mut exit = Vec::new();
        for (id, function) in g.program.functions.iter_enumerated() {
            if !function.is_defined() {
                nodes.push(vec![(vec![1], vec![]), (vec![], vec![])]);
                entry.push(0);
                exit.push(1);
                continue;
            }
            nodes.push(
                function
                    .nodes
                    .iter_enumerated()
                    .map(|(n, node)| {
                        let calls = match node.kind {
                            NodeKind::Call { .. } => targets
                                .get(&(id.index(), n.index()))
                                .cloned()
                                .unwrap_or_default(),
                            _ => Vec::new(),
                        };
                        (node.succs.iter().map(|s| s.index()).collect(), calls)
                    })
                    .collect(),
            );
            entry.push(function.entry.index());
            exit.push(function.exit.index());
        }
        OracleCfg { nodes, entry, exit }
    }

    /// Whether every function may return (least fixpoint: the exit is reachable from the
    /// entry through nodes whose calls have a target that may return).
    fn every_function_may_return(&self) -> bool {
        let count = self.nodes.len();
        let mut returns = vec![false; count];
        loop {
            let mut changed = false;
            for f in 0..count {
                if returns[f] {
                    continue;
                }
                let mut seen = vec![false; self.nodes[f].len()];
                let mut stack = vec![self.entry[f]];
                seen[self.entry[f]] = true;
                while let Some(n) = stack.pop() {
                    let (succs, calls) = &self.nodes[f][n];
                    if !calls.is_empty() && !calls.iter().any(|&t| returns[t]) {
                        continue;
                    }
                    for &s in succs {
                        if !seen[s] {
                            seen[s] = true;
                            stack.push(s);
                        }
                    }
                }
                if seen[self.exit[f]] {
                    returns[f] = true;
                    changed = true;
                }
            }
            if !changed {
                return returns.iter().all(|&r| r);
            }
        }
    }

    /// Whether some realizable path enters `f` and later exits `g` (another activation
    /// when `g = f`).
    fn executes_after(&self, f: usize, g: usize) -> bool {
        // Context of an activation: (phase at entry, whether it is the first entry of f).
        // Phase: 0 before f entered, 1 after, 2 after g then exited.
        type Context = (u8, bool);
        let enter = |callee: usize, phase: u8| -> Context {
            if callee == f && phase == 0 {
                (1, true)
            } else {
                (phase, false)
            }
        };
        // Path edges: (function, context, node, phase, frame mark).
        let mut seen: HashSet<(usize, Context, usize, u8, bool)> = HashSet::new();
        let mut work: Vec<(usize, Context, usize, u8, bool)> = Vec::new();
        // Summaries: (function, context) -> phases at return.
        let mut summaries: HashMap<(usize, Context), HashSet<u8>> = HashMap::new();
        // Callers waiting: (function, context) -> (caller, caller context, call node, mark).
        type Waiting = Vec<(usize, Context, usize, bool)>;
        let mut waiting: HashMap<(usize, Context), Waiting> = HashMap::new();
        let mut push = |state: (usize, Context, usize, u8, bool), work: &mut Vec<_>| {
            if seen.insert(state) {
                work.push(state);
            }
        };
        for root in 0..self.nodes.len() {
            let ctx = enter(root, 0);
            push((root, ctx, self.entry[root], ctx.0, ctx.1), &mut work);
        }
        while let Some((h, ctx, n, phase, mark)) = work.pop() {
            if phase == 2 {
                return true;
            }
            let (succs, calls) = &self.nodes[h][n];
            if n == self.exit[h] {
                let out = if h == g && phase == 1 && !(h == f && mark) {
                    2
                } else {
                    phase
                };
                if out == 2 {
                    return true;
                }
                if summaries.entry((h, ctx)).or_default().insert(out) {
                    for &(caller, caller_ctx, call, caller_mark) in
                        waiting.get(&(h, ctx)).into_iter().flatten()
                    {
                        for &s in &self.nodes[caller][call].0 {
                            push((caller, caller_ctx, s, out, caller_mark), &mut work);
                        }
                    }
                }
                continue;
            }
            if calls.is_empty() {
                for &s in succs {
                    push((h, ctx, s, phase, mark), &mut work);
                }
                continue;
            }
            for &t in calls {
                let callee_ctx = enter(t, phase);
                waiting
                    .entry((t, callee_ctx))
                    .or_default()
                    .push((h, ctx, n, mark));
                push(
                    (t, callee_ctx, self.entry[t], callee_ctx.0, callee_ctx.1),
                    &mut work,
                );
                let outs: Vec<u8> = summaries
                    .get(&(t, callee_ctx))
                    .into_iter()
                    .flatten()
                    .copied()
                    .collect();
                for out in outs {
                    for &s in succs {
                        push((h, ctx, s, out, mark), &mut work);
                    }
                }
            }
        }
        false
    }
}

#[test]
fn sea_and_seb_match_realizable_paths_on_random_programs() {
    let mut exact_programs = 0;
    let mut nonempty_pairs = 0;
    for seed in 0..400u64 {
        let mut rng = Rng(seed);
        let specs = random_program(&mut rng);
        let g = graphs(&specs);
        let cfg = OracleCfg::new(&g);
        let exact = cfg.every_function_may_return();
        exact_programs += usize::from(exact);
        let count = g.program.functions.len();
        let all = AllFunctions::compute(&g.iccfg);
        let oracle: Vec<Vec<bool>> = (0..count)
            .map(|f| (0..count).map(|h| cfg.executes_after(f, h)).collect())
            .collect();
        for f in 0..count {
            let id = FuncId::from(f);
            let fig4 = per_function(&g.iccfg, id, Direction::After);
            let fig5 = all.membership(id, Direction::After);
            assert_eq!(
                fig4, fig5,
                "seed {seed}: Fig. 4 and Fig. 5 differ on SEA({})",
                specs[f].name
            );
            let fig4_before = per_function(&g.iccfg, id, Direction::Before);
            let fig5_before = all.membership(id, Direction::Before);
            assert_eq!(
                fig4_before, fig5_before,
                "seed {seed}: Fig. 4 and Fig. 5 differ on SEB({})",
                specs[f].name
            );
            let sea = fig4.union();
            let seb = fig4_before.union();
            for h in 0..count {
                nonempty_pairs += usize::from(oracle[f][h]);
                // SEB is the dual of SEA.
                let h_sea = per_function(&g.iccfg, FuncId::from(h), Direction::After).union();
                assert_eq!(
                    seb.contains(h),
                    h_sea.contains(f),
                    "seed {seed}: SEB({}) on {}",
                    specs[f].name,
                    specs[h].name
                );
                if exact {
                    assert_eq!(
                        sea.contains(h),
                        oracle[f][h],
                        "seed {seed}: {} ∈ SEA({}) is {} but the oracle says {}\n{specs:#?}",
                        specs[h].name,
                        specs[f].name,
                        sea.contains(h),
                        oracle[f][h]
                    );
                } else {
                    assert!(
                        !oracle[f][h] || sea.contains(h),
                        "seed {seed}: SEA({}) misses {}\n{specs:#?}",
                        specs[f].name,
                        specs[h].name
                    );
                }
            }
        }
        // The automatic choice and the ID option agree with the plain sets.
        let ids: Vec<FuncId> = (0..count).map(FuncId::from).collect();
        for (algorithm, direction) in [
            (Algorithm::PerFunction, Direction::After),
            (Algorithm::AllFunctions, Direction::Before),
        ] {
            let config = SeaConfig {
                direction,
                with_identity: true,
                algorithm,
            };
            for set in sea_sets(&g.iccfg, &ids, &config) {
                let f = set.function.index();
                let expected: Vec<usize> = (0..count)
                    .filter(|&h| {
                        h == f
                            || match direction {
                                Direction::After => {
                                    all.membership(set.function, direction).union().contains(h)
                                }
                                Direction::Before => {
                                    all.membership(set.function, direction).union().contains(h)
                                }
                            }
                    })
                    .collect();
                let got: Vec<usize> = set.members.iter().map(|(h, _)| h.index()).collect();
                assert_eq!(got, expected, "seed {seed}: with ID");
            }
        }
    }
    // The generator must exercise the exact case and non-trivial relations.
    assert!(
        exact_programs > 200,
        "only {exact_programs} programs where every function returns"
    );
    assert!(nonempty_pairs > 1000, "only {nonempty_pairs} related pairs");
}
