//! `printf` formatting: the conversion specifications are parsed here, and each
//! converted piece is produced by the host's `snprintf` on the real value, so the output
//! equals glibc's byte for byte (flags, width, precision, rounding of floats).

use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CString};

use crate::exec::{Exec, Stop};
use crate::{Interpreter, Value};

/// Where the variadic arguments of a formatting or scanning call come from.
pub(crate) enum VarArgs<'a> {
    /// The extra arguments of the call itself.
    Values(&'a [Value], usize),
    /// A `va_list` (the `v*printf` family), at this address.
    VaList(u64),
}

/// One argument for the host `snprintf`.
enum CArg {
    Int(c_int),
    UInt(c_uint),
    Long(c_long),
    ULong(c_ulong),
    Double(f64),
    Ptr(*const c_void),
    Str(*const c_char),
    None,
}

/// Formats one conversion with the host's `snprintf`.
fn host_format(spec: &[u8], arg: CArg, out: &mut Vec<u8>) {
    let Ok(cfmt) = CString::new(spec) else {
        return;
    };
    let mut buf = [0u8; 256];
    let call = |buf: *mut c_char, len: usize| -> c_int {
        // SAFETY: `cfmt` is a NUL-terminated format with exactly one conversion whose
        // argument type matches `arg` (chosen by the conversion and length modifier),
        // and `buf` has room for `len` bytes.
        unsafe {
            match arg {
                CArg::Int(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::UInt(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::Long(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::ULong(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::Double(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::Ptr(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::Str(v) => libc::snprintf(buf, len, cfmt.as_ptr(), v),
                CArg::None => libc::snprintf(buf, len, cfmt.as_ptr()),
            }
        }
    };
    let n = call(buf.as_mut_ptr().cast(), buf.len());
    if n < 0 {
        return;
    }
    let n = n as usize;
    if n < buf.len() {
        out.extend_from_slice(&buf[..n]);
    } else {
        let mut big = vec![0u8; n + 1];
        let m = call(big.as_mut_ptr().cast(), big.len());
        if m >= 0 {
            out.extend_from_slice(&big[..(m as usize).min(n)]);
        }
    }
}

fn parse_number(fmt: &[u8], i: &mut usize) -> Option<i64> {
    let start = *i;
    let mut v: i64 = 0;
    while *i < fmt.len() && fmt[*i].is_ascii_digit() {
        v = v
            .saturating_mul(10)
            .saturating_add(i64::from(fmt[*i] - b'0'));
        *i += 1;
    }
    (*i > start).then_some(v)
}

impl Interpreter<'_> {
    /// The next variadic argument.
    pub(crate) fn next_vararg(&mut self, args: &mut VarArgs<'_>) -> Exec<Value> {
        match args {
            VarArgs::Values(values, next) => {
                let v = values
                    .get(*next)
                    .cloned()
                    .ok_or_else(|| Stop::Trap("missing variadic argument for the format".into()))?;
                *next += 1;
                Ok(v)
            }
            VarArgs::VaList(ap) => self.va_arg_next(*ap),
        }
    }

    /// Formats like `printf` with the format at `fmt`; returns the bytes.
    pub(crate) fn format(&mut self, fmt: u64, args: &mut VarArgs<'_>) -> Exec<Vec<u8>> {
        let fmt = self.mem.c_string(fmt)?.to_vec();
        let mut out = Vec::with_capacity(fmt.len() + 16);
        let mut i = 0;
        while i < fmt.len() {
            let c = fmt[i];
            if c != b'%' {
                out.push(c);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            let mut spec = vec![b'%'];
            while i < fmt.len() && b"-+ #0'I".contains(&fmt[i]) {
                spec.push(fmt[i]);
                i += 1;
            }
            if i < fmt.len() && fmt[i] == b'*' {
                i += 1;
                let w = self.next_vararg(args)?.as_u64() as u32 as i32;
                if w < 0 {
                    spec.push(b'-');
                }
                spec.extend_from_slice(i64::from(w).unsigned_abs().to_string().as_bytes());
            } else if let Some(w) = parse_number(&fmt, &mut i) {
                spec.extend_from_slice(w.to_string().as_bytes());
            }
            let mut precision: Option<i64> = None;
            if i < fmt.len() && fmt[i] == b'.' {
                i += 1;
                if i < fmt.len() && fmt[i] == b'*' {
                    i += 1;
                    let p = self.next_vararg(args)?.as_u64() as u32 as i32;
                    if p >= 0 {
                        precision = Some(i64::from(p));
                    }
                } else {
                    precision = Some(parse_number(&fmt, &mut i).unwrap_or(0));
                }
            }
            if let Some(p) = precision {
                spec.push(b'.');
                spec.extend_from_slice(p.to_string().as_bytes());
            }
            let length_start = i;
            while i < fmt.len() && b"hlLqjzZt".contains(&fmt[i]) {
                i += 1;
            }
            let length = &fmt[length_start..i];
            let Some(&conv) = fmt.get(i) else {
                out.extend_from_slice(&fmt[start..]);
                break;
            };
            i += 1;
            let long = length.iter().any(|c| b"lqjzZtL".contains(c));
            match conv {
                b'%' => out.push(b'%'),
                b'd' | b'i' => {
                    let v = self.next_vararg(args)?;
                    spec.extend_from_slice(length);
                    spec.push(conv);
                    let arg = if long {
                        CArg::Long(int_bits(&v) as i64)
                    } else {
                        CArg::Int(int_bits(&v) as u32 as i32)
                    };
                    host_format(&spec, arg, &mut out);
                }
                b'u' | b'o' | b'x' | b'X' => {
                    let v = self.next_vararg(args)?;
                    spec.extend_from_slice(length);
                    spec.push(conv);
                    let arg = if long {
                        CArg::ULong(int_bits(&v))
                    } else {
                        CArg::UInt(int_bits(&v) as u32)
                    };
                    host_format(&spec, arg, &mut out);
                }
                b'c' => {
                    let v = self.next_vararg(args)?;
                    spec.push(b'c');
                    host_format(&spec, CArg::Int(int_bits(&v) as u32 as i32), &mut out);
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let v = self.next_vararg(args)?;
                    spec.push(conv);
                    let d = match v {
                        Value::F64(d) => d,
                        Value::F32(f) => f64::from(f),
                        _ => 0.0,
                    };
                    host_format(&spec, CArg::Double(d), &mut out);
                }
                b's' => {
                    let ptr = self.next_vararg(args)?.as_u64();
                    spec.push(b's');
                    if ptr == 0 {
                        host_format(&spec, CArg::Str(std::ptr::null()), &mut out);
                    } else {
                        let bytes = self.string_prefix(ptr, precision)?;
                        let Ok(s) = CString::new(bytes) else {
                            continue;
                        };
                        host_format(&spec, CArg::Str(s.as_ptr()), &mut out);
                    }
                }
                b'p' => {
                    let v = self.next_vararg(args)?.as_u64();
                    spec.push(b'p');
                    host_format(&spec, CArg::Ptr(v as usize as *const c_void), &mut out);
                }
                b'n' => {
                    let ptr = self.next_vararg(args)?.as_u64();
                    let size = match length {
                        b"hh" => 1,
                        b"h" => 2,
                        b"" => 4,
                        _ => 8,
                    };
                    self.mem.write_uint(ptr, size, out.len() as u128)?;
                }
                b'm' => {
                    spec.push(b'm');
                    // SAFETY: `%m` takes no argument; errno is set just before.
                    unsafe { *libc::__errno_location() = self.errno() };
                    host_format(&spec, CArg::None, &mut out);
                }
                _ => out.extend_from_slice(&fmt[start..i]),
            }
        }
        Ok(out)
    }

    /// The bytes of the string at `ptr`, up to its NUL or `max` bytes.
    pub(crate) fn string_prefix(&self, ptr: u64, max: Option<i64>) -> Exec<Vec<u8>> {
        match max {
            None => Ok(self.mem.c_string(ptr)?.to_vec()),
            Some(max) => {
                let rest = self.mem.rest_of_block(ptr)?;
                let limit = (max.max(0) as usize).min(rest.len());
                let len = rest[..limit].iter().position(|b| *b == 0).unwrap_or(limit);
                if len == rest.len() && (max as usize) > rest.len() {
                    // Ran off the end of the object without a NUL.
                    self.mem.slice(ptr, rest.len() as u64 + 1)?;
                }
                Ok(rest[..len].to_vec())
            }
        }
    }
}

/// The bits of an integer argument (floats give 0, as reading the wrong register would
/// give garbage).
fn int_bits(v: &Value) -> u64 {
    match v {
        Value::Int(bits) => *bits as u64,
        _ => 0,
    }
}
