//! Content fingerprints of a function and of everything its behaviour depends on, the
//! keys of the summary cache: a result proved about a pair of functions in one run holds
//! in another run whose pair has the same fingerprints, whatever else changed.
//!
//! What a function does depends on its own code, on the functions it may call (directly,
//! through pointers as the call graph binds them, or as callbacks whose address it or a
//! callee takes) and on the program's globals and types. A function's fingerprint hashes
//! the IR text of each function of that closure (by key, with the source line of each
//! node, and whether it may access volatile objects), and the text of every global (type and initializer) and every type of the
//! program. The last part is deliberately coarse: a global or type added anywhere
//! changes every fingerprint, which costs reuse, never soundness.

use ripple_graph::CallGraph;
use ripple_ir::{ExprKind, FuncId, Program, TypeId};
use xxhash_rust::xxh3::Xxh3;

/// The fingerprints of one program version's functions.
pub struct Fingerprints<'p> {
    program: &'p Program,
    graph: CallGraph,
    /// Per function, the hash of its own IR text (0 for declarations).
    own: Vec<u128>,
    /// The hash of the globals and types.
    shared: u128,
}

impl<'p> Fingerprints<'p> {
    pub fn new(program: &'p Program) -> Self {
        let own = program
            .functions
            .iter_enumerated()
            .map(|(id, f)| {
                let mut h = Xxh3::new();
                h.update(f.key.as_bytes());
                h.update(&[
                    u8::from(f.noreturn),
                    u8::from(f.is_defined()),
                    u8::from(program.volatile.binary_search(&id).is_ok()),
                ]);
                h.update(program.types.display(f.ty).as_bytes());
                if f.is_defined() {
                    h.update(ripple_ir::dump_function(program, f).as_bytes());
                }
                h.digest128()
            })
            .collect();
        let mut h = Xxh3::new();
        h.update(ripple_ir::dump_globals(program).as_bytes());
        for t in 0..program.types.len() {
            h.update(format!("{:?}\n", program.types.get(TypeId::from(t))).as_bytes());
        }
        h.update(format!("{:?}", program.types.records).as_bytes());
        Fingerprints {
            program,
            graph: CallGraph::build(program),
            own,
            shared: h.digest128(),
        }
    }

    /// The fingerprint of `f` with everything it may call.
    pub fn of(&self, f: FuncId) -> u128 {
        let mut seen = vec![false; self.program.functions.len()];
        let mut stack = vec![f];
        seen[f.index()] = true;
        let mut closure = Vec::new();
        while let Some(g) = stack.pop() {
            closure.push(g);
            let mut next: Vec<FuncId> = self.graph.callees[g.index()].clone();
            for node in &self.program.functions[g].nodes {
                for e in node.exprs() {
                    e.walk(&mut |e| {
                        if let ExprKind::AddrOfFunc(h) = e.kind {
                            next.push(h);
                        }
                    });
                }
            }
            for h in next {
                if !std::mem::replace(&mut seen[h.index()], true) {
                    stack.push(h);
                }
            }
        }
        // The order of the closure's functions by key, not by id: ids shift when a
        // function is added elsewhere.
        closure.sort_by(|a, b| {
            let (a, b) = (&self.program.functions[*a], &self.program.functions[*b]);
            a.key.cmp(&b.key)
        });
        let mut h = Xxh3::new();
        h.update(&self.shared.to_le_bytes());
        h.update(self.program.functions[f].key.as_bytes());
        for g in closure {
            h.update(&self.own[g.index()].to_le_bytes());
        }
        h.digest128()
    }
}

/// The fingerprint of a pair of functions of two versions.
pub fn pair(old: &Fingerprints<'_>, new: &Fingerprints<'_>, o: FuncId, n: FuncId) -> u128 {
    let mut h = Xxh3::new();
    h.update(&old.of(o).to_le_bytes());
    h.update(&new.of(n).to_le_bytes());
    h.digest128()
}
