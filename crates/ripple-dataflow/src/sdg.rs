//! Program dependence graphs and the system dependence graph (SDG).
//!
//! Vertices ([`VertexKind`]): one per CFG node; per function, formal-in and formal-out
//! vertices for its interface ([`IfaceVar`]: parameters, the return value, the memory
//! regions of its mod/ref sets, and `Stop`, "the call may end the program"); per call
//! site and callee, actual-in and actual-out vertices matching the callee's interface;
//! and one memory vertex per function and region, which joins the writes of the region
//! in the function to its reads.
//!
//! Edges ([`EdgeKind`]): data dependence (reaching definitions for registers, the memory
//! vertices for memory), control dependence (post-dominators, [`crate::control`]; nodes
//! after a call that may stop the program are control dependent on that call's `Stop`
//! output), call edges (call node to callee entry), parameter-in and parameter-out edges,
//! and summary edges (actual-in to actual-out when the callee has a same-level path from
//! the formal-in to the formal-out), computed with the worklist algorithm of Reps,
//! Horwitz, Sagiv and Rosay (FSE 1994) over callers of functions whose summaries grew.
//! This is the SDG of Horwitz, Reps and Binkley (TOPLAS 1990), with globals and the heap
//! as extra inputs and outputs as in 000 section 2.2, so that slicing and DCIA over it
//! are context-sensitive.
//!
//! Known limits (all over-approximations):
//! - Memory dependences inside a function are flow-insensitive and per region: a load
//!   depends on every store to an overlapping region of the same function, wherever it
//!   is.
//! - Loads inside the arguments of a call to a defined function are attributed to the
//!   call node, which controls every actual-in: an impacted memory read in an argument
//!   impacts the whole call.
//! - Calls through a pointer are also treated as possible calls of unknown externals
//!   (the call node reads every argument and defines the result).
//! - Callbacks (`qsort`, `bsearch`, `atexit`) are bound at the external call, every
//!   argument to every parameter.

use rustc_hash::FxHashMap;

use ripple_ir::{Callee, Expr, FuncId, NodeId, NodeKind, Place, Program, Span, Storage};

use crate::bitset::BitSet;
use crate::control::ControlDependence;
use crate::libc::external_model;
use crate::modref::ModRef;
use crate::pointsto::{AccessKind, Object, PartId, PointsTo, PointsToConfig};
use crate::reaching::ReachingDefs;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexId(pub u32);

impl VertexId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An input or output of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IfaceVar {
    Param(u32),
    Return,
    Mem(PartId),
    /// Whether the call ends the program (exit, abort) instead of returning.
    Stop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexKind {
    Node(NodeId),
    FormalIn(IfaceVar),
    FormalOut(IfaceVar),
    ActualIn {
        call: NodeId,
        callee: FuncId,
        var: IfaceVar,
    },
    ActualOut {
        call: NodeId,
        callee: FuncId,
        var: IfaceVar,
    },
    /// The contents of a region, inside one function.
    Memory(PartId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    Data,
    Control,
    /// Call node to the callee's entry.
    Call,
    ParamIn,
    ParamOut,
    Summary,
}

impl EdgeKind {
    /// Edges that stay inside one function.
    pub fn is_intraprocedural(self) -> bool {
        matches!(self, EdgeKind::Data | EdgeKind::Control | EdgeKind::Summary)
    }
}

#[derive(Clone, Debug)]
pub struct SdgConfig {
    pub points_to: PointsToConfig,
    /// Budget on the estimated number of summary edges (per call site, inputs times
    /// outputs of the callee). Past it, memory regions are merged into one before the
    /// graph is built ([`Sdg::coarsened`]): sound, less precise, and far smaller when
    /// coarse points-to results give every function hundreds of regions.
    pub max_summary_estimate: usize,
}

impl Default for SdgConfig {
    fn default() -> Self {
        SdgConfig {
            points_to: PointsToConfig::default(),
            max_summary_estimate: 20_000_000,
        }
    }
}

/// One call site bound to one callee: which actual feeds which formal.
#[derive(Clone, Debug)]
pub struct Binding {
    pub caller: FuncId,
    pub call: NodeId,
    pub callee: FuncId,
    pub ins: Vec<(VertexId, VertexId)>,
    pub outs: Vec<(VertexId, VertexId)>,
}

/// The system dependence graph of a program.
#[derive(Clone, Debug)]
pub struct Sdg {
    pub kinds: Vec<VertexKind>,
    pub function_of: Vec<FuncId>,
    succs: Vec<Vec<(VertexId, EdgeKind)>>,
    preds: Vec<Vec<(VertexId, EdgeKind)>>,
    /// The vertex of node 0 of each defined function.
    node_base: Vec<Option<u32>>,

    formal_in: Vec<FxHashMap<IfaceVar, VertexId>>,
    formal_out: Vec<FxHashMap<IfaceVar, VertexId>>,
    pub bindings: Vec<Binding>,
    pub points_to: PointsTo,
    pub modref: ModRef,
    /// Whether memory regions were merged into one to stay within the budget of
    /// [`SdgConfig::max_summary_estimate`].
    pub coarsened: bool,
}

impl Sdg {
    pub fn build(program: &Program, config: &SdgConfig) -> Sdg {
        let mut points_to = PointsTo::analyze(program, &config.points_to);
        let mut modref = ModRef::compute(program, &points_to);
        let coarsened =
            summary_estimate(program, &points_to, &modref) > config.max_summary_estimate;
        if coarsened {
            points_to.merge_all_regions();
            modref = ModRef::compute(program, &points_to);
        }
        let mut builder = Builder::new(program, points_to, modref);
        builder.build();
        let mut sdg = builder.finish();
        sdg.coarsened = coarsened;
        sdg
    }

    pub fn vertex_count(&self) -> usize {
        self.kinds.len()
    }

    pub fn edge_count(&self) -> usize {
        self.succs.iter().map(Vec::len).sum()
    }

    pub fn succs(&self, v: VertexId) -> &[(VertexId, EdgeKind)] {
        &self.succs[v.index()]
    }

    pub fn preds(&self, v: VertexId) -> &[(VertexId, EdgeKind)] {
        &self.preds[v.index()]
    }

    /// The vertex of a CFG node of a defined function.
    pub fn node_vertex(&self, function: FuncId, node: NodeId) -> Option<VertexId> {
        self.node_base
            .get(function.index())
            .copied()
            .flatten()
            .map(|base| VertexId(base + node.0))
    }

    pub fn formal_in(&self, function: FuncId, var: IfaceVar) -> Option<VertexId> {
        self.formal_in.get(function.index())?.get(&var).copied()
    }

    pub fn formal_out(&self, function: FuncId, var: IfaceVar) -> Option<VertexId> {
        self.formal_out.get(function.index())?.get(&var).copied()
    }

    /// The CFG node a vertex stands for or belongs to (call nodes for actuals; entry and
    /// exit for formals), if any.
    pub fn node_of(&self, program: &Program, v: VertexId) -> Option<NodeId> {
        let f = &program.functions[self.function_of[v.index()]];
        match self.kinds[v.index()] {
            VertexKind::Node(n) => Some(n),
            VertexKind::ActualIn { call, .. } | VertexKind::ActualOut { call, .. } => Some(call),
            VertexKind::FormalIn(_) => Some(f.entry),
            VertexKind::FormalOut(_) => Some(f.exit),
            VertexKind::Memory(_) => None,
        }
    }

    /// The source span of a vertex.
    pub fn span(&self, program: &Program, v: VertexId) -> Span {
        let f = &program.functions[self.function_of[v.index()]];
        match self.node_of(program, v) {
            Some(n) => f.nodes[n].span,
            None => f.span,
        }
    }

    /// A readable name of an interface variable of `function`.
    pub fn var_name(&self, program: &Program, function: FuncId, var: IfaceVar) -> String {
        let f = &program.functions[function];
        match var {
            IfaceVar::Param(i) => f.params.get(i as usize).map_or_else(
                || format!("argument {}", i + 1),
                |&p| f.locals[p].name.clone(),
            ),
            IfaceVar::Return => "return value".to_string(),
            IfaceVar::Mem(part) => self.points_to.part_name(program, part),
            IfaceVar::Stop => "whether it returns".to_string(),
        }
    }

    /// A one-line description of a vertex, for explanations.
    pub fn describe(&self, program: &Program, v: VertexId) -> String {
        let function = self.function_of[v.index()];
        let fname = &program.functions[function].name;
        let span = self.span(program, v);
        let at = format!("{}:{}", program.file_path(span.file), span.start_line);
        match self.kinds[v.index()] {
            VertexKind::Node(_) => at,
            VertexKind::FormalIn(var) => match var {
                IfaceVar::Param(_) => {
                    format!(
                        "{} (param of {fname})",
                        self.var_name(program, function, var)
                    )
                }
                _ => format!(
                    "{} (input of {fname})",
                    self.var_name(program, function, var)
                ),
            },
            VertexKind::FormalOut(var) => {
                format!("{} of {fname}", self.var_name(program, function, var))
            }
            VertexKind::ActualIn { callee, var, .. } => match var {
                IfaceVar::Param(_) => format!("{at} call argument"),
                _ => format!(
                    "{at} {} passed to {}",
                    self.var_name(program, callee, var),
                    program.functions[callee].name
                ),
            },
            VertexKind::ActualOut { callee, var, .. } => format!(
                "{at} {} of call to {}",
                self.var_name(program, callee, var),
                program.functions[callee].name
            ),
            VertexKind::Memory(part) => {
                format!(
                    "{} (memory in {fname})",
                    self.points_to.part_name(program, part)
                )
            }
        }
    }
}

struct Builder<'p> {
    program: &'p Program,
    pts: PointsTo,
    modref: ModRef,
    kinds: Vec<VertexKind>,
    function_of: Vec<FuncId>,
    edges: Vec<(u32, u32, EdgeKind)>,
    node_base: Vec<Option<u32>>,
    formal_in: Vec<FxHashMap<IfaceVar, VertexId>>,
    formal_out: Vec<FxHashMap<IfaceVar, VertexId>>,
    bindings: Vec<Binding>,
    /// Inputs and outputs of each function, sorted.
    ins: Vec<Vec<IfaceVar>>,
    outs: Vec<Vec<IfaceVar>>,
}

impl<'p> Builder<'p> {
    fn new(program: &'p Program, pts: PointsTo, modref: ModRef) -> Self {
        let count = program.functions.len();
        Builder {
            program,
            pts,
            modref,
            kinds: Vec::new(),
            function_of: Vec::new(),
            edges: Vec::new(),
            node_base: vec![None; count],
            formal_in: vec![FxHashMap::default(); count],
            formal_out: vec![FxHashMap::default(); count],
            bindings: Vec::new(),
            ins: vec![Vec::new(); count],
            outs: vec![Vec::new(); count],
        }
    }

    fn vertex(&mut self, f: FuncId, kind: VertexKind) -> VertexId {
        let id = VertexId(self.kinds.len() as u32);
        self.kinds.push(kind);
        self.function_of.push(f);
        id
    }

    fn edge(&mut self, from: VertexId, to: VertexId, kind: EdgeKind) {
        self.edges.push((from.0, to.0, kind));
    }

    fn build(&mut self) {
        let program = self.program;
        // Interfaces.
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() {
                continue;
            }
            let mut ins: Vec<IfaceVar> = (0..function.params.len() as u32)
                .map(IfaceVar::Param)
                .collect();
            let mut mem_in = self.modref.refs[f.index()].clone();
            mem_in.union_with(&self.modref.mods[f.index()]);
            ins.extend(mem_in.iter().map(|p| IfaceVar::Mem(PartId(p as u32))));
            let mut outs = Vec::new();
            if function.ret_var.is_some() {
                outs.push(IfaceVar::Return);
            }
            outs.extend(
                self.modref.mods[f.index()]
                    .iter()
                    .map(|p| IfaceVar::Mem(PartId(p as u32))),
            );
            if self.modref.may_stop[f.index()] {
                outs.push(IfaceVar::Stop);
            }
            self.ins[f.index()] = ins;
            self.outs[f.index()] = outs;
        }
        // Nodes and formals of every function first: call sites refer to them.
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() {
                continue;
            }
            let first = self.kinds.len() as u32;
            self.node_base[f.index()] = Some(first);
            for n in function.nodes.ids() {
                self.vertex(f, VertexKind::Node(n));
            }
            let entry_v = VertexId(first + function.entry.0);
            for var in self.ins[f.index()].clone() {
                let v = self.vertex(f, VertexKind::FormalIn(var));
                self.formal_in[f.index()].insert(var, v);
                self.edge(entry_v, v, EdgeKind::Control);
            }
            for var in self.outs[f.index()].clone() {
                let v = self.vertex(f, VertexKind::FormalOut(var));
                self.formal_out[f.index()].insert(var, v);
                self.edge(entry_v, v, EdgeKind::Control);
            }
        }
        for (f, function) in program.functions.iter_enumerated() {
            if function.is_defined() {
                self.function(f);
            }
        }
    }

    fn function(&mut self, f: FuncId) {
        let program = self.program;
        let function = &program.functions[f];
        let first = self.node_base[f.index()].expect("defined");
        let node_v = |n: NodeId| VertexId(first + n.0);
        let entry_v = node_v(function.entry);
        let exit_v = node_v(function.exit);
        // Memory vertices, created on demand.
        let mut memory: FxHashMap<PartId, VertexId> = FxHashMap::default();
        let mut mem_vertex = |b: &mut Self, part: PartId| -> VertexId {
            *memory
                .entry(part)
                .or_insert_with(|| b.vertex(f, VertexKind::Memory(part)))
        };
        // Call sites.
        let mut sites: FxHashMap<NodeId, Site> = FxHashMap::default();
        let mut may_stop_nodes = Vec::new();
        for (n, node) in function.nodes.iter_enumerated() {
            if self.pts.is_havoc(f, n) {
                may_stop_nodes.push(n);
            }
            let NodeKind::Call { dst, callee, args } = &node.kind else {
                continue;
            };
            let targets = self.pts.call_targets(f, n).to_vec();
            let callbacks = self.pts.callbacks(f, n).to_vec();
            let (external, stops) = match callee {
                Callee::Direct(g) if program.functions[*g].is_defined() => (false, false),
                Callee::Direct(g) => (true, external_model(&program.functions[*g].name).noreturn),
                Callee::Indirect(_) => (true, false),
                Callee::Intrinsic(_) => (true, false),
            };
            let mut site = Site {
                targets: Vec::new(),
                external,
                stops,
                actual_in: FxHashMap::default(),
                actual_out: FxHashMap::default(),
            };
            let call_v = node_v(n);
            for (g, is_callback) in targets
                .iter()
                .map(|&g| (g, false))
                .chain(callbacks.iter().map(|&g| (g, true)))
            {
                if site.targets.contains(&g) {
                    continue;
                }
                site.targets.push(g);
                let callee_fn = &program.functions[g];
                let mut binding = Binding {
                    caller: f,
                    call: n,
                    callee: g,
                    ins: Vec::new(),
                    outs: Vec::new(),
                };
                self.edge(
                    call_v,
                    node_v_of(&self.node_base, g, callee_fn.entry),
                    EdgeKind::Call,
                );
                for var in self.ins[g.index()].clone() {
                    let actuals: Vec<IfaceVar> = match var {
                        IfaceVar::Param(_) if is_callback => {
                            (0..args.len() as u32).map(IfaceVar::Param).collect()
                        }
                        IfaceVar::Param(i) if (i as usize) < args.len() => vec![var],
                        IfaceVar::Param(_) => Vec::new(),
                        _ => vec![var],
                    };
                    let formal = self.formal_in[g.index()][&var];
                    for a in actuals {
                        let v = match site.actual_in.get(&(g, a)) {
                            Some(&v) => v,
                            None => {
                                let v = self.vertex(
                                    f,
                                    VertexKind::ActualIn {
                                        call: n,
                                        callee: g,
                                        var: a,
                                    },
                                );
                                self.edge(call_v, v, EdgeKind::Control);
                                site.actual_in.insert((g, a), v);
                                v
                            }
                        };
                        self.edge(v, formal, EdgeKind::ParamIn);
                        binding.ins.push((v, formal));
                    }
                }
                for var in self.outs[g.index()].clone() {
                    if var == IfaceVar::Return && dst.is_none() && !is_callback {
                        continue;
                    }
                    let formal = self.formal_out[g.index()][&var];
                    let v = self.vertex(
                        f,
                        VertexKind::ActualOut {
                            call: n,
                            callee: g,
                            var,
                        },
                    );
                    self.edge(call_v, v, EdgeKind::Control);
                    self.edge(formal, v, EdgeKind::ParamOut);
                    binding.outs.push((formal, v));
                    site.actual_out.insert((g, var), v);
                    if is_callback && var == IfaceVar::Return {
                        // The external uses what the callback returns.
                        self.edge(v, call_v, EdgeKind::Data);
                    }
                }
                self.bindings.push(binding);
            }
            let any_stop =
                site.stops || site.targets.iter().any(|g| self.modref.may_stop[g.index()]);
            if any_stop {
                may_stop_nodes.push(n);
            }
            sites.insert(n, site);
        }
        // Control dependence.
        let cd = ControlDependence::compute(function, &may_stop_nodes);
        let stop_out = self.formal_out[f.index()].get(&IfaceVar::Stop).copied();
        for (m, _) in function.nodes.iter_enumerated() {
            let on = cd.of(m);
            if on.is_empty() {
                if m != function.entry {
                    self.edge(entry_v, node_v(m), EdgeKind::Control);
                }
                continue;
            }
            for &c in on {
                for source in self.stop_sources(sites.get(&c), node_v(c)) {
                    self.edge(source, node_v(m), EdgeKind::Control);
                }
            }
        }
        // What decides whether the function returns.
        if let Some(stop) = stop_out {
            for (n, node) in function.nodes.iter_enumerated() {
                if matches!(node.kind, NodeKind::Branch { .. }) {
                    self.edge(node_v(n), stop, EdgeKind::Data);
                }
                if may_stop_nodes.contains(&n) {
                    for source in self.stop_sources(sites.get(&n), node_v(n)) {
                        self.edge(source, stop, EdgeKind::Data);
                    }
                }
            }
        }
        // Register data dependences.
        let reaching = ReachingDefs::compute(function);
        let def_vertices = |b: &Self, d: NodeId, var| -> Vec<VertexId> {
            if d == function.entry {
                let i = function.params.iter().position(|&p| p == var);
                return i
                    .and_then(|i| {
                        b.formal_in[f.index()]
                            .get(&IfaceVar::Param(i as u32))
                            .copied()
                    })
                    .into_iter()
                    .collect();
            }
            match sites.get(&d) {
                Some(site) => {
                    let mut out: Vec<VertexId> = site
                        .targets
                        .iter()
                        .filter_map(|&g| site.actual_out.get(&(g, IfaceVar::Return)).copied())
                        .collect();
                    if site.external || out.is_empty() {
                        out.push(node_v(d));
                    }
                    out
                }
                None => vec![node_v(d)],
            }
        };
        let mut uses: Vec<(VertexId, NodeId, Vec<ripple_ir::VarId>)> = Vec::new();
        for (n, node) in function.nodes.iter_enumerated() {
            let here = node_v(n);
            match &node.kind {
                NodeKind::Call { dst, callee, args }
                    if sites[&n].targets.is_empty() || sites[&n].external =>
                {
                    let mut regs = Vec::new();
                    for e in node.exprs() {
                        e.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                    // Arguments also feed the actual-ins of callbacks and targets.
                    Self::arg_uses(&sites[&n], args, &mut uses, n, here);
                    let _ = (dst, callee);
                }
                NodeKind::Call { dst, callee, args } => {
                    let mut regs = Vec::new();
                    if let Callee::Indirect(target) = callee {
                        target.locals_read(&mut regs);
                    }
                    if let Some(Place::Mem { addr, .. } | Place::Bits { addr, .. }) = dst {
                        addr.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                    Self::arg_uses(&sites[&n], args, &mut uses, n, here);
                }
                NodeKind::Exit => {
                    if let Some(ret) = function.ret_var {
                        uses.push((here, n, vec![ret]));
                        if let Some(&out) = self.formal_out[f.index()].get(&IfaceVar::Return) {
                            uses.push((out, n, vec![ret]));
                        }
                    }
                }
                _ => {
                    let mut regs = Vec::new();
                    for e in node.exprs() {
                        e.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                }
            }
        }
        for (user, at, mut regs) in uses {
            regs.sort_unstable();
            regs.dedup();
            for var in regs {
                if function.locals[var].storage != Storage::Register {
                    continue;
                }
                for d in reaching.reaching(at, var) {
                    for source in def_vertices(self, d, var) {
                        self.edge(source, user, EdgeKind::Data);
                    }
                }
            }
        }
        // Memory data dependences, through one memory vertex per region.
        let all_parts: Vec<PartId> = {
            let mut s = self.modref.refs[f.index()].clone();
            s.union_with(&self.modref.mods[f.index()]);
            s.iter().map(|p| PartId(p as u32)).collect()
        };
        for (n, _) in function.nodes.iter_enumerated() {
            let here = node_v(n);
            if self.pts.is_havoc(f, n) {
                for &p in &all_parts {
                    let m = mem_vertex(self, p);
                    self.edge(m, here, EdgeKind::Data);
                    self.edge(here, m, EdgeKind::Data);
                }
            }
            let site = sites.get(&n);
            for access in self.pts.accesses(f, n).to_vec() {
                let m = mem_vertex(self, access.part);
                match access.kind {
                    AccessKind::Read => self.edge(m, here, EdgeKind::Data),
                    AccessKind::Write => {
                        let mut writers = Vec::new();
                        if let Some(site) = site {
                            writers.extend(site.targets.iter().filter_map(|&g| {
                                site.actual_out.get(&(g, IfaceVar::Return)).copied()
                            }));
                            if site.external || writers.is_empty() {
                                writers.push(here);
                            }
                        } else {
                            writers.push(here);
                        }
                        for w in writers {
                            self.edge(w, m, EdgeKind::Data);
                        }
                    }
                }
            }
            if let Some(site) = site {
                let actual_in: Vec<((FuncId, IfaceVar), VertexId)> =
                    site.actual_in.iter().map(|(k, v)| (*k, *v)).collect();
                for ((_, var), v) in actual_in {
                    if let IfaceVar::Mem(p) = var {
                        let m = mem_vertex(self, p);
                        self.edge(m, v, EdgeKind::Data);
                    }
                }
                let actual_out: Vec<((FuncId, IfaceVar), VertexId)> =
                    site.actual_out.iter().map(|(k, v)| (*k, *v)).collect();
                for ((_, var), v) in actual_out {
                    if let IfaceVar::Mem(p) = var {
                        let m = mem_vertex(self, p);
                        self.edge(v, m, EdgeKind::Data);
                    }
                }
            }
        }
        for (var, v) in self.formal_in[f.index()].clone() {
            match var {
                IfaceVar::Mem(p) => {
                    let m = mem_vertex(self, p);
                    self.edge(v, m, EdgeKind::Data);
                }
                IfaceVar::Param(i) => {
                    let p = function.params[i as usize];
                    if function.locals[p].storage == Storage::Memory {
                        if let Some(part) = self.pts.part_of(Object::Local(f, p)) {
                            let m = mem_vertex(self, part);
                            self.edge(v, m, EdgeKind::Data);
                        }
                    }
                }
                _ => {}
            }
        }
        for (var, v) in self.formal_out[f.index()].clone() {
            match var {
                IfaceVar::Mem(p) => {
                    let m = mem_vertex(self, p);
                    self.edge(m, v, EdgeKind::Data);
                }
                IfaceVar::Return => {
                    let ret = function.ret_var.expect("a return output has a variable");
                    if function.locals[ret].storage == Storage::Memory {
                        if let Some(part) = self.pts.part_of(Object::Local(f, ret)) {
                            let m = mem_vertex(self, part);
                            self.edge(m, v, EdgeKind::Data);
                            self.edge(m, exit_v, EdgeKind::Data);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Uses of argument registers by actual-ins of the call's targets.
    fn arg_uses(
        site: &Site,
        args: &[Expr],
        uses: &mut Vec<(VertexId, NodeId, Vec<ripple_ir::VarId>)>,
        n: NodeId,
        call_v: VertexId,
    ) {
        for (i, arg) in args.iter().enumerate() {
            let mut regs = Vec::new();
            arg.locals_read(&mut regs);
            let mut fed = false;
            for &g in &site.targets {
                if let Some(&v) = site.actual_in.get(&(g, IfaceVar::Param(i as u32))) {
                    uses.push((v, n, regs.clone()));
                    fed = true;
                }
            }
            if !fed {
                // Variadic extras (and arguments of unresolved calls) are read by the call.
                uses.push((call_v, n, regs));
            }
        }
    }

    /// The vertices whose change decides whether execution continues after node `c`.
    fn stop_sources(&self, site: Option<&Site>, c_v: VertexId) -> Vec<VertexId> {
        let Some(site) = site else {
            return vec![c_v];
        };
        let mut out: Vec<VertexId> = site
            .targets
            .iter()
            .filter_map(|&g| site.actual_out.get(&(g, IfaceVar::Stop)).copied())
            .collect();
        if site.stops || out.is_empty() {
            out.push(c_v);
        }
        out
    }

    fn finish(self) -> Sdg {
        let count = self.kinds.len();
        let mut succs: Vec<Vec<(VertexId, EdgeKind)>> = vec![Vec::new(); count];
        let mut preds: Vec<Vec<(VertexId, EdgeKind)>> = vec![Vec::new(); count];
        let mut edges = self.edges;
        edges.retain(|e| e.0 != u32::MAX && e.1 != u32::MAX);
        edges.sort_unstable();
        edges.dedup();
        for &(a, b, k) in &edges {
            succs[a as usize].push((VertexId(b), k));
            preds[b as usize].push((VertexId(a), k));
        }
        let mut sdg = Sdg {
            kinds: self.kinds,
            function_of: self.function_of,
            succs,
            preds,
            node_base: self.node_base,
            formal_in: self.formal_in,
            formal_out: self.formal_out,
            bindings: self.bindings,
            points_to: self.pts,
            modref: self.modref,
            coarsened: false,
        };
        add_summary_edges(&mut sdg);
        sdg
    }
}

/// An upper bound of the summary edges: per call site and defined target, the
/// callee's inputs times its outputs.
fn summary_estimate(program: &Program, pts: &PointsTo, modref: &ModRef) -> usize {
    let iface = |g: FuncId| -> (usize, usize) {
        let mut mem_in = modref.refs[g.index()].clone();
        mem_in.union_with(&modref.mods[g.index()]);
        let ins = program.functions[g].params.len() + mem_in.count();
        (ins, modref.mods[g.index()].count() + 2)
    };
    let mut sizes: FxHashMap<FuncId, usize> = FxHashMap::default();
    let mut total = 0usize;
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            if !matches!(node.kind, NodeKind::Call { .. }) {
                continue;
            }
            for &g in pts.call_targets(f, n).iter().chain(pts.callbacks(f, n)) {
                total += *sizes.entry(g).or_insert_with(|| {
                    let (ins, outs) = iface(g);
                    ins * outs
                });
            }
        }
    }
    total
}

/// A call site of the function being built.
struct Site {
    targets: Vec<FuncId>,
    /// The call node itself also acts as an unknown external call.
    external: bool,
    /// An external that may end the program.
    stops: bool,
    actual_in: FxHashMap<(FuncId, IfaceVar), VertexId>,
    actual_out: FxHashMap<(FuncId, IfaceVar), VertexId>,
}

fn node_v_of(node_base: &[Option<u32>], g: FuncId, n: NodeId) -> VertexId {
    VertexId(node_base[g.index()].expect("defined functions have vertices") + n.0)
}

/// Adds summary edges until no callee summary grows (Reps, Horwitz, Sagiv and Rosay,
/// FSE 1994, over whole functions): a summary edge joins an actual-in to an actual-out of
/// a call when the callee has a same-level path from the formal-in to the formal-out,
/// through its own data, control and summary edges.
fn add_summary_edges(sdg: &mut Sdg) {
    let functions = sdg.formal_in.len();
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); functions];
    for (v, f) in sdg.function_of.iter().enumerate() {
        members[f.index()].push(v as u32);
    }
    let mut local = vec![0u32; sdg.kinds.len()];
    for list in &members {
        for (i, &v) in list.iter().enumerate() {
            local[v as usize] = i as u32;
        }
    }
    let mut bindings_of: Vec<Vec<usize>> = vec![Vec::new(); functions];
    for (i, b) in sdg.bindings.iter().enumerate() {
        bindings_of[b.callee.index()].push(i);
    }
    let mut known: Vec<rustc_hash::FxHashSet<(VertexId, VertexId)>> =
        vec![Default::default(); functions];
    let mut queued = vec![false; functions];
    let mut worklist: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for (f, flag) in queued.iter_mut().enumerate() {
        if !sdg.formal_out[f].is_empty() && !sdg.formal_in[f].is_empty() {
            worklist.push_back(f);
            *flag = true;
        }
    }
    while let Some(f) = worklist.pop_front() {
        queued[f] = false;
        let mut ins: Vec<VertexId> = sdg.formal_in[f].values().copied().collect();
        ins.sort_unstable();
        let k = ins.len();
        let mut bits: Vec<Option<BitSet>> = vec![None; members[f].len()];
        let mut stack: Vec<u32> = Vec::new();
        for (i, &v) in ins.iter().enumerate() {
            let l = local[v.index()] as usize;
            bits[l].get_or_insert_with(|| BitSet::new(k)).insert(i);
            stack.push(v.0);
        }
        while let Some(v) = stack.pop() {
            let from = bits[local[v as usize] as usize].clone().expect("reached");
            for &(w, kind) in &sdg.succs[v as usize] {
                if !kind.is_intraprocedural() || sdg.function_of[w.index()].index() != f {
                    continue;
                }
                let slot = bits[local[w.index()] as usize].get_or_insert_with(|| BitSet::new(k));
                if slot.union_with(&from) {
                    stack.push(w.0);
                }
            }
        }
        let mut new_pairs = Vec::new();
        let mut outs: Vec<VertexId> = sdg.formal_out[f].values().copied().collect();
        outs.sort_unstable();
        for fo in outs {
            if let Some(set) = &bits[local[fo.index()] as usize] {
                for i in set.iter() {
                    if known[f].insert((ins[i], fo)) {
                        new_pairs.push((ins[i], fo));
                    }
                }
            }
        }
        if new_pairs.is_empty() {
            continue;
        }
        for &b in &bindings_of[f] {
            let binding = &sdg.bindings[b];
            let mut added = Vec::new();
            for &(fi, fo) in &new_pairs {
                for &(a_in, _) in binding.ins.iter().filter(|(_, x)| *x == fi) {
                    for &(_, a_out) in binding.outs.iter().filter(|(x, _)| *x == fo) {
                        added.push((a_in, a_out));
                    }
                }
            }
            let caller = binding.caller.index();
            for (a, o) in added {
                if !sdg.succs[a.index()].contains(&(o, EdgeKind::Summary)) {
                    sdg.succs[a.index()].push((o, EdgeKind::Summary));
                    sdg.preds[o.index()].push((a, EdgeKind::Summary));
                    if !queued[caller] {
                        queued[caller] = true;
                        worklist.push_back(caller);
                    }
                }
            }
        }
    }
    for list in sdg.succs.iter_mut().chain(sdg.preds.iter_mut()) {
        list.sort_unstable();
    }
}
