//! Input memory a witness reaches beyond its arguments' objects. The symbolic engine
//! gives every pointer argument the input memory around it (what lies before it is
//! input too: sds keeps a string's header there) and reads every pointer stored in
//! input memory as an address of input memory (`strm->state`, a `js_State`'s stack).
//! A model of a difference condition fixes those bytes; a replay that gave the argument
//! only its own object from the pointer on would run on other memory, trap where the
//! model does not, and leave a real difference without a witness. This module reads, from
//! the model, the bytes before each argument's pointer and, through the pointer members
//! of each object's type, the objects they point to, and lays the same shape out in the
//! interpreter (and, through `native`, in the compiled drivers).

use ripple_interp::{Interpreter, Value};
use ripple_ir::{Program, Type, TypeId};
use ripple_symex::z3::ast::Array;
use ripple_symex::Engine;
use ripple_symex::NULL_PAGE;

/// Bytes of input memory a replay gives before each pointer argument: the largest
/// header sds keeps before its strings is 17 bytes.
pub const BEFORE: usize = 32;

/// Objects reached through pointer members, at most, per witness.
const MAX_OBJECTS: usize = 16;

/// How many pointer members deep objects are followed.
const MAX_DEPTH: usize = 3;

/// One object of a witness: an argument's (by position) or one reached through a
/// pointer member ([`Pointees::objects`], by position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectRef {
    Arg(usize),
    Inner(usize),
}

/// An object a pointer member of another points to: `strm->state`.
#[derive(Clone, Debug)]
pub struct ReplayObject {
    /// How C names it from an argument (`strm->state`, `argv[1]`).
    pub name: String,
    /// The object whose member points to it, and that member as C names it after the
    /// object (`->state`): how another version's types find its type.
    pub parent: ObjectRef,
    pub member: String,
    /// Its bytes, from the pointer on.
    pub bytes: Vec<u8>,
    pub pointee: TypeId,
}

/// A pointer member: `at` bytes from the pointer of object `from`, it holds the pointer
/// `offset` bytes from the pointer of object `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayLink {
    pub from: ObjectRef,
    pub at: u64,
    pub to: ObjectRef,
    pub offset: i64,
}

/// The objects a witness reaches through pointer members, and every pointer member of
/// its objects (arguments' and these) that points into one of them.
#[derive(Clone, Debug, Default)]
pub struct Pointees {
    pub objects: Vec<ReplayObject>,
    pub links: Vec<ReplayLink>,
}

/// An object as the model placed it: its pointer's address, its bytes before and from
/// the pointer.
pub(super) struct Placed<'a> {
    pub object: ObjectRef,
    pub name: String,
    pub pointee: TypeId,
    pub address: u64,
    pub before: usize,
    pub bytes: &'a [u8],
}

/// The pointer members of an object of `len` bytes holding elements of type `pointee`
/// from its pointer on: each one's offset, the C text that names it after the object's
/// name (`->next`, `[2].data`, `[1]`) and its target type. Function pointers are left
/// out (their values are the program's functions, not input memory).
pub(super) fn pointer_members(
    program: &Program,
    pointee: TypeId,
    len: usize,
) -> Vec<(u64, String, TypeId)> {
    let types = &program.types;
    let size = types.size_of(pointee).max(1) as usize;
    // The elements past the first of an array of pointers (`argv[1]`); of records, the
    // first only (what a replay's object holds past it is seldom one).
    let count = match types.get(pointee) {
        Type::Pointer(_) => (len / size).min(8),
        _ => 1,
    };
    let mut out = Vec::new();
    for k in 0..count {
        members(
            program,
            pointee,
            (k * size) as u64,
            &mut Vec::new(),
            &mut out,
        );
    }
    // `p->a` for the first element's members, `p[k].a` for the others'.
    out.into_iter()
        .map(|(offset, path, target)| {
            let k = offset as usize / size;
            let text = match (k, path.is_empty()) {
                (0, true) => "[0]".to_string(),
                (0, false) => format!("->{}", path.join(".")),
                (k, true) => format!("[{k}]"),
                (k, false) => format!("[{k}].{}", path.join(".")),
            };
            (offset, text, target)
        })
        .collect()
}

fn members(
    program: &Program,
    ty: TypeId,
    offset: u64,
    path: &mut Vec<String>,
    out: &mut Vec<(u64, Vec<String>, TypeId)>,
) {
    let types = &program.types;
    match types.get(ty) {
        Type::Pointer(target) if !matches!(types.get(*target), Type::Function { .. }) => {
            out.push((offset, path.clone(), *target));
        }
        Type::Record(index) => {
            let record = &types.records[*index as usize];
            // A union's members share their bytes: only its first is read as a pointer.
            let fields = if record.is_union {
                &record.fields[..record.fields.len().min(1)]
            } else {
                &record.fields[..]
            };
            for f in fields.iter().filter(|f| f.bit_field.is_none()) {
                if !f.name.is_empty() {
                    path.push(f.name.clone());
                }
                members(program, f.ty, offset + f.offset, path, out);
                if !f.name.is_empty() {
                    path.pop();
                }
            }
        }
        Type::Array { elem, len: Some(n) } => {
            let size = types.size_of(*elem).max(1);
            for i in 0..(*n).min(16) {
                let last = path.pop().unwrap_or_default();
                path.push(format!("{last}[{i}]"));
                members(program, *elem, offset + i * size, path, out);
                path.pop();
                path.push(last);
            }
        }
        _ => {}
    }
}

/// The objects the arguments' pointer members reach in `model` (breadth first, at most
/// [`MAX_OBJECTS`], [`MAX_DEPTH`] members deep), and every pointer member of an object
/// that points into one of the witness's objects.
pub(super) fn pointees(
    engine: &Engine,
    model: &ripple_symex::z3::Model,
    mem: &Array,
    arguments: Vec<Placed<'_>>,
) -> Pointees {
    let program = engine.programs[0];
    let mut out = Pointees::default();
    // Every object as the model placed it: reference, address, bytes before, length.
    let mut placed: Vec<(ObjectRef, u64, u64, u64)> = arguments
        .iter()
        .map(|a| (a.object, a.address, a.before as u64, a.bytes.len() as u64))
        .collect();
    let mut queue: std::collections::VecDeque<(ObjectRef, String, TypeId, Vec<u8>, usize)> =
        arguments
            .into_iter()
            .map(|a| (a.object, a.name, a.pointee, a.bytes.to_vec(), 0))
            .collect();
    while let Some((from, name, pointee, bytes, depth)) = queue.pop_front() {
        for (at, text, target) in pointer_members(program, pointee, bytes.len()) {
            let Some(raw) = bytes.get(at as usize..at as usize + 8) else {
                continue;
            };
            let value = u64::from_le_bytes(raw.try_into().expect("8 bytes"));
            if value < NULL_PAGE {
                continue;
            }
            // Addresses wrap as the machine's do (an object near 0 has bytes before it
            // at the top of the address space).
            let inside = placed.iter().find(|(_, address, before, len)| {
                value.wrapping_sub(address.wrapping_sub(*before)) < before + len
            });
            if let Some(&(to, address, _, _)) = inside {
                let offset = value.wrapping_sub(address) as i64;
                out.links.push(ReplayLink {
                    from,
                    at,
                    to,
                    offset,
                });
                continue;
            }
            if depth >= MAX_DEPTH || out.objects.len() >= MAX_OBJECTS {
                continue;
            }
            // An object of incomplete type (zlib's `struct internal_state`, cast to
            // the module's own state) or of bytes is given more than the usual 64.
            let size = program.types.size_of(target);
            let opaque = size <= 1 && !program.types.is_scalar(target) || size == 0;
            let len = if opaque { 1024 } else { size.clamp(64, 4096) };
            let Some(inner) = engine.memory_bytes(model, mem, value, len) else {
                continue;
            };
            let to = ObjectRef::Inner(out.objects.len());
            let name = format!("{name}{text}");
            placed.push((to, value, 0, len));
            out.links.push(ReplayLink {
                from,
                at,
                to,
                offset: 0,
            });
            out.objects.push(ReplayObject {
                name: name.clone(),
                parent: from,
                member: text,
                bytes: inner.clone(),
                pointee: target,
            });
            queue.push_back((to, name, target, inner, depth + 1));
        }
    }
    out
}

/// The type, in `program`, of each object of `pointees` (None where `program`'s types
/// have no such member): `func`'s parameters' pointees, then through the members each
/// object was reached by.
pub(super) fn object_types(
    program: &Program,
    func: ripple_ir::FuncId,
    pointees: &Pointees,
) -> Vec<Option<TypeId>> {
    let function = &program.functions[func];
    let mut types: Vec<Option<TypeId>> = Vec::with_capacity(pointees.objects.len());
    for object in &pointees.objects {
        let parent = match object.parent {
            ObjectRef::Arg(i) => function
                .params
                .get(i)
                .and_then(|v| program.types.pointee(function.locals[*v].ty)),
            ObjectRef::Inner(k) => types.get(k).copied().flatten(),
        };
        let ty = parent.and_then(|parent| {
            let len = program.types.size_of(parent).max(1) as usize * 8;
            pointer_members(program, parent, len)
                .into_iter()
                .find(|(_, text, _)| *text == object.member)
                .map(|(_, _, target)| target)
        });
        types.push(ty);
    }
    types
}

/// The types of the objects pointer members of `func`'s parameters may reach, breadth
/// first as [`pointees`] reads them: what a compiled driver of `func` prints them as.
pub(super) fn reachable_types(program: &Program, func: ripple_ir::FuncId) -> Vec<TypeId> {
    let function = &program.functions[func];
    let mut level: Vec<TypeId> = function
        .params
        .iter()
        .filter_map(|v| program.types.pointee(function.locals[*v].ty))
        .collect();
    let mut out: Vec<TypeId> = Vec::new();
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for ty in level {
            let len = program.types.size_of(ty).max(1) as usize * 8;
            for (_, _, target) in pointer_members(program, ty, len) {
                if !out.contains(&target) {
                    out.push(target);
                    next.push(target);
                }
            }
        }
        level = next;
    }
    out
}

/// Lays the objects of `pointees` out in `interpreter` and writes every link, given the
/// pointers of the arguments' objects (None for an argument that is no object): the
/// pointers of the objects reached, in order.
pub(super) fn place(
    interpreter: &mut Interpreter<'_>,
    pointees: &Pointees,
    arguments: &[Option<Value>],
) -> Vec<Option<Value>> {
    let inner: Vec<Option<Value>> = pointees
        .objects
        .iter()
        .map(|o| interpreter.alloc_isolated(&o.bytes))
        .collect();
    let pointer = |object: ObjectRef| -> Option<u128> {
        let value = match object {
            ObjectRef::Arg(i) => arguments.get(i)?.as_ref()?,
            ObjectRef::Inner(i) => inner.get(i)?.as_ref()?,
        };
        match value {
            Value::Int(bits) => Some(*bits),
            _ => None,
        }
    };
    for link in &pointees.links {
        let (Some(from), Some(to)) = (pointer(link.from), pointer(link.to)) else {
            continue;
        };
        let target = (to as i128 + i128::from(link.offset)) as u64;
        let at = Value::Int(from + u128::from(link.at));
        interpreter.write_memory(&at, &target.to_le_bytes());
    }
    inner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_members_are_named_as_c_names_them() {
        let source = "struct node { int v; struct node *next; char *name[2]; int (*f)(void); };\n\
                      void g(struct node *n) { (void)n; }\n";
        let unit = ripple_c::TranslationUnit {
            path: "t.c".into(),
            text: source.into(),
            line_map: None,
        };
        let program = ripple_c::lower_units(&[unit], &ripple_c::FrontendConfig::default()).program;
        let g = program.functions.iter().find(|f| f.name == "g").expect("g");
        let pointee = program
            .types
            .pointee(g.locals[g.params[0]].ty)
            .expect("pointer");
        let size = program.types.size_of(pointee) as usize;
        let members = pointer_members(&program, pointee, 2 * size);
        // The first element's members only: a record's object past it is seldom another.
        let names: Vec<(u64, &str)> = members.iter().map(|(o, t, _)| (*o, t.as_str())).collect();
        // int v (4 bytes, padded to 8), next at 8, name[0] at 16, name[1] at 24, f (a
        // function pointer, left out) at 32; the record is 40 bytes.
        assert_eq!(
            names,
            vec![(8, "->next"), (16, "->name[0]"), (24, "->name[1]"),]
        );
    }
}
