//! What depends on code that could not be read. Where the sources have errors the IR
//! may lack code or hold a reading the parser guessed, so a verdict, an invariant or a
//! state requirement of a function that runs such code would be about a program nobody
//! wrote. The answers of every other function still hold: a function's semantics (of its
//! inputs, memory included) are those of its own code, the code it calls and the globals'
//! initial contents it reads.
//!
//! A function depends on unread code when an error lies in it, in the initializer of a
//! global it (or a global it reads) refers to, or in a function it may call (through
//! pointers too). An error in neither (a broken type or declaration at the top level, or
//! a unit that could not be parsed) may change any function: then every one depends on it.

use ripple_graph::CallGraph;
use ripple_ir::{Expr, ExprKind, FuncId, Function, InitItem, Program, Span, TypeId};
use rustc_hash::FxHashSet;

/// Per function of one program, the first error met reading code it depends on.
#[derive(Clone, Debug, Default)]
pub struct UnreadCode {
    /// Per function: where the error is, as `file:line`.
    functions: Vec<Option<String>>,
}

impl UnreadCode {
    pub fn of(program: &Program) -> UnreadCode {
        let count = program.functions.len();
        let mut unread = UnreadCode {
            functions: vec![None; count],
        };
        if program.read_errors.is_empty() {
            return unread;
        }
        let place = |span: &Span| {
            if span.file == Span::SYNTHETIC.file {
                "an unknown place".to_string()
            } else if span.start_line == 0 {
                program.file_path(span.file).to_string()
            } else {
                format!("{}:{}", program.file_path(span.file), span.start_line)
            }
        };
        let within = |outer: &Span, inner: &Span| {
            outer.file == inner.file
                && inner.start_line > 0
                && outer.start_line <= inner.start_line
                && inner.start_line <= outer.end_line
        };
        let mut globals: Vec<Option<String>> = vec![None; program.globals.len()];
        // Records whose bodies had errors, with the first error of each.
        let mut broken: Vec<(TypeId, String)> = Vec::new();
        for error in &program.read_errors {
            let at = place(&error.span);
            if let (None, Some(record)) = (error.function, error.record) {
                if !broken.iter().any(|(r, _)| *r == record) {
                    broken.push((record, at));
                }
                continue;
            }
            let function = error.function.or_else(|| {
                program
                    .functions
                    .iter_enumerated()
                    .find(|(_, f)| f.is_defined() && within(&f.span, &error.span))
                    .map(|(f, _)| f)
            });
            if let Some(f) = function {
                unread.functions[f.index()].get_or_insert(at);
                continue;
            }
            let global = program
                .globals
                .iter_enumerated()
                .find(|(_, g)| within(&g.span, &error.span))
                .map(|(g, _)| g);
            match global {
                Some(g) => {
                    globals[g.index()].get_or_insert(at);
                }
                None => {
                    // Nowhere in particular: anything may be read wrong.
                    for reason in &mut unread.functions {
                        reason.get_or_insert_with(|| at.clone());
                    }
                    return unread;
                }
            }
        }
        mark_users_of_records(program, &broken, &mut unread.functions, &mut globals);
        spread_through_initializers(program, &mut globals);
        for (f, function) in program.functions.iter_enumerated() {
            if unread.functions[f.index()].is_none() {
                unread.functions[f.index()] = first_named(function, &globals);
            }
        }
        // Callers, through pointers too, run what their callees run.
        let graph = CallGraph::build(program);
        let mut stack: Vec<FuncId> = program
            .functions
            .ids()
            .filter(|f| unread.functions[f.index()].is_some())
            .collect();
        while let Some(f) = stack.pop() {
            let reason = unread.functions[f.index()].clone();
            for &caller in &graph.callers[f.index()] {
                if unread.functions[caller.index()].is_none() {
                    unread.functions[caller.index()].clone_from(&reason);
                    stack.push(caller);
                }
            }
        }
        unread
    }

    /// Where the unread code `f` depends on is (`file:line`), if it depends on any.
    pub fn function(&self, f: FuncId) -> Option<&str> {
        self.functions.get(f.index())?.as_deref()
    }

    /// Whether any function depends on unread code.
    pub fn any(&self) -> bool {
        self.functions.iter().any(Option::is_some)
    }
}

/// The errors outside any function, global or record whose text ([`ripple_ir::ReadError::text`])
/// is in one version only, as `version file:line`: what such text declares (a type, a
/// prototype) may differ between the versions in ways the IR does not show. (Errors in
/// a function, a global's definition or a record's body make that function, global or
/// record differ where their text does.)
pub fn changed_unread_declarations(old: &Program, new: &Program) -> Vec<String> {
    let loose = |program: &Program| -> Vec<(u64, String)> {
        let mut out: Vec<(u64, String)> = program
            .read_errors
            .iter()
            .filter(|e| e.function.is_none() && e.record.is_none() && e.span.start_line > 0)
            .filter(|e| {
                !program
                    .functions
                    .iter()
                    .any(|f| f.is_defined() && f.span.holds_lines(&e.span))
                    && !program.globals.iter().any(|g| g.span.holds_lines(&e.span))
            })
            .map(|e| {
                let at = format!("{}:{}", program.file_path(e.span.file), e.span.start_line);
                (e.text, at)
            })
            .collect();
        out.sort();
        out
    };
    let (a, b) = (loose(old), loose(new));
    let texts = |list: &[(u64, String)]| list.iter().map(|(t, _)| *t).collect::<Vec<u64>>();
    let (ta, tb) = (texts(&a), texts(&b));
    let mut places = Vec::new();
    for (version, list, other) in [("old", &a, &tb), ("new", &b, &ta)] {
        for (text, at) in list {
            if other.binary_search(text).is_err() {
                places.push(format!("{version} {at}"));
            }
        }
    }
    places
}

/// Marks the functions and globals that use a record whose body had errors: a type in
/// their code (signature, locals, values) or of the global mentions it; the constants
/// read from its layout (`sizeof`, `offsetof`) the frontend recorded as errors where
/// they were read. Code that never names the type reads nothing of its layout.
fn mark_users_of_records(
    program: &Program,
    broken: &[(TypeId, String)],
    functions: &mut [Option<String>],
    globals: &mut [Option<String>],
) {
    if broken.is_empty() {
        return;
    }
    let mentioned: Vec<FxHashSet<TypeId>> = program
        .functions
        .iter()
        .map(|function| {
            let mut types: FxHashSet<TypeId> = FxHashSet::default();
            types.insert(function.ty);
            types.extend(function.locals.iter().map(|l| l.ty));
            for node in &function.nodes {
                for expr in node.exprs() {
                    expr.walk(&mut |e| {
                        types.insert(e.ty);
                    });
                }
            }
            types
        })
        .collect();
    for (record, at) in broken {
        let marks = program.types.mentioning(&[*record]);
        for (f, types) in mentioned.iter().enumerate() {
            if functions[f].is_none() && types.iter().any(|t| marks[t.index()]) {
                functions[f] = Some(at.clone());
            }
        }
        for (g, global) in program.globals.iter().enumerate() {
            if globals[g].is_none() && marks[global.ty.index()] {
                globals[g] = Some(at.clone());
            }
        }
    }
}

/// Marks, in place, every global whose initializer points into a marked one with the
/// mark of the first such (what is read through it is the marked global's contents).
/// Also how `semdiff` follows globals whose initial contents changed.
pub(crate) fn spread_through_initializers<T: Clone>(program: &Program, marks: &mut [Option<T>]) {
    loop {
        let mut grew = false;
        for (g, global) in program.globals.iter_enumerated() {
            if marks[g.index()].is_some() {
                continue;
            }
            let mut found = None;
            for item in global.init.iter().flat_map(|i| &i.items) {
                if let InitItem::Value { value, .. } | InitItem::Bits { value, .. } = item {
                    found = found.or_else(|| first_in(value, marks));
                }
            }
            if found.is_some() {
                marks[g.index()] = found;
                grew = true;
            }
        }
        if !grew {
            return;
        }
    }
}

/// The mark of the first marked global that `function` names.
pub(crate) fn first_named<T: Clone>(function: &Function, marks: &[Option<T>]) -> Option<T> {
    function
        .nodes
        .iter()
        .flat_map(|node| node.exprs())
        .find_map(|expr| first_in(expr, marks))
}

fn first_in<T: Clone>(expr: &Expr, marks: &[Option<T>]) -> Option<T> {
    let mut found = None;
    expr.walk(&mut |e| {
        if let ExprKind::AddrOfGlobal(g) = e.kind {
            if found.is_none() {
                found.clone_from(&marks[g.index()]);
            }
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripple_c::{lower_units, FrontendConfig, TranslationUnit};

    fn lowered(text: &str) -> Program {
        let unit = TranslationUnit {
            path: "t.c".into(),
            text: text.into(),
            line_map: None,
        };
        lower_units(&[unit], &FrontendConfig::default()).program
    }

    fn unread_names(program: &Program) -> Vec<String> {
        let unread = UnreadCode::of(program);
        let mut names: Vec<String> = program
            .functions
            .iter_enumerated()
            .filter(|(f, function)| function.is_defined() && unread.function(*f).is_some())
            .map(|(_, function)| function.name.clone())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_error_in_a_record_reaches_the_code_using_the_record() {
        // `struct w`'s first member has an unknown type, so its layout is a guess:
        // `uses` has a local of it, `through` reads through a pointer to it, `sizes`
        // and `offset` read its layout as constants, `caller` calls `uses`; `apart`
        // names none of it, and nor does `other`, which uses a sound record.
        let program = lowered(
            "typedef struct w { HANDLE h; int error; } W;\n\
             struct ok { int a; };\n\
             int uses(void) { W x; x.error = 1; return x.error; }\n\
             int through(struct w *p) { return p->error; }\n\
             unsigned long sizes(void) { return sizeof(W); }\n\
             unsigned long offset(void) { return __builtin_offsetof(W, error); }\n\
             int caller(void) { return uses() + 1; }\n\
             int apart(int a) { return a * 2; }\n\
             int other(struct ok *p) { return p->a; }\n",
        );
        assert_eq!(
            unread_names(&program),
            vec!["caller", "offset", "sizes", "through", "uses"]
        );
        let unread = UnreadCode::of(&program);
        let uses = program
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == "uses");
        assert_eq!(unread.function(uses.expect("uses").0), Some("t.c:1"));
    }

    #[test]
    fn an_error_reaches_its_function_and_callers_only() {
        // `broken` has a syntax error; `caller` calls it; `through_pointer` calls it
        // through a pointer; `apart` runs none of it.
        let program = lowered(
            "int broken(int a) { int x = 0; x = a + @ 1; return x; }\n\
             int caller(int a) { return broken(a) + 1; }\n\
             int through_pointer(int a) { int (*f)(int) = broken; return f(a); }\n\
             int apart(int a) { return a * 2; }\n",
        );
        assert_eq!(
            unread_names(&program),
            ["broken", "caller", "through_pointer"]
        );
        let unread = UnreadCode::of(&program);
        let broken = program.function_keys["broken"];
        assert_eq!(unread.function(broken), Some("t.c:1"));
    }

    #[test]
    fn a_broken_initializer_reaches_the_readers_of_its_global() {
        // `table`'s initializer lacks its `}`; `alias` points into it; `get` reads
        // `table`, `get_alias` reads through `alias`; `other` reads neither.
        let program = lowered(
            "int table[] = {1, 2, 3 ;\n\
             int *alias = &table[1];\n\
             int get(int i) { return table[i]; }\n\
             int get_alias(void) { return *alias; }\n\
             int other(int i) { return i; }\n",
        );
        assert_eq!(unread_names(&program), ["get", "get_alias"]);
    }

    #[test]
    fn an_error_outside_functions_and_globals_reaches_everything() {
        // A broken typedef: the functions using its name cannot be told (the IR has
        // the type it stands for), so any function may read it wrong.
        let program = lowered(
            "typedef unknown_t handle;\n\
             int f(int a) { return a; }\n\
             int g(int a) { return a + 1; }\n",
        );
        assert_eq!(unread_names(&program), ["f", "g"]);
    }

    #[test]
    fn sources_without_errors_depend_on_nothing_unread() {
        let program = lowered("int f(int a) { return a; }\n");
        assert!(program.read_errors.is_empty());
        assert!(!UnreadCode::of(&program).any());
    }
}
