//! Equivalences inside changed functions for SEM-DCIA (Gyori, Lahiri and Partush, 000
//! section 4): changed statements that provably do what the statements they replace did,
//! so that they are no source of impact.
//!
//! Two kinds, both proved by the solver over a common state of the two versions
//! (`ripple_symex::straightline`), never assumed:
//! - *Statements*: unmapped straight-line assignments and calls at the same place of both
//!   versions ([`crate::change_control::PairedRun`]: between the same mapped statements)
//!   that make the same calls with the same arguments, end in the same registers and
//!   memory, and stop the program on the same states (an identity such as `x ^ 0`, a
//!   reassociation, an extracted temporary, a dead store); runs may end with a changed
//!   branch, which must then go the same way (`a < b` as `b > a`).
//! - *Arguments*: an argument of a changed call paired with a call of the same function
//!   ([`crate::change_control::PairedCall`]) whose new expression has the old one's value.
//!
//! Soundness: a run's nodes are no source, but they stay in the dependence graph, so an
//! impact that reaches their inputs from elsewhere still flows through them; and from
//! equal inputs they produce equal outputs, so the mapped nodes after them read what
//! they read before.

use ripple_ir::{FuncId, NodeId, NodeKind, Program, Span};
use ripple_symex::straightline::{exprs_equivalent, runs_equivalent, Proof, Run};
use ripple_symex::Budget;
use ripple_versions::VersionMatch;

use crate::dcia::{Equivalences, Side};

/// A change proved to do what the code it replaces did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvedEquivalence {
    /// The old and the new function.
    pub functions: (FuncId, FuncId),
    /// The statements (or, for an argument, the call) of each version.
    pub old: Vec<NodeId>,
    pub new: Vec<NodeId>,
    /// For an argument of a call: its index (from 0).
    pub argument: Option<usize>,
    /// The source spans of the old and new statements, in order.
    pub old_spans: Vec<Span>,
    pub new_spans: Vec<Span>,
}

/// What the inference found: the equivalences proved, and how many changes were checked
/// without a proof (different, or undecided within the budget).
#[derive(Clone, Debug, Default)]
pub struct StatementEquivalences {
    pub proved: Vec<ProvedEquivalence>,
    pub not_proved: usize,
}

impl StatementEquivalences {
    /// Adds the proved equivalences to the inputs of SEM-DCIA.
    pub fn add_to(&self, equivalences: &mut Equivalences) {
        for p in &self.proved {
            match p.argument {
                None => {
                    for &n in &p.old {
                        equivalences
                            .statements
                            .insert((Side::Old, p.functions.0, n));
                    }
                    for &n in &p.new {
                        equivalences
                            .statements
                            .insert((Side::New, p.functions.1, n));
                    }
                }
                Some(i) => {
                    for &n in &p.old {
                        equivalences
                            .arguments
                            .insert((Side::Old, p.functions.0, n, i as u32));
                    }
                    for &n in &p.new {
                        equivalences
                            .arguments
                            .insert((Side::New, p.functions.1, n, i as u32));
                    }
                }
            }
        }
    }
}

/// The solver's budget for one comparison.
pub fn default_budget() -> Budget {
    Budget {
        query: std::time::Duration::from_millis(500),
        total: std::time::Duration::from_millis(500),
        // The work budget decides; the clock only guards against a runaway query.
        cutoff: Some(std::time::Duration::from_secs(20)),
    }
}

/// The equivalences of the changed straight-line code and call arguments of two versions.
pub fn statement_equivalences(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    budget: Budget,
) -> StatementEquivalences {
    let mut out = StatementEquivalences::default();
    let spans = |program: &Program, f: FuncId, nodes: &[NodeId]| -> Vec<Span> {
        nodes
            .iter()
            .map(|&n| program.functions[f].nodes[n].span)
            .collect()
    };
    for run in crate::change_control::paired_runs(old, new, matching) {
        let (o, n) = run.functions;
        let (fo, fn_) = (&old.functions[o], &new.functions[n]);
        let straight = |f: &ripple_ir::Function, nodes: &[NodeId]| {
            nodes.iter().all(|&x| {
                matches!(
                    f.nodes[x].kind,
                    NodeKind::Assign { .. }
                        | NodeKind::Skip
                        | NodeKind::Call { .. }
                        | NodeKind::Branch { .. }
                )
            })
        };
        if !straight(fo, &run.old) || !straight(fn_, &run.new) {
            continue;
        }
        let proof = runs_equivalent(
            Run {
                program: old,
                function: fo,
                nodes: &run.old,
            },
            Run {
                program: new,
                function: fn_,
                nodes: &run.new,
            },
            budget,
        );
        if proof == Proof::Equivalent {
            out.proved.push(ProvedEquivalence {
                functions: (o, n),
                old_spans: spans(old, o, &run.old),
                new_spans: spans(new, n, &run.new),
                old: run.old,
                new: run.new,
                argument: None,
            });
        } else {
            out.not_proved += 1;
        }
    }
    let [calls_old, calls_new] = crate::change_control::paired_calls(old, new, matching);
    // Paired calls come in the same order on both sides (one entry per pair and side).
    let pairs = pair_calls(old, new, matching, &calls_old, &calls_new);
    for (o, x, n, y, changed) in pairs {
        let (NodeKind::Call { args: a, .. }, NodeKind::Call { args: b, .. }) = (
            &old.functions[o].nodes[x].kind,
            &new.functions[n].nodes[y].kind,
        ) else {
            continue;
        };
        for (i, &differs) in changed.iter().enumerate() {
            if !differs {
                continue;
            }
            let proof = exprs_equivalent(
                (old, &old.functions[o], &a[i]),
                (new, &new.functions[n], &b[i]),
                budget,
            );
            if proof == Proof::Equivalent {
                out.proved.push(ProvedEquivalence {
                    functions: (o, n),
                    old: vec![x],
                    new: vec![y],
                    argument: Some(i),
                    old_spans: spans(old, o, &[x]),
                    new_spans: spans(new, n, &[y]),
                });
            } else {
                out.not_proved += 1;
            }
        }
    }
    out
}

/// The paired calls with changed arguments as (old function, old node, new function,
/// new node, which arguments differ).
fn pair_calls(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    calls_old: &[crate::change_control::PairedCall],
    calls_new: &[crate::change_control::PairedCall],
) -> Vec<(FuncId, NodeId, FuncId, NodeId, Vec<bool>)> {
    let mut out = Vec::new();
    for run in crate::change_control::paired_runs(old, new, matching) {
        if run.old.len() != run.new.len() {
            continue;
        }
        let (o, n) = run.functions;
        for (&x, &y) in run.old.iter().zip(&run.new) {
            let find = |list: &[crate::change_control::PairedCall], f: FuncId, node: NodeId| {
                list.iter()
                    .find(|c| c.function == f && c.node == node)
                    .and_then(|c| c.changed_args.clone())
            };
            if let (Some(args), Some(_)) = (find(calls_old, o, x), find(calls_new, n, y)) {
                if args.iter().any(|&d| d) {
                    out.push((o, x, n, y, args));
                }
            }
        }
    }
    out
}
