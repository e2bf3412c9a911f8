//! Builds small IR programs directly (no frontend): functions as CFGs of entry, exit,
//! skip, branch, direct call, indirect call and address-taking nodes.

#![allow(dead_code)] // Each test file uses a different part of the builder.

use ripple_analyses::sea::{per_function, sea_sets, Algorithm, AllFunctions, Direction, SeaConfig};
use ripple_graph::{CallGraph, Iccfg};
use ripple_ir::{
    Callee, Expr, ExprKind, FuncId, IndexVec, IntKind, Linkage, Local, LocalKind, Node, NodeKind,
    Place, Program, Span, Storage, Type, TypeId, VarId,
};

/// One node of a function under construction. Successors are node indices; node 0 is the
/// entry, and the exit is the node of kind [`Op::Exit`].
#[derive(Clone, Debug)]
pub enum Op {
    Entry(usize),
    Exit,
    Skip(usize),
    Branch(usize, usize),
    /// A direct call of the function with the given index, then the successor.
    Call(usize, usize),
    /// A call through a pointer of signature class `0` or `1`, then the successor.
    CallPtr(u8, usize),
    /// Takes the address of a function (making it a pointer target), then the successor.
    TakeAddress(usize, usize),
}

/// A function: a name, its signature class (0: `void f(void)`, 1: `void f(int)`) and its
/// body (`None` for a function without a body).
#[derive(Clone, Debug)]
pub struct FunctionSpec {
    pub name: String,
    pub signature: u8,
    pub body: Option<Vec<Op>>,
}

pub fn defined(name: &str, body: Vec<Op>) -> FunctionSpec {
    FunctionSpec {
        name: name.into(),
        signature: 0,
        body: Some(body),
    }
}

pub fn external(name: &str) -> FunctionSpec {
    FunctionSpec {
        name: name.into(),
        signature: 0,
        body: None,
    }
}

pub fn build(specs: &[FunctionSpec]) -> Program {
    let mut program = Program::default();
    let void = program.types.void();
    let int = program.types.int(IntKind::Int);
    let signatures: Vec<TypeId> = [vec![], vec![int]]
        .into_iter()
        .map(|params| {
            program.types.intern(Type::Function {
                ret: void,
                params,
                varargs: false,
                prototyped: true,
            })
        })
        .collect();
    let pointers: Vec<TypeId> = signatures
        .iter()
        .map(|&s| program.types.pointer_to(s))
        .collect();
    for spec in specs {
        let mut function = ripple_ir::Function {
            name: spec.name.clone(),
            key: spec.name.clone(),
            linkage: Linkage::External,
            ty: signatures[spec.signature as usize],
            params: Vec::new(),
            ret_var: None,
            locals: IndexVec::new(),
            nodes: IndexVec::new(),
            entry: ripple_ir::NodeId(0),
            exit: ripple_ir::NodeId(0),
            span: Span::SYNTHETIC,
            syntax: None,
            fingerprint: 0,
            noreturn: false,
        };
        if let Some(body) = &spec.body {
            for &pointer in &pointers {
                function.locals.push(Local {
                    name: "fp".into(),
                    ty: pointer,
                    kind: LocalKind::Temp,
                    storage: Storage::Register,
                    span: Span::SYNTHETIC,
                });
            }
            for (index, op) in body.iter().enumerate() {
                let (kind, succs) = match *op {
                    Op::Entry(s) => (NodeKind::Entry, vec![s]),
                    Op::Exit => {
                        function.exit = ripple_ir::NodeId::from(index);
                        (NodeKind::Exit, vec![])
                    }
                    Op::Skip(s) => (NodeKind::Skip, vec![s]),
                    Op::Branch(a, b) => (
                        NodeKind::Branch {
                            cond: Expr {
                                kind: ExprKind::Int(1),
                                ty: int,
                            },
                        },
                        vec![a, b],
                    ),
                    Op::Call(f, s) => (
                        NodeKind::Call {
                            dst: None,
                            callee: Callee::Direct(FuncId::from(f)),
                            args: Vec::new(),
                        },
                        vec![s],
                    ),
                    Op::CallPtr(class, s) => (
                        NodeKind::Call {
                            dst: None,
                            callee: Callee::Indirect(Expr {
                                kind: ExprKind::Local(VarId(u32::from(class))),
                                ty: pointers[class as usize],
                            }),
                            args: vec![
                                Expr {
                                    kind: ExprKind::Int(0),
                                    ty: int,
                                };
                                class as usize
                            ],
                        },
                        vec![s],
                    ),
                    Op::TakeAddress(f, s) => {
                        let class = specs[f].signature as usize;
                        (
                            NodeKind::Assign {
                                dst: Place::Local(VarId::from(class)),
                                value: Expr {
                                    kind: ExprKind::AddrOfFunc(FuncId::from(f)),
                                    ty: pointers[class],
                                },
                            },
                            vec![s],
                        )
                    }
                };
                let mut node = Node::new(kind, Span::SYNTHETIC);
                node.succs = succs.into_iter().map(ripple_ir::NodeId::from).collect();
                function.nodes.push(node);
            }
        }
        program.add_function(function);
    }
    program
}

/// The program's graphs.
pub struct Graphs {
    pub program: Program,
    pub callgraph: CallGraph,
    pub iccfg: Iccfg,
}

pub fn graphs(specs: &[FunctionSpec]) -> Graphs {
    let program = build(specs);
    let callgraph = CallGraph::build(&program);
    let iccfg = Iccfg::build(&program, &callgraph);
    Graphs {
        program,
        callgraph,
        iccfg,
    }
}

impl Graphs {
    pub fn id(&self, name: &str) -> FuncId {
        self.program
            .function_by_name(name)
            .expect("a function of the test program")
    }

    /// SEA (or SEB) of `name` by Fig. 4 and by Fig. 5, checked equal, as sorted names.
    pub fn set(&self, name: &str, direction: Direction) -> Vec<String> {
        let f = self.id(name);
        let fig4 = per_function(&self.iccfg, f, direction);
        let fig5 = AllFunctions::compute(&self.iccfg).membership(f, direction);
        assert_eq!(fig4, fig5, "Fig. 4 and Fig. 5 differ on {name}");
        let config = SeaConfig {
            direction,
            with_identity: false,
            algorithm: Algorithm::Auto,
        };
        let auto = sea_sets(&self.iccfg, &[f], &config);
        let mut names: Vec<String> = fig4
            .union()
            .iter()
            .map(|g| self.program.functions[FuncId::from(g)].name.clone())
            .collect();
        names.sort();
        let mut auto_names: Vec<String> = auto[0]
            .members
            .iter()
            .map(|(g, _)| self.program.functions[*g].name.clone())
            .collect();
        auto_names.sort();
        assert_eq!(names, auto_names);
        names
    }

    pub fn sea(&self, name: &str) -> Vec<String> {
        self.set(name, Direction::After)
    }

    pub fn seb(&self, name: &str) -> Vec<String> {
        self.set(name, Direction::Before)
    }
}

pub fn names(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| (*s).to_string()).collect();
    out.sort();
    out
}
