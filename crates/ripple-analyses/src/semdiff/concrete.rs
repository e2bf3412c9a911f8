//! A concrete search for a difference: both versions of a function pair run in the
//! interpreter (`ripple_interp`) on boundary and pseudo-random inputs.
//!
//! It complements the witness search of 001 (Trostanetski et al., SAS 2017, section 5:
//! every difference found comes with a witness), which asks the solver for a model of
//! the difference condition: that query can be the most expensive one of a run (floating
//! point is bit-blasted), while many differences show on an input such as 0, -1,
//! `INT_MIN`, a power of two, NaN, infinity or a large double. An input on which the two
//! replays really differ is a confirmed witness at once; finding none proves nothing and
//! changes no verdict.
//!
//! Only clean outcomes count: both versions return (or call `exit`) within the step limit,
//! and they differ in the returned value, the output, a pointed-to scalar or the bytes of
//! a pointed-to integer object. Traps, step limits and unmodelled externals may be
//! artefacts of the chosen input (an object too small, a slow loop), and raw bytes of
//! floating-point objects may differ only in a NaN's payload, which the analysis does not
//! distinguish; none of these count.
//!
//! Inputs: parameters of integer, floating-point and pointer type (a pointer gets a fresh
//! 64-byte object whose first element holds the value); globals keep their initial
//! values. Character buffers also get short texts over the characters the pair's code
//! compares with, each with its end pointer or length ([`text_inputs`]). The inputs are
//! deterministic: fixed value lists, texts, then a fixed-seed generator.

use ripple_interp::Interpreter;
use ripple_ir::{ExprKind, FloatKind, FuncId, InitItem, IntKind, Program, Type, TypeId};
use rustc_hash::FxHashSet;

use super::{
    laid_out, replay, replay_from, scalar_text, value_text, Observed, ReplayArg, ReplayInput,
    Witness,
};
use super::{Pointees, SemdiffConfig, Side};

/// Most input tuples tried per pair.
const MAX_RUNS: usize = 2048;
/// Most combinations of core values tried (all of them when there are at most this many).
const CORE_COMBINATIONS: usize = 1296;
/// Interpreter steps of the whole search of one pair, at most (both versions' runs).
const SEARCH_STEPS: u64 = 3_000_000;
/// Interpreter steps per unit of solver work, as measured on this machine kind (about
/// 6 M steps and 2 M units a second): converts the budget's concrete share into steps.
pub(super) const STEPS_PER_WORK_UNIT: f64 = 3.0;
/// The search budget of one modified pair.
pub(super) const PAIR_SEARCH_STEPS: u64 = SEARCH_STEPS;
/// Step limit of one concrete run (a run reaching it does not count).
const STEPS: u64 = 20_000;
/// Size of the object a pointer argument points to.
const OBJECT_BYTES: usize = 64;

/// How one parameter is filled: its scalar leaves, each at a byte offset.
#[derive(Clone)]
enum Shape {
    /// An integer (at most 64 bits) or a floating-point value.
    Value(Scalar),
    /// A pointer to a fresh object of [`OBJECT_BYTES`] holding the leaves.
    Pointer {
        pointee: TypeId,
        leaves: Vec<(usize, Scalar)>,
    },
    /// A record or array passed by value, its scalar fields the leaves.
    Aggregate {
        size: usize,
        leaves: Vec<(usize, Scalar)>,
    },
    /// A function pointer: the address of one of these functions (by key).
    Function(Vec<String>),
}

impl Shape {
    fn leaves(&self) -> Vec<Scalar> {
        match self {
            Shape::Value(scalar) => vec![*scalar],
            Shape::Function(keys) => vec![Scalar::Choice(keys.len())],
            Shape::Pointer { leaves, .. } | Shape::Aggregate { leaves, .. } => {
                leaves.iter().map(|(_, s)| *s).collect()
            }
        }
    }
}

/// Leaves of one parameter, and of all parameters together, at most.
const MAX_LEAVES: usize = 8;
const MAX_ALL_LEAVES: usize = 12;
/// Elements of a pointed-to array of scalars that get their own value.
const POINTED_ELEMENTS: u64 = 4;

#[derive(Clone, Copy)]
enum Scalar {
    Int {
        bits: u32,
        boolean: bool,
    },
    F32,
    F64,
    /// Pointers, records, arrays: bytes filled with a byte value.
    Bytes,
    /// One of so many functions, by index.
    Choice(usize),
}

fn scalar_of(program: &Program, ty: TypeId) -> Option<Scalar> {
    match program.types.get(ty) {
        Type::Int(kind) => Some(Scalar::Int {
            bits: kind.bits(),
            boolean: *kind == IntKind::Bool,
        }),
        Type::Float(FloatKind::Float) => Some(Scalar::F32),
        Type::Float(FloatKind::Double) => Some(Scalar::F64),
        Type::Float(FloatKind::LongDouble) => None,
        _ => Some(Scalar::Bytes),
    }
}

/// The scalar leaves of an object of type `ty` at `offset` (fields of records and
/// elements of arrays, recursively), at most `MAX_LEAVES`.
fn leaves_of(program: &Program, ty: TypeId, offset: usize, out: &mut Vec<(usize, Scalar)>) {
    if out.len() >= MAX_LEAVES {
        return;
    }
    match program.types.get(ty) {
        Type::Int(_) | Type::Float(FloatKind::Float | FloatKind::Double) => {
            if let Some(scalar) = scalar_of(program, ty) {
                out.push((offset, scalar));
            }
        }
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            let fields = if record.is_union {
                &record.fields[..record.fields.len().min(1)]
            } else {
                &record.fields[..]
            };
            for field in fields.iter().filter(|f| f.bit_field.is_none()) {
                leaves_of(program, field.ty, offset + field.offset as usize, out);
            }
        }
        Type::Array { elem, len: Some(n) } => {
            let size = program.types.size_of(*elem) as usize;
            for i in 0..(*n as usize).min(MAX_LEAVES) {
                leaves_of(program, *elem, offset + i * size, out);
            }
        }
        // Pointers inside aggregates stay null; long double is not filled.
        _ => {}
    }
}

fn shape_of(program: &Program, ty: TypeId) -> Option<Shape> {
    if let Some(targets) = super::witness::pointer_targets(program, ty) {
        let keys: Vec<String> = targets
            .into_iter()
            .map(|g| program.functions[g].key.clone())
            .collect();
        return (!keys.is_empty()).then_some(Shape::Function(keys));
    }
    match program.types.get(ty) {
        Type::Pointer(pointee) => {
            let mut leaves = Vec::new();
            let size = program.types.size_of(*pointee);
            if matches!(program.types.get(*pointee), Type::Int(_) | Type::Float(_)) && size > 0 {
                for i in 0..POINTED_ELEMENTS.min(OBJECT_BYTES as u64 / size) {
                    leaves_of(program, *pointee, (i * size) as usize, &mut leaves);
                }
            } else {
                leaves_of(program, *pointee, 0, &mut leaves);
            }
            leaves.retain(|(off, s)| off + scalar_size(*s) <= OBJECT_BYTES);
            if leaves.is_empty() {
                // void *, pointers to pointers: filled with a byte value.
                leaves.push((0, Scalar::Bytes));
            }
            Some(Shape::Pointer {
                pointee: *pointee,
                leaves,
            })
        }
        Type::Record(_) | Type::Array { .. } => {
            let mut leaves = Vec::new();
            leaves_of(program, ty, 0, &mut leaves);
            Some(Shape::Aggregate {
                size: program.types.size_of(ty) as usize,
                leaves,
            })
        }
        _ => match scalar_of(program, ty)? {
            scalar @ (Scalar::F32 | Scalar::F64) => Some(Shape::Value(scalar)),
            scalar @ Scalar::Int { bits, .. } if bits <= 64 => Some(Shape::Value(scalar)),
            _ => None,
        },
    }
}

fn scalar_size(scalar: Scalar) -> usize {
    match scalar {
        Scalar::Int { bits, .. } => (bits / 8).clamp(1, 8) as usize,
        Scalar::F32 => 4,
        Scalar::F64 => 8,
        Scalar::Bytes => OBJECT_BYTES,
        Scalar::Choice(_) => 8,
    }
}

fn int_values(bits: u32, boolean: bool) -> Vec<u64> {
    if boolean {
        return vec![0, 1];
    }
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let min = 1u64 << (bits - 1);
    let mut raw: Vec<u64> = vec![
        0,
        1,
        u64::MAX,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        10,
        16,
        100,
        255,
        256,
        1000,
        65535,
        65536,
        (-2i64) as u64,
        (-3i64) as u64,
        (-5i64) as u64,
        (-100i64) as u64,
        min,
        min - 1,
        min + 1,
        min - 2,
    ];
    for k in 1..bits.min(64) {
        raw.push(1u64 << k);
        raw.push((1u64 << k) - 1);
        raw.push((1u64 << k).wrapping_neg());
    }
    let mut seen = FxHashSet::default();
    raw.into_iter()
        .map(|v| v & mask)
        .filter(|v| seen.insert(*v))
        .collect()
}

fn f64_values() -> Vec<f64> {
    vec![
        0.0,
        1.0,
        -1.0,
        -0.0,
        2.0,
        0.5,
        3.0,
        -2.5,
        0.1,
        10.0,
        1e16,
        -1e16,
        1e200,
        -1e200,
        1e-200,
        1e308,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        4.9,
        100.0,
    ]
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The candidate values of a slot, as the bits of the scalar (pointer slots: of the
/// pointed-to value).
fn candidates(scalar: Scalar) -> Vec<u64> {
    match scalar {
        Scalar::Int { bits, boolean, .. } => int_values(bits.min(64), boolean),
        Scalar::F64 => f64_values().into_iter().map(f64::to_bits).collect(),
        Scalar::F32 => f64_values()
            .into_iter()
            .map(|v| u64::from((v as f32).to_bits()))
            .collect(),
        Scalar::Bytes => vec![0, 1, 0xff, 0x41],
        Scalar::Choice(n) => (0..n as u64).collect(),
    }
}

/// A random value of a slot: half of the time a small or uniform value, else random bits.
fn random_value(scalar: Scalar, rng: &mut Rng) -> u64 {
    let small = rng.next().is_multiple_of(2);
    match scalar {
        Scalar::Int { bits, boolean, .. } => {
            if boolean {
                return rng.next() % 2;
            }
            let mask = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let v = if small {
                (rng.below(41) as i64 - 20) as u64
            } else {
                rng.next()
            };
            v & mask
        }
        Scalar::F64 | Scalar::F32 => {
            let unit = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let v = if small {
                (unit - 0.5) * 20.0
            } else {
                (unit - 0.5) * 2e6
            };
            if matches!(scalar, Scalar::F32) {
                u64::from((v as f32).to_bits())
            } else {
                v.to_bits()
            }
        }
        Scalar::Bytes => rng.next() & 0xff,
        Scalar::Choice(n) => rng.below(n) as u64,
    }
}

fn scalar_bytes(scalar: Scalar, value: u64) -> Vec<u8> {
    match scalar {
        Scalar::Int { bits, .. } => value.to_le_bytes()[..(bits / 8).clamp(1, 8) as usize].to_vec(),
        Scalar::F32 => (value as u32).to_le_bytes().to_vec(),
        Scalar::F64 => value.to_le_bytes().to_vec(),
        Scalar::Bytes => vec![value as u8; OBJECT_BYTES],
        Scalar::Choice(_) => Vec::new(),
    }
}

/// The replay argument of a parameter whose leaves hold `values`.
fn argument(shape: &Shape, values: &[u64], ty: TypeId) -> ReplayArg {
    let write = |bytes: &mut Vec<u8>, leaves: &[(usize, Scalar)]| {
        for ((offset, scalar), value) in leaves.iter().zip(values) {
            for (i, b) in scalar_bytes(*scalar, *value).into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(offset + i) {
                    *slot = b;
                }
            }
        }
    };
    match shape {
        Shape::Pointer { pointee, leaves } => {
            let mut bytes = vec![0u8; OBJECT_BYTES];
            write(&mut bytes, leaves);
            ReplayArg::Pointer {
                bytes,
                pointee: *pointee,
                before: Vec::new(),
            }
        }
        Shape::Aggregate { size, leaves } => {
            let mut bytes = vec![0u8; *size];
            write(&mut bytes, leaves);
            ReplayArg::Aggregate { bytes, ty }
        }
        Shape::Value(_) => ReplayArg::Scalar {
            bits: u128::from(values.first().copied().unwrap_or(0)),
            ty,
        },
        Shape::Function(keys) => {
            let at = values.first().copied().unwrap_or(0) as usize % keys.len().max(1);
            ReplayArg::Function {
                key: keys[at].clone(),
            }
        }
    }
}

/// Small values whose combinations are all tried when there are few leaves: zero, one,
/// minus one, and for floats the signed zero and the magnitudes where adding one is
/// absorbed (2^24 in float, 2^53 in double).
fn core_values(scalar: Scalar) -> Vec<u64> {
    match scalar {
        Scalar::Int { boolean: true, .. } => vec![0, 1],
        Scalar::Int { bits, .. } => {
            let mask = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            vec![0, 1, mask, 2]
        }
        Scalar::F64 => [
            0.0f64,
            -0.0,
            1.0,
            -1.0,
            16_777_216.0,
            9_007_199_254_740_992.0,
        ]
        .iter()
        .map(|v| v.to_bits())
        .collect(),
        Scalar::F32 => [0.0f32, -0.0, 1.0, -1.0, 16_777_216.0, 0.5]
            .iter()
            .map(|v| u64::from(v.to_bits()))
            .collect(),
        Scalar::Bytes => vec![0, 1],
        Scalar::Choice(n) => (0..n.min(4) as u64).collect(),
    }
}

/// Most values taken from a pair's integer literals, and from its changed tables.
const MAX_SINGLED_OUT: usize = 64;

/// The constants of a pair's code: the integer literals of both versions' functions, and
/// the constant tables each version's function names.
struct PairConstants<'p> {
    literals: std::collections::BTreeSet<u64>,
    tables: [Vec<&'p ripple_ir::Global>; 2],
}

fn pair_constants<'p>(
    old: &'p Program,
    new: &'p Program,
    old_func: FuncId,
    new_func: FuncId,
) -> PairConstants<'p> {
    let sides = [(old, old_func), (new, new_func)];
    let mut literals: std::collections::BTreeSet<u64> = Default::default();
    let mut tables: [Vec<&ripple_ir::Global>; 2] = Default::default();
    for (k, (program, func)) in sides.into_iter().enumerate() {
        for node in program.functions[func].nodes.iter() {
            for expr in node.exprs() {
                expr.walk(&mut |e| match e.kind {
                    ExprKind::Int(v) => {
                        literals.insert(v as u64);
                    }
                    ExprKind::AddrOfGlobal(g) if program.globals[g].is_const => {
                        tables[k].push(&program.globals[g]);
                    }
                    _ => {}
                });
            }
        }
    }
    PairConstants { literals, tables }
}

/// Values the pair's own code singles out, where the fixed lists and random values
/// rarely land: the integer literals of both versions' functions, each also plus and
/// minus one (the bounds of their comparisons), and the entries of the constant tables
/// they name that only one version's table holds (md4c 3420ce7: code points added to a
/// Unicode table local to its function), each also with its top bits cleared, where
/// tables keep flags.
fn program_values(constants: &PairConstants<'_>) -> Vec<u64> {
    let PairConstants { literals, tables } = constants;
    let entries = |global: &ripple_ir::Global| -> std::collections::BTreeSet<u64> {
        let items = global.init.iter().flat_map(|init| &init.items);
        items
            .filter_map(|item| match item {
                InitItem::Value { value, .. } => match value.kind {
                    ExprKind::Int(v) => Some(v as u64),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    };
    let mut out: Vec<u64> = Vec::new();
    for table in &tables[0] {
        let Some(other) = tables[1].iter().find(|t| t.name == table.name) else {
            continue;
        };
        let (a, b) = (entries(table), entries(other));
        for v in a.symmetric_difference(&b).take(MAX_SINGLED_OUT) {
            out.extend([*v, v & 0xff_ffff, v & 0xffff, v & 0xff]);
        }
    }
    for &v in literals.iter().take(MAX_SINGLED_OUT) {
        out.extend([v, v.wrapping_add(1), v.wrapping_sub(1)]);
    }
    let mut seen = FxHashSet::default();
    out.retain(|v| seen.insert(*v));
    out
}

/// Texts tried per pair in its character buffers.
const TEXT_RUNS: usize = 160;
/// Longest text tried (before a final line ending).
const TEXT_CHARS: usize = 10;
/// Characters texts are made of, at most.
const TEXT_ALPHABET: usize = 24;

/// Inputs whose character buffers (`char *` parameters) hold short texts over the
/// characters the pair's code compares with (`':'`, `'\r'`, `'\n'`, ... and `'a'`,
/// `' '`), NUL-terminated, each buffer followed by its end (a `char *` parameter right
/// after it: a pointer past the text) or its length (an integer parameter right after
/// it): the inputs a parser's fix shows on (picohttpparser 3d506cc: `":a\r\n\r\n"`), which
/// no value of four separate bytes gives. The other integers are 0 or 4 (see below).
/// None without a character buffer.
fn text_inputs(
    literals: &std::collections::BTreeSet<u64>,
    old: &Program,
    old_func: FuncId,
    shapes: &[Shape],
    types: &[TypeId],
    args_of: &dyn Fn(&[u64]) -> Vec<ReplayArg>,
) -> Vec<Vec<ReplayArg>> {
    let is_text = |shape: &Shape| match shape {
        Shape::Pointer { pointee, .. } => {
            matches!(old.types.get(*pointee), Type::Int(kind) if kind.bits() == 8 && *kind != IntKind::Bool)
        }
        _ => false,
    };
    // A character pointer right after a buffer named as an end (`buf_end`, `last`,
    // `limit`) points past the buffer's text.
    let params = &old.functions[old_func].params;
    let name = |i: usize| {
        old.functions[old_func].locals[params[i]]
            .name
            .to_ascii_lowercase()
    };
    let is_end = |i: usize| {
        i > 0
            && is_text(&shapes[i - 1])
            && is_text(&shapes[i])
            && ["end", "last", "lim", "stop"]
                .iter()
                .any(|w| name(i).contains(w))
    };
    let buffers: Vec<usize> = (0..shapes.len())
        .filter(|&i| is_text(&shapes[i]) && !is_end(i))
        .collect();
    if buffers.is_empty() {
        return Vec::new();
    }
    // The characters the pair's code compares with, in order, with `a` and a space.
    let mut alphabet: std::collections::BTreeSet<u8> = [b'a', b' '].into_iter().collect();
    alphabet.extend(
        literals
            .iter()
            .filter_map(|&v| u8::try_from(v).ok())
            .filter(|c| (0x20..0x7f).contains(c) || matches!(c, b'\t' | b'\n' | b'\r')),
    );
    let alphabet: Vec<u8> = alphabet.into_iter().take(TEXT_ALPHABET).collect();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut texts: Vec<Vec<u8>> = alphabet.iter().map(|c| vec![*c]).collect();
    let lines = alphabet.contains(&b'\n');
    while texts.len() < TEXT_RUNS {
        let len = 1 + rng.below(TEXT_CHARS);
        let mut text: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        // Half of them end as a line-based protocol's message does.
        if lines && rng.next().is_multiple_of(2) {
            text.extend_from_slice(if alphabet.contains(&b'\r') {
                b"\r\n\r\n"
            } else {
                b"\n\n"
            });
        }
        texts.push(text);
    }
    // Per leaf, whether it is an integer argument itself (else a member or element of
    // what an argument points to or holds).
    let scalar_argument: Vec<bool> = shapes
        .iter()
        .flat_map(|shape| {
            let own = matches!(shape, Shape::Value(_));
            std::iter::repeat_n(own, shape.leaves().len())
        })
        .collect();
    let leaves: Vec<Scalar> = shapes.iter().flat_map(Shape::leaves).collect();
    let mut out = Vec::new();
    // Integers pointed to, then integer arguments: 0 and 0, 0 and 4 (a count passed by
    // pointer below a capacity passed by value), 4 and 4.
    for (pointed, argument) in [(0u64, 0u64), (0, 4), (4, 4)] {
        for text in &texts {
            let tuple: Vec<u64> = leaves
                .iter()
                .zip(&scalar_argument)
                .map(|(leaf, own)| match leaf {
                    Scalar::Int { bits, .. } => {
                        let value = if *own { argument } else { pointed };
                        value & (u64::MAX >> (64 - (*bits).clamp(1, 64)))
                    }
                    _ => 0,
                })
                .collect();
            let mut args = args_of(&tuple);
            for &i in &buffers {
                let mut bytes = vec![0u8; OBJECT_BYTES];
                let n = text.len().min(OBJECT_BYTES - 1);
                bytes[..n].copy_from_slice(&text[..n]);
                let Shape::Pointer { pointee, .. } = &shapes[i] else {
                    continue;
                };
                args[i] = ReplayArg::Pointer {
                    bytes,
                    pointee: *pointee,
                    before: Vec::new(),
                };
                // What follows the buffer: its end, or its length.
                match shapes.get(i + 1) {
                    Some(Shape::Pointer { pointee, .. }) if is_end(i + 1) => {
                        args[i + 1] = ReplayArg::Alias {
                            of: i,
                            offset: n as u64,
                            pointee: *pointee,
                        };
                    }
                    Some(Shape::Value(Scalar::Int {
                        bits,
                        boolean: false,
                    })) if *bits >= 16 => {
                        args[i + 1] = ReplayArg::Scalar {
                            bits: n as u128,
                            ty: types[i + 1],
                        };
                    }
                    _ => {}
                }
            }
            out.push(args);
        }
    }
    out
}

/// Whether two observations differ in a way that does not depend on the input's
/// artefacts (see the module comment).
fn clean_difference(
    program: &Program,
    old: &Observed,
    new: &Observed,
    pointees: &[TypeId],
) -> bool {
    let clean = |o: &Observed| o.result.starts_with("returned") || o.result.starts_with("exit ");
    if !clean(old) || !clean(new) || super::witness::only_addresses_differ(old, new) {
        return false;
    }
    if old.result != new.result || old.stdout != new.stdout {
        return true;
    }
    let integer_objects = pointees
        .iter()
        .all(|t| matches!(program.types.get(*t), Type::Int(_)));
    !super::witness::same_state(&old.state, &new.state)
        && (old.state.len() != new.state.len()
            || old
                .state
                .iter()
                .zip(&new.state)
                .any(|((name, a), (_, b))| a != b && (!name.ends_with("[..]") || integer_objects)))
}

/// The settings of the search's runs.
fn quick(config: &SemdiffConfig) -> SemdiffConfig {
    SemdiffConfig {
        replay_steps: config.replay_steps.min(STEPS),
        ..config.clone()
    }
}

/// Both versions laid out for the search's runs (every global initialised), once for
/// all the pairs searched.
pub(super) struct LaidOut<'p> {
    pub old: &'p Program,
    pub new: &'p Program,
    starts: [Result<Interpreter<'p>, String>; 2],
    /// What laying them out costs, in steps (charged once).
    pub cost: u64,
}

pub(super) fn layouts<'p>(
    old: &'p Program,
    new: &'p Program,
    config: &SemdiffConfig,
) -> LaidOut<'p> {
    let quick = quick(config);
    LaidOut {
        old,
        new,
        starts: [
            laid_out(old, Side::Old, &quick),
            laid_out(new, Side::New, &quick),
        ],
        cost: Interpreter::setup_cost(old) + Interpreter::setup_cost(new),
    }
}

/// Runs both versions on boundary and random inputs until they differ or the run limit is
/// reached (a fixed number of runs of bounded length, so the search is deterministic; the
/// wall-clock cut-off of `smt` still stops it). The witness returned is confirmed.
pub(super) fn search(
    laid: &LaidOut<'_>,
    old_func: FuncId,
    new_func: FuncId,
    config: &SemdiffConfig,
    smt: &ripple_symex::Smt,
    steps_left: &mut u64,
) -> Option<Witness> {
    let (old, new, starts) = (laid.old, laid.new, &laid.starts);
    let function = &old.functions[old_func];
    let new_function = &new.functions[new_func];
    if function.params.len() != new_function.params.len() || function.params.len() > 8 {
        return None;
    }
    let types: Vec<TypeId> = function
        .params
        .iter()
        .map(|v| function.locals[*v].ty)
        .collect();
    let shapes: Vec<Shape> = types
        .iter()
        .map(|t| shape_of(old, *t))
        .collect::<Option<Vec<_>>>()?;
    // The leaves of all parameters, in order; a tuple gives each a value.
    let leaves: Vec<Scalar> = shapes.iter().flat_map(Shape::leaves).collect();
    // Without parameters one run (from the globals' initial values) is the search. With
    // more leaves than a search of their values covers, only texts are tried.
    let values_searched = leaves.len() <= MAX_ALL_LEAVES;
    let lists: Vec<Vec<u64>> = leaves.iter().map(|s| candidates(*s)).collect();
    let pointees: Vec<TypeId> = shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        })
        .collect();
    // Input tuples: aligned values, one leaf varied around 0 and 1, every combination of
    // the core values (few leaves) or a sample of them, then random.
    let mut tuples: Vec<Vec<u64>> = Vec::new();
    let longest = lists.iter().map(Vec::len).max().unwrap_or(1);
    for i in 0..longest {
        tuples.push(lists.iter().map(|l| l[i % l.len()]).collect());
    }
    for base in [0usize, 1] {
        for (p, list) in lists.iter().enumerate() {
            for value in list {
                let mut tuple: Vec<u64> = lists.iter().map(|l| l[base % l.len()]).collect();
                tuple[p] = *value;
                tuples.push(tuple);
            }
        }
    }
    // Then the values the pair's own code singles out, in each integer leaf.
    let constants = pair_constants(old, new, old_func, new_func);
    let singled_out = program_values(&constants);
    for (p, leaf) in leaves.iter().enumerate() {
        if let Scalar::Int {
            bits,
            boolean: false,
        } = *leaf
        {
            let mask = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            for value in &singled_out {
                let mut tuple: Vec<u64> = lists.iter().map(|l| l[0]).collect();
                tuple[p] = value & mask;
                tuples.push(tuple);
            }
        }
    }
    let cores: Vec<Vec<u64>> = leaves.iter().map(|s| core_values(*s)).collect();
    let combinations = cores
        .iter()
        .try_fold(1usize, |n, c| n.checked_mul(c.len()))
        .unwrap_or(usize::MAX);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    if combinations <= CORE_COMBINATIONS {
        for mut k in 0..combinations {
            tuples.push(
                cores
                    .iter()
                    .map(|c| {
                        let v = c[k % c.len()];
                        k /= c.len();
                        v
                    })
                    .collect(),
            );
        }
    } else {
        for _ in 0..CORE_COMBINATIONS / 2 {
            tuples.push(cores.iter().map(|c| c[rng.below(c.len())]).collect());
        }
    }
    let random_start = tuples.len();
    let random_end = tuples.len() + MAX_RUNS;
    while tuples.len() < random_end {
        tuples.push(
            leaves
                .iter()
                .zip(&lists)
                .map(|(s, l)| {
                    if rng.next().is_multiple_of(2) {
                        l[rng.below(l.len())]
                    } else {
                        random_value(*s, &mut rng)
                    }
                })
                .collect(),
        );
    }
    let mut seen = FxHashSet::default();
    // Without parameters the one run (from the globals' initial values) gets the steps
    // of a replay: a test function that parses its data takes more than a quick run.
    let quick = if leaves.is_empty() {
        config.clone()
    } else {
        quick(config)
    };
    // A run starts from a copy of its version laid out, which costs like steps.
    let start = |k: usize| starts[k].clone();
    let setup: [u64; 2] = [0, 1].map(|k| {
        starts[k]
            .as_ref()
            .map_or(0, ripple_interp::Interpreter::clone_cost)
    });
    let mut steps = 0u64;
    let args_of = |tuple: &[u64]| -> Vec<ReplayArg> {
        let mut rest = tuple;
        shapes
            .iter()
            .zip(&types)
            .map(|(shape, ty)| {
                let n = shape.leaves().len();
                let (mine, others) = rest.split_at(n.min(rest.len()));
                rest = others;
                argument(shape, mine, *ty)
            })
            .collect()
    };
    // The fixed tuples, then text in the character buffers, then the random tuples.
    let mut tuples: Vec<Vec<u64>> = tuples
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .take(MAX_RUNS)
        .collect();
    let mut random = tuples.split_off(random_start.min(tuples.len()));
    if !values_searched {
        tuples.clear();
        random.clear();
    }
    let texts = text_inputs(
        &constants.literals,
        old,
        old_func,
        &shapes,
        &types,
        &args_of,
    );
    let runs = tuples
        .iter()
        .map(|t| args_of(t))
        .chain(texts)
        .chain(random.iter().map(|t| args_of(t)));
    for args in runs {
        if smt.clock_passed() || steps > SEARCH_STEPS || *steps_left == 0 {
            return None;
        }
        // The search gives each pointer argument its own object only, or a pointer
        // into a text it is the end of.
        let none = Pointees::default();
        let a = replay_from(start(0), old, old_func, &args, &none, &[], &quick);
        steps += a.steps + setup[0];
        *steps_left = steps_left.saturating_sub(a.steps + setup[0]);
        if !(a.result.starts_with("returned") || a.result.starts_with("exit ")) {
            continue;
        }
        let b = replay_from(start(1), new, new_func, &args, &none, &[], &quick);
        steps += b.steps + setup[1];
        *steps_left = steps_left.saturating_sub(b.steps + setup[1]);
        if !clean_difference(old, &a, &b, &pointees) {
            continue;
        }
        // Replayed again with the configured step limit, as every witness is.
        let old_seen = replay(old, Side::Old, old_func, &args, &none, &[], config);
        let new_seen = replay(new, Side::New, new_func, &args, &none, &[], config);
        if old_seen == new_seen || !old_seen.confirms() || !new_seen.confirms() {
            continue;
        }
        let mut inputs = function
            .params
            .iter()
            .zip(&args)
            .map(|(v, arg)| {
                let name = &function.locals[*v].name;
                match arg {
                    ReplayArg::Scalar { bits, ty } => (name.clone(), value_text(old, *ty, *bits)),
                    // The first entry: `*p`, or a character buffer's text.
                    ReplayArg::Pointer { bytes, pointee, .. } => {
                        super::witness::pointee_entries(old, name, *pointee, bytes, false)
                            .into_iter()
                            .next()
                            .unwrap_or_else(|| {
                                (format!("*{name}"), scalar_text(old, *pointee, bytes))
                            })
                    }
                    ReplayArg::Aggregate { bytes, ty } => {
                        (name.clone(), super::aggregate_text(old, *ty, bytes))
                    }
                    // The end of a text: the other argument's name plus its length.
                    ReplayArg::Alias { of, offset, .. } => {
                        let base = function
                            .params
                            .get(*of)
                            .map(|v| function.locals[*v].name.clone())
                            .unwrap_or_else(|| format!("argument {}", of + 1));
                        (name.clone(), format!("{base} + {offset}"))
                    }
                    ReplayArg::Function { key } => {
                        let target = old.functions.iter().find(|g| &g.key == key);
                        (
                            name.clone(),
                            format!("&{}", target.map_or(key, |g| &g.name)),
                        )
                    }
                }
            })
            .collect::<Vec<(String, String)>>();
        // The other elements of pointed-to arrays, when not all zero.
        for (v, arg) in function.params.iter().zip(&args) {
            if let ReplayArg::Pointer { bytes, pointee, .. } = arg {
                let name = &function.locals[*v].name;
                inputs.extend(
                    super::witness::pointee_entries(old, name, *pointee, bytes, false)
                        .into_iter()
                        .skip(1),
                );
            }
        }
        // The replays start from each version's initial values: those that differ
        // are inputs too.
        inputs.extend(super::witness::changed_initial_values(
            [old, new],
            &Default::default(),
        ));
        let mut witness = Witness::replayed(
            inputs,
            old_seen,
            new_seen,
            "output",
            ReplayInput {
                args,
                globals: Default::default(),
                pointees: none,
            },
        );
        witness.decide([old, new], [old_func, new_func], config);
        if witness.confirmed {
            return Some(witness);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_values_are_distinct_and_of_their_width() {
        let ints = int_values(32, false);
        assert!(ints.contains(&0x8000_0000) && ints.contains(&0x7fff_ffff));
        assert!(ints.contains(&0xffff_ffff));
        assert!(ints.iter().all(|v| *v <= 0xffff_ffff));
        let mut sorted = ints.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ints.len());
        assert_eq!(int_values(8, true), vec![0, 1]);
        let doubles = candidates(Scalar::F64);
        assert!(doubles.iter().any(|b| f64::from_bits(*b).is_nan()));
        assert!(doubles.contains(&(-0.0f64).to_bits()));
    }
}
