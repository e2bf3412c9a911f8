//! `<math.h>`: every function calls the host's libm, so results are bit-identical to
//! the compiled program's (glibc's libm on the same machine).

use std::ffi::c_int;

use crate::exec::Exec;
use crate::libc::{int, long, Args};
use crate::{Interpreter, Value};

macro_rules! libm {
    (unary: $($f:ident),*; binary: $($g:ident),*; unary_f: $($h:ident),*; binary_f: $($k:ident),*) => {
        #[link(name = "m")]
        extern "C" {
            $(fn $f(x: f64) -> f64;)*
            $(fn $g(x: f64, y: f64) -> f64;)*
            $(fn $h(x: f32) -> f32;)*
            $(fn $k(x: f32, y: f32) -> f32;)*
            fn lround(x: f64) -> i64;
            fn lroundf(x: f32) -> i64;
            fn lrint(x: f64) -> i64;
            fn lrintf(x: f32) -> i64;
            fn ldexp(x: f64, e: c_int) -> f64;
            fn ldexpf(x: f32, e: c_int) -> f32;
            fn frexp(x: f64, e: *mut c_int) -> f64;
            fn modf(x: f64, i: *mut f64) -> f64;
            fn fma(x: f64, y: f64, z: f64) -> f64;
        }

        fn unary_f64(name: &str) -> Option<unsafe extern "C" fn(f64) -> f64> {
            match name {
                $(stringify!($f) => Some($f),)*
                _ => None,
            }
        }

        fn binary_f64(name: &str) -> Option<unsafe extern "C" fn(f64, f64) -> f64> {
            match name {
                $(stringify!($g) => Some($g),)*
                _ => None,
            }
        }

        fn unary_f32(name: &str) -> Option<unsafe extern "C" fn(f32) -> f32> {
            match name {
                $(stringify!($h) => Some($h),)*
                _ => None,
            }
        }

        fn binary_f32(name: &str) -> Option<unsafe extern "C" fn(f32, f32) -> f32> {
            match name {
                $(stringify!($k) => Some($k),)*
                _ => None,
            }
        }
    };
}

libm! {
    unary: sqrt, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh,
        exp, exp2, expm1, log, log2, log10, log1p, floor, ceil, fabs, round, trunc, cbrt,
        rint, nearbyint, erf, erfc, tgamma, lgamma;
    binary: pow, atan2, fmod, hypot, fmin, fmax, copysign, remainder, fdim, nextafter;
    unary_f: sqrtf, sinf, cosf, tanf, asinf, acosf, atanf, sinhf, coshf, tanhf, expf, exp2f,
        logf, log2f, log10f, floorf, ceilf, fabsf, roundf, truncf, cbrtf, rintf;
    binary_f: powf, atan2f, fmodf, hypotf, fminf, fmaxf, copysignf
}

impl Interpreter<'_> {
    pub(crate) fn math_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        let name = match args.name {
            // `long double` is computed as `double`.
            n if n.ends_with('l') && unary_f64(&n[..n.len() - 1]).is_some() => &n[..n.len() - 1],
            n if n.ends_with('l') && binary_f64(&n[..n.len() - 1]).is_some() => &n[..n.len() - 1],
            n => n,
        };
        if let Some(f) = unary_f64(name) {
            // SAFETY: libm functions on plain values.
            return Ok(Some(Value::F64(unsafe { f(args.f64(0)?) })));
        }
        if let Some(f) = binary_f64(name) {
            // SAFETY: as above.
            return Ok(Some(Value::F64(unsafe { f(args.f64(0)?, args.f64(1)?) })));
        }
        if let Some(f) = unary_f32(name) {
            // SAFETY: as above.
            return Ok(Some(Value::F32(unsafe { f(args.f32(0)?) })));
        }
        if let Some(f) = binary_f32(name) {
            // SAFETY: as above.
            return Ok(Some(Value::F32(unsafe { f(args.f32(0)?, args.f32(1)?) })));
        }
        // SAFETY (all below): libm functions on plain values and live locals.
        Ok(Some(match name {
            "lround" | "llround" => long(unsafe { lround(args.f64(0)?) }),
            "lroundf" | "llroundf" => long(unsafe { lroundf(args.f32(0)?) }),
            "lrint" | "llrint" => long(unsafe { lrint(args.f64(0)?) }),
            "lrintf" | "llrintf" => long(unsafe { lrintf(args.f32(0)?) }),
            "ldexp" | "scalbn" => Value::F64(unsafe { ldexp(args.f64(0)?, args.int(1)?) }),
            "ldexpf" | "scalbnf" => Value::F32(unsafe { ldexpf(args.f32(0)?, args.int(1)?) }),
            "fma" => Value::F64(unsafe { fma(args.f64(0)?, args.f64(1)?, args.f64(2)?) }),
            "frexp" => {
                let mut e: c_int = 0;
                let v = unsafe { frexp(args.f64(0)?, &mut e) };
                self.mem.write_uint(args.u64(1)?, 4, u128::from(e as u32))?;
                Value::F64(v)
            }
            "modf" => {
                let mut i = 0.0;
                let v = unsafe { modf(args.f64(0)?, &mut i) };
                self.mem
                    .write_uint(args.u64(1)?, 8, u128::from(i.to_bits()))?;
                Value::F64(v)
            }
            "isnan" | "__isnan" => int(i32::from(args.f64(0)?.is_nan())),
            "isinf" | "__isinf" => {
                let x = args.f64(0)?;
                int(if x.is_infinite() {
                    if x > 0.0 {
                        1
                    } else {
                        -1
                    }
                } else {
                    0
                })
            }
            "finite" | "__finite" | "isfinite" => int(i32::from(args.f64(0)?.is_finite())),
            "__signbit" | "signbit" => int(i32::from(args.f64(0)?.is_sign_negative())),
            "__signbitf" => int(i32::from(args.f32(0)?.is_sign_negative())),
            "__isnanf" | "isnanf" => int(i32::from(args.f32(0)?.is_nan())),
            "huge_val" | "inf" => Value::F64(f64::INFINITY),
            "huge_valf" | "inff" => Value::F32(f32::INFINITY),
            "nan" => Value::F64(f64::NAN),
            "nanf" => Value::F32(f32::NAN),
            _ => return Ok(None),
        }))
    }
}
