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
//! values. The inputs are deterministic: fixed value lists, then a fixed-seed generator.

use ripple_ir::{FloatKind, FuncId, IntKind, Program, Type, TypeId};
use rustc_hash::FxHashSet;

use super::SemdiffConfig;
use super::{replay, scalar_text, value_text, Observed, ReplayArg, ReplayInput, Witness};

/// Most input tuples tried per pair.
const MAX_RUNS: usize = 256;
/// Step limit of one concrete run (a run reaching it does not count).
const STEPS: u64 = 20_000;
/// Size of the object a pointer argument points to.
const OBJECT_BYTES: usize = 64;

/// How one parameter is filled.
#[derive(Clone, Copy)]
enum Slot {
    /// An integer (at most 64 bits) or a floating-point value.
    Value(Scalar),
    /// A pointer whose object starts with a value of the inner kind.
    Pointer { inner: Scalar, pointee: TypeId },
}

impl Slot {
    /// The value the slot is filled with (for a pointer: the pointed-to value).
    fn scalar(self) -> Scalar {
        match self {
            Slot::Value(scalar) | Slot::Pointer { inner: scalar, .. } => scalar,
        }
    }
}

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

fn slot_of(program: &Program, ty: TypeId) -> Option<Slot> {
    match program.types.get(ty) {
        Type::Pointer(pointee) => Some(Slot::Pointer {
            inner: scalar_of(program, *pointee)?,
            pointee: *pointee,
        }),
        _ => match scalar_of(program, ty)? {
            scalar @ (Scalar::F32 | Scalar::F64) => Some(Slot::Value(scalar)),
            scalar @ Scalar::Int { bits, .. } if bits <= 64 => Some(Slot::Value(scalar)),
            _ => None,
        },
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
fn candidates(slot: Slot) -> Vec<u64> {
    let scalar = slot.scalar();
    match scalar {
        Scalar::Int { bits, boolean, .. } => int_values(bits.min(64), boolean),
        Scalar::F64 => f64_values().into_iter().map(f64::to_bits).collect(),
        Scalar::F32 => f64_values()
            .into_iter()
            .map(|v| u64::from((v as f32).to_bits()))
            .collect(),
        Scalar::Bytes => vec![0, 1, 0xff, 0x41],
    }
}

/// A random value of a slot: half of the time a small or uniform value, else random bits.
fn random_value(slot: Slot, rng: &mut Rng) -> u64 {
    let scalar = slot.scalar();
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
    }
}

fn scalar_bytes(scalar: Scalar, value: u64) -> Vec<u8> {
    match scalar {
        Scalar::Int { bits, .. } => value.to_le_bytes()[..(bits / 8).clamp(1, 8) as usize].to_vec(),
        Scalar::F32 => (value as u32).to_le_bytes().to_vec(),
        Scalar::F64 => value.to_le_bytes().to_vec(),
        Scalar::Bytes => vec![value as u8; OBJECT_BYTES],
    }
}

/// The replay argument of a slot holding `value`.
fn argument(slot: Slot, value: u64, ty: TypeId) -> ReplayArg {
    match slot {
        Slot::Pointer { inner, pointee } => {
            let mut bytes = vec![0u8; OBJECT_BYTES];
            for (i, b) in scalar_bytes(inner, value).into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(i) {
                    *slot = b;
                }
            }
            ReplayArg::Pointer { bytes, pointee }
        }
        _ => ReplayArg::Scalar {
            bits: u128::from(value),
            ty,
        },
    }
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
    if !clean(old) || !clean(new) {
        return false;
    }
    if old.result != new.result || old.stdout != new.stdout {
        return true;
    }
    let integer_objects = pointees
        .iter()
        .all(|t| matches!(program.types.get(*t), Type::Int(_)));
    old.state
        .iter()
        .zip(&new.state)
        .any(|((name, a), (_, b))| a != b && (!name.ends_with("[..]") || integer_objects))
        || old.state.len() != new.state.len()
}

/// Runs both versions on boundary and random inputs until they differ or the run limit is
/// reached (a fixed number of runs of bounded length, so the search is deterministic; the
/// wall-clock cut-off of `smt` still stops it). The witness returned is confirmed.
pub(super) fn search(
    old: &Program,
    new: &Program,
    old_func: FuncId,
    new_func: FuncId,
    config: &SemdiffConfig,
    smt: &ripple_symex::Smt,
) -> Option<Witness> {
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
    let slots: Vec<Slot> = types
        .iter()
        .map(|t| slot_of(old, *t))
        .collect::<Option<Vec<_>>>()?;
    let lists: Vec<Vec<u64>> = slots.iter().map(|s| candidates(*s)).collect();
    let pointees: Vec<TypeId> = slots
        .iter()
        .filter_map(|s| match s {
            Slot::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        })
        .collect();
    // Input tuples: aligned values, one parameter varied around 0 and 1, then random.
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
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    while tuples.len() < 4 * MAX_RUNS {
        tuples.push(
            slots
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
    let quick = SemdiffConfig {
        replay_steps: config.replay_steps.min(STEPS),
        ..config.clone()
    };
    for tuple in tuples
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .take(MAX_RUNS)
    {
        if smt.clock_passed() {
            return None;
        }
        let args: Vec<ReplayArg> = slots
            .iter()
            .zip(&tuple)
            .zip(&types)
            .map(|((s, v), t)| argument(*s, *v, *t))
            .collect();
        let a = replay(old, old_func, &args, &[], &quick);
        if !(a.result.starts_with("returned") || a.result.starts_with("exit ")) {
            continue;
        }
        let b = replay(new, new_func, &args, &[], &quick);
        if !clean_difference(old, &a, &b, &pointees) {
            continue;
        }
        // Replayed again with the configured step limit, as every witness is.
        let old_seen = replay(old, old_func, &args, &[], config);
        let new_seen = replay(new, new_func, &args, &[], config);
        if old_seen == new_seen || !old_seen.confirms() || !new_seen.confirms() {
            continue;
        }
        let inputs = function
            .params
            .iter()
            .zip(&args)
            .map(|(v, arg)| {
                let name = &function.locals[*v].name;
                match arg {
                    ReplayArg::Scalar { bits, ty } => (name.clone(), value_text(old, *ty, *bits)),
                    ReplayArg::Pointer { bytes, pointee } => {
                        (format!("*{name}"), scalar_text(old, *pointee, bytes))
                    }
                    ReplayArg::Aggregate { bytes, ty } => {
                        (name.clone(), super::aggregate_text(old, *ty, bytes))
                    }
                    // The concrete search gives every pointer its own object.
                    ReplayArg::Alias { of, offset, .. } => {
                        (name.clone(), format!("argument {} + {offset}", of + 1))
                    }
                }
            })
            .collect();
        let mut witness = Witness::replayed(
            inputs,
            old_seen,
            new_seen,
            "output",
            ReplayInput {
                args,
                globals: Vec::new(),
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
        let doubles = candidates(Slot::Value(Scalar::F64));
        assert!(doubles.iter().any(|b| f64::from_bits(*b).is_nan()));
        assert!(doubles.contains(&(-0.0f64).to_bits()));
    }
}
