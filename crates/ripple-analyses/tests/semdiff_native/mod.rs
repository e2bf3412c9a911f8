//! Random inputs for running a function of a C file natively, and running it: the
//! driver and its runner are ripple's own (`ripple_analyses::semdiff::native`, which
//! confirms witnesses on compiled code); these helpers add random and boundary inputs
//! and run a C file's text on them, for the tests that check semdiff's verdicts against
//! the compiled programs.

#![allow(dead_code)] // Each test binary uses a part of these helpers.

use std::path::Path;

use ripple_analyses::semdiff::native::{self, NativeSource};
pub use ripple_analyses::semdiff::native::{
    timed_out, witness_input, NativeArg as Arg, NativeInput as Input,
};
pub use ripple_conformance::Rng;
use ripple_ir::{FloatKind, FuncId, Program, Type, TypeId};

/// Bytes of one object pointed to by a pointer argument.
pub const BUFFER_BYTES: usize = 128;

/// Writes a random value of type `ty` at `bytes[off..]`; `boundary` favours edge values.
fn fill(program: &Program, ty: TypeId, bytes: &mut [u8], off: usize, rng: &mut Rng) {
    match program.types.get(ty) {
        Type::Int(kind) => {
            let size = (kind.bits() / 8) as usize;
            let value: u64 = match rng.below(10) {
                0 => 0,
                1 => 1,
                2 => u64::MAX,                                            // -1
                3 => 1u64 << (kind.bits().min(64) - 1), // the minimum, or the top bit
                4 => (1u64 << (kind.bits().min(64) - 1)).wrapping_sub(1), // the maximum
                5 | 6 => rng.below(21).wrapping_sub(10),
                7 => rng.below(2000).wrapping_sub(1000),
                _ => rng.next(),
            };
            let value = if matches!(kind, ripple_ir::IntKind::Bool) {
                value & 1
            } else {
                value
            };
            let le = value.to_le_bytes();
            let n = size.min(8);
            bytes[off..off + n].copy_from_slice(&le[..n]);
        }
        Type::Float(kind) => {
            let special = [
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                2.0,
                3.0,
                100.0,
                1e16,
                -1e16,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                f64::MAX,
                f64::MIN_POSITIVE,
                5e-324,
            ];
            let value = match rng.below(4) {
                0 => *rng.pick(&special),
                1 => rng.below(41) as f64 - 20.0,
                2 => (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0,
                _ => f64::from_bits(rng.next()),
            };
            match kind {
                FloatKind::Float => {
                    bytes[off..off + 4].copy_from_slice(&(value as f32).to_le_bytes());
                }
                FloatKind::Double => bytes[off..off + 8].copy_from_slice(&value.to_le_bytes()),
                FloatKind::LongDouble => {} // left zero: +0.0 in the x87 format
            }
        }
        Type::Array { elem, len: Some(n) } => {
            let size = program.types.size_of(*elem) as usize;
            for i in 0..*n as usize {
                if off + (i + 1) * size > bytes.len() {
                    break;
                }
                fill(program, *elem, bytes, off + i * size, rng);
            }
        }
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            if record.is_union {
                if let Some(field) = record.fields.first() {
                    fill(program, field.ty, bytes, off, rng);
                }
                return;
            }
            for field in &record.fields {
                if field.bit_field.is_none() {
                    fill(program, field.ty, bytes, off + field.offset as usize, rng);
                }
            }
        }
        // Pointers stay null; void and functions have no bytes.
        _ => {}
    }
}

/// Random and boundary inputs for `func`, or None when a parameter cannot be given natively.
pub fn random_inputs(
    program: &Program,
    func: FuncId,
    count: usize,
    seed: u64,
) -> Option<Vec<Input>> {
    let function = &program.functions[func];
    let mut rng = Rng(seed);
    let params: Vec<TypeId> = function
        .params
        .iter()
        .map(|p| function.locals[*p].ty)
        .collect();
    for ty in &params {
        native::c_type(program, *ty)?;
    }
    let globals: Vec<(String, TypeId)> = native::data_globals(program, func)
        .into_iter()
        .filter_map(|name| {
            let global = program.globals.iter().find(|g| g.name == name)?;
            Some((name, global.ty))
        })
        .collect();
    let mut inputs = Vec::with_capacity(count);
    for _ in 0..count {
        let mut args = Vec::new();
        for ty in &params {
            match program.types.get(*ty) {
                Type::Pointer(pointee) => {
                    let mut bytes = vec![0u8; BUFFER_BYTES];
                    let size = program.types.size_of(*pointee).max(1) as usize;
                    if matches!(program.types.get(*pointee), Type::Int(k) if k.bits() == 8) {
                        // A string: random small bytes, terminated.
                        let len = rng.below(12) as usize;
                        for b in bytes.iter_mut().take(len) {
                            *b = 1 + rng.below(126) as u8;
                        }
                    } else {
                        let mut off = 0;
                        while off + size <= BUFFER_BYTES {
                            fill(program, *pointee, &mut bytes, off, &mut rng);
                            off += size;
                        }
                    }
                    args.push(Arg::Buffer {
                        before: Vec::new(),
                        bytes,
                    });
                }
                _ => {
                    let mut bytes = vec![0u8; program.types.size_of(*ty) as usize];
                    fill(program, *ty, &mut bytes, 0, &mut rng);
                    args.push(Arg::Value(bytes));
                }
            }
        }
        let mut global_bytes = Vec::new();
        for (name, ty) in &globals {
            if rng.chance(70) {
                let mut bytes = vec![0u8; program.types.size_of(*ty) as usize];
                fill(program, *ty, &mut bytes, 0, &mut rng);
                global_bytes.push((name.clone(), bytes));
            }
        }
        inputs.push(Input {
            args,
            globals: global_bytes,
            ..Input::default()
        });
    }
    Some(inputs)
}

/// Runs `func` of `program` (whose C text is `source`) natively on `inputs`: one outcome
/// per input (see `native::driver`). The globals set and printed are the program's
/// data globals.
pub fn run(
    source: &str,
    program: &Program,
    func: FuncId,
    inputs: &[Input],
    timeout_ms: u32,
    work: &Path,
    name: &str,
) -> Result<Vec<String>, String> {
    let globals = native::data_globals(program, func);
    let driver = native::driver(program, func, &globals, timeout_ms)
        .ok_or_else(|| "the signature cannot be written in C".to_string())?;
    let exe = work.join(name);
    native::build(
        "gcc",
        &NativeSource::Text(source.to_string()),
        "",
        &driver,
        &exe,
    )?;
    native::run(&exe, &native::stdin_text(inputs, &globals), None)
}

/// Fails (does not skip) when gcc is missing: the native checks are the point of the test.
pub fn require_gcc() {
    let found = std::process::Command::new("gcc").arg("--version").output();
    assert!(
        matches!(found, Ok(ref o) if o.status.success()),
        "gcc is required by this test (install gcc)"
    );
}
