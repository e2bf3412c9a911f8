//! Globals that still hold their initial value at a point of a whole program: no
//! statement that may write them can run before that point in any run from `main`.
//!
//! A write is any node whose memory accesses (from points-to) may write the global's
//! region: assignments through pointers that may address it, calls of library functions
//! that write what their arguments point to, and havoc nodes (unreadable code, `setjmp`,
//! which may return again after later writes). "May run before" is reachability in the
//! interprocedural control-flow graph, context-insensitively: from a call into every
//! function it may call (callbacks included) and past it, from a function's exit back
//! after every call of it. Functions that may run at any time - handlers given to
//! `atexit`, `signal` or any library function that may keep them - have no known values,
//! and a global they may write has none anywhere. Programs without `main` have none
//! (their functions may be called in any order).
//!
//! This is what lets SEM-DCIA see that a new call `print_header(line_delim)` passes the
//! `'\n'` that the old `print_header('\n')` passed (Gyori, Lahiri and Partush, 000
//! Fig. 1), since nothing writes `line_delim` before that call.

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_ir::{Callee, ExprKind, FuncId, GlobalId, InitItem, NodeId, NodeKind, Program};

use crate::pointsto::{AccessKind, Object, PartId, PointsTo};

type Point = (FuncId, NodeId);

/// The initial values of globals at points of one program.
pub struct InitialValues<'p> {
    program: &'p Program,
    pts: &'p PointsTo,
    /// Interprocedural successors of each node.
    succs: FxHashMap<Point, Vec<Point>>,
    /// Functions that may run at any time.
    anytime: FxHashSet<FuncId>,
    /// Per region: the points some write of it may run before.
    after_write: FxHashMap<PartId, FxHashSet<Point>>,
}

impl<'p> InitialValues<'p> {
    /// `None` for a program without a defined `main`.
    pub fn new(program: &'p Program, pts: &'p PointsTo) -> Option<Self> {
        program.defined_main()?;
        let exit_of = |g: FuncId| {
            program.functions[g]
                .nodes
                .iter_enumerated()
                .find(|(_, n)| matches!(n.kind, NodeKind::Exit))
                .map(|(id, _)| id)
        };
        let mut succs: FxHashMap<Point, Vec<Point>> = FxHashMap::default();
        let mut late_roots: Vec<FuncId> = Vec::new();
        for (f, function) in program.functions.iter_enumerated() {
            for (n, node) in function.nodes.iter_enumerated() {
                let after: Vec<Point> = node.succs.iter().map(|&s| (f, s)).collect();
                succs
                    .entry((f, n))
                    .or_default()
                    .extend(after.iter().copied());
                let NodeKind::Call { callee, .. } = &node.kind else {
                    continue;
                };
                let callbacks = pts.callbacks(f, n);
                if let Callee::Direct(g) = callee {
                    let name = &program.functions[*g].name;
                    let during_call = matches!(name.as_str(), "qsort" | "bsearch");
                    if !program.functions[*g].is_defined() && !during_call {
                        // `atexit`, `signal`, unknown code: they may run them later.
                        late_roots.extend(callbacks.iter().copied());
                    }
                }
                for &g in pts.call_targets(f, n).iter().chain(callbacks) {
                    if !program.functions[g].is_defined() {
                        continue;
                    }
                    succs.entry((f, n)).or_default().push((g, NodeId(0)));
                    if let Some(exit) = exit_of(g) {
                        succs
                            .entry((g, exit))
                            .or_default()
                            .extend(after.iter().copied());
                    }
                }
            }
        }
        // What late callbacks may call runs at any time too.
        let mut anytime: FxHashSet<FuncId> = FxHashSet::default();
        let mut stack = late_roots;
        while let Some(g) = stack.pop() {
            if !anytime.insert(g) {
                continue;
            }
            for (n, _) in program.functions[g].nodes.iter_enumerated() {
                stack.extend(pts.call_targets(g, n).iter().copied());
                stack.extend(pts.callbacks(g, n).iter().copied());
            }
        }
        Some(InitialValues {
            program,
            pts,
            succs,
            anytime,
            after_write: FxHashMap::default(),
        })
    }

    /// The value `bytes` bytes at `offset` of global `g` hold when `at` is reached, if
    /// they still hold their initial value there in every run (little-endian).
    pub fn value_at(&mut self, g: GlobalId, offset: u64, bytes: u32, at: Point) -> Option<u128> {
        let initial = initial_bytes(self.program, g, offset, bytes)?;
        if self.anytime.contains(&at.0) {
            return None;
        }
        let part = self.pts.part_of(Object::Global(g))?;
        let after = match self.after_write.get(&part) {
            Some(after) => after,
            None => {
                let after = self.points_after_writes(part)?;
                self.after_write.entry(part).or_insert(after)
            }
        };
        (!after.contains(&at)).then_some(initial)
    }

    /// The points a write of `part` may run before; `None` when a function that may run
    /// at any time writes it.
    fn points_after_writes(&self, part: PartId) -> Option<FxHashSet<Point>> {
        let mut seen: FxHashSet<Point> = FxHashSet::default();
        let mut stack: Vec<Point> = Vec::new();
        for (f, function) in self.program.functions.iter_enumerated() {
            for n in function.nodes.ids() {
                // A `setjmp` returns again after later writes.
                let writes = self.pts.is_havoc(f, n)
                    || self.pts.is_setjmp(f, n)
                    || self
                        .pts
                        .accesses(f, n)
                        .iter()
                        .any(|a| a.kind == AccessKind::Write && a.part == part);
                if !writes {
                    continue;
                }
                if self.anytime.contains(&f) {
                    return None;
                }
                stack.extend(self.succs.get(&(f, n)).into_iter().flatten().copied());
            }
        }
        while let Some(p) = stack.pop() {
            if seen.insert(p) {
                stack.extend(self.succs.get(&p).into_iter().flatten().copied());
            }
        }
        Some(seen)
    }
}

/// The initial value of `bytes` bytes at `offset` of a defined global (zero where its
/// initialiser says nothing), if its initialiser gives them as integer constants.
fn initial_bytes(program: &Program, g: GlobalId, offset: u64, bytes: u32) -> Option<u128> {
    let global = &program.globals[g];
    let init = global.init.as_ref()?;
    let (lo, hi) = (offset, offset + u64::from(bytes));
    if bytes == 0 || bytes > 16 || hi > program.types.size_of(global.ty) {
        return None;
    }
    let mut value = [0u8; 16];
    for item in &init.items {
        match item {
            InitItem::Value {
                offset: at,
                value: e,
            } => {
                let size = program.types.size_of(e.ty);
                let (a, b) = (*at, *at + size);
                if b <= lo || a >= hi {
                    continue;
                }
                // Only a constant of exactly the bytes asked for.
                let ExprKind::Int(bits) = e.kind else {
                    return None;
                };
                if a != lo || b != hi {
                    return None;
                }
                value[..bytes as usize].copy_from_slice(&bits.to_le_bytes()[..bytes as usize]);
            }
            InitItem::Bytes {
                offset: at,
                bytes: data,
            } => {
                for (i, &byte) in data.iter().enumerate() {
                    let pos = at + i as u64;
                    if pos >= lo && pos < hi {
                        value[(pos - lo) as usize] = byte;
                    }
                }
            }
            InitItem::Bits {
                offset: at, unit, ..
            } => {
                let (a, b) = (*at, *at + program.types.size_of(*unit));
                if !(b <= lo || a >= hi) {
                    return None;
                }
            }
        }
    }
    Some(u128::from_le_bytes(value))
}
