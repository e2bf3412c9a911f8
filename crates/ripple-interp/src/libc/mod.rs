//! The model of the C library: calls to external functions, dispatched by name.
//!
//! Each submodule handles one header's functions and returns `None` for names it does
//! not know; a name no module knows stops the run with `Unsupported`. Functions that
//! call back into the program (`qsort`, `bsearch`, `atexit` handlers) are here, since
//! they need the observer of the run.

pub(crate) mod ctype;
pub(crate) mod files;
pub(crate) mod format;
pub(crate) mod getopt;
pub(crate) mod math;
pub(crate) mod posix;
pub(crate) mod scan;
pub(crate) mod stdio;
pub(crate) mod stdlib;
pub(crate) mod string;

use ripple_ir::FuncId;

use crate::exec::{Exec, Stop};
use crate::memory::BlockKind;
use crate::observe::Observer;
use crate::{Interpreter, Value};

/// Argument accessors for library functions.
pub(crate) struct Args<'a> {
    pub(crate) name: &'a str,
    pub(crate) values: &'a [Value],
}

impl Args<'_> {
    pub(crate) fn get(&self, i: usize) -> Exec<&Value> {
        self.values
            .get(i)
            .ok_or_else(|| Stop::Trap(format!("{} called without argument {}", self.name, i + 1)))
    }

    /// An integer or pointer argument, as its low 64 bits.
    pub(crate) fn u64(&self, i: usize) -> Exec<u64> {
        self.get(i).map(Value::as_u64)
    }

    pub(crate) fn i64(&self, i: usize) -> Exec<i64> {
        self.u64(i).map(|v| v as i64)
    }

    /// An `int` argument.
    pub(crate) fn int(&self, i: usize) -> Exec<i32> {
        self.u64(i).map(|v| v as u32 as i32)
    }

    pub(crate) fn f64(&self, i: usize) -> Exec<f64> {
        self.get(i).map(Value::as_f64)
    }

    pub(crate) fn f32(&self, i: usize) -> Exec<f32> {
        self.get(i).map(|v| match v {
            Value::F32(f) => *f,
            other => other.as_f64() as f32,
        })
    }
}

/// An `int` result.
pub(crate) fn int(v: i32) -> Value {
    Value::Int(u128::from(v as u32))
}

/// A `long` (or `size_t`, or pointer) result.
pub(crate) fn long(v: i64) -> Value {
    Value::Int(u128::from(v as u64))
}

impl Interpreter<'_> {
    /// Calls the model of an external function.
    pub(crate) fn call_external<O: Observer>(
        &mut self,
        observer: &mut O,
        func: FuncId,
        values: &[Value],
    ) -> Exec<Value> {
        let program = self.program;
        let Some(function) = program.functions.get(func) else {
            return Err(Stop::Unsupported(format!(
                "call to a missing function {func}"
            )));
        };
        let full_name = function.name.as_str();
        let name = full_name.strip_prefix("__builtin_").unwrap_or(full_name);
        let name = name.strip_prefix("__isoc99_").unwrap_or(name);
        let args = Args { name, values };
        if let Some(v) = self.callback_call(observer, &args)? {
            return Ok(v);
        }
        if let Some(v) = self.stdio_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.string_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.stdlib_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.math_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.ctype_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.posix_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.getopt_call(&args)? {
            return Ok(v);
        }
        if let Some(v) = self.misc_call(&args)? {
            return Ok(v);
        }
        Err(Stop::Unsupported(format!(
            "call to external function `{full_name}` without a model"
        )))
    }

    fn misc_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        Ok(Some(match args.name {
            "expect" | "expect_with_probability" | "assume_aligned" => args.get(0)?.clone(),
            // The `setjmp` it returns to is not followed (its direct call returns 0).
            "longjmp" | "_longjmp" | "siglongjmp" | "__longjmp_chk" => {
                return Err(Stop::Unsupported(format!(
                    "{}: non-local control flow is not modelled",
                    args.name
                )))
            }
            "unreachable" | "trap" => {
                return Err(Stop::Trap(format!("__builtin_{} reached", args.name)))
            }
            "__errno_location" => Value::Int(u128::from(self.errno_ptr)),
            "__assert_fail" => {
                let expr = self.mem.c_string(args.u64(0)?)?.to_vec();
                let file = self.mem.c_string(args.u64(1)?)?.to_vec();
                let line = args.int(2)? as u32;
                let function = self.mem.c_string(args.u64(3)?)?.to_vec();
                let mut msg = format!("{}: ", self.program_name).into_bytes();
                msg.extend_from_slice(&file);
                msg.extend_from_slice(format!(":{line}: ").as_bytes());
                msg.extend_from_slice(&function);
                msg.extend_from_slice(b": Assertion `");
                msg.extend_from_slice(&expr);
                msg.extend_from_slice(b"' failed.\n");
                self.stderr.extend_from_slice(&msg);
                return Err(Stop::Abort);
            }
            "__stack_chk_fail" => return Err(Stop::Abort),
            _ => return Ok(None),
        }))
    }

    pub(crate) fn set_errno(&mut self, value: i32) -> Exec<()> {
        self.mem
            .write_uint(self.errno_ptr, 4, u128::from(value as u32))?;
        Ok(())
    }

    pub(crate) fn errno(&self) -> i32 {
        self.mem
            .read_uint(self.errno_ptr, 4)
            .map_or(0, |v| v as u32 as i32)
    }

    /// A block with `bytes` that the program may read (and write).
    pub(crate) fn runtime_bytes(&mut self, bytes: &[u8]) -> Exec<u64> {
        let block = self.alloc_block(bytes.len() as u64, BlockKind::Runtime)?;
        let ptr = crate::memory::make_ptr(block, 0);
        self.mem.write(ptr, bytes)?;
        Ok(ptr)
    }

    /// Calls a function pointer from the library (comparators, handlers).
    fn call_back<O: Observer>(
        &mut self,
        observer: &mut O,
        func_ptr: u64,
        args: Vec<Value>,
    ) -> Exec<Value> {
        let func = self.func_of_ptr(func_ptr)?;
        Ok(self
            .call_function_value(observer, func, args)?
            .unwrap_or(Value::Int(0)))
    }

    fn callback_call<O: Observer>(
        &mut self,
        observer: &mut O,
        args: &Args<'_>,
    ) -> Exec<Option<Value>> {
        match args.name {
            "qsort" => {
                let (base, n, size, cmp) = (args.u64(0)?, args.u64(1)?, args.u64(2)?, args.u64(3)?);
                if n > 1 && size > 0 {
                    let total = n
                        .checked_mul(size)
                        .ok_or_else(|| Stop::Trap("qsort: array size overflows".into()))?;
                    self.mem.slice(base, total)?;
                    let mut tmp = vec![0u8; total as usize];
                    self.msort(observer, base, n, size, cmp, &mut tmp)?;
                }
                Ok(Some(Value::Int(0)))
            }
            "bsearch" => {
                let (key, base, n, size, cmp) = (
                    args.u64(0)?,
                    args.u64(1)?,
                    args.u64(2)?,
                    args.u64(3)?,
                    args.u64(4)?,
                );
                let (mut lo, mut hi) = (0u64, n);
                while lo < hi {
                    let idx = (lo + hi) / 2;
                    let p = base.wrapping_add(idx.wrapping_mul(size));
                    let r = self
                        .call_back(observer, cmp, vec![long(key as i64), long(p as i64)])?
                        .as_u64() as u32 as i32;
                    match r.cmp(&0) {
                        std::cmp::Ordering::Less => hi = idx,
                        std::cmp::Ordering::Greater => lo = idx + 1,
                        std::cmp::Ordering::Equal => return Ok(Some(long(p as i64))),
                    }
                }
                Ok(Some(Value::Int(0)))
            }
            "atexit" => {
                self.atexit.push(args.u64(0)?);
                Ok(Some(int(0)))
            }
            _ => Ok(None),
        }
    }

    /// glibc's `msort_with_tmp`: a top-down merge sort, so the comparator sees the same
    /// calls in the same order as with the real `qsort` (glibc 2.36).
    fn msort<O: Observer>(
        &mut self,
        observer: &mut O,
        base: u64,
        n: u64,
        size: u64,
        cmp: u64,
        tmp: &mut [u8],
    ) -> Exec<()> {
        if n <= 1 {
            return Ok(());
        }
        let n1 = n / 2;
        let n2 = n - n1;
        let b2 = base + n1 * size;
        self.msort(observer, base, n1, size, cmp, tmp)?;
        self.msort(observer, b2, n2, size, cmp, tmp)?;
        let (mut p1, mut p2) = (base, b2);
        let (mut r1, mut r2) = (n1, n2);
        let mut out = 0usize;
        let s = size as usize;
        while r1 > 0 && r2 > 0 {
            let r = self
                .call_back(observer, cmp, vec![long(p1 as i64), long(p2 as i64)])?
                .as_u64() as u32 as i32;
            if r <= 0 {
                tmp[out..out + s].copy_from_slice(self.mem.slice(p1, size)?);
                p1 += size;
                r1 -= 1;
            } else {
                tmp[out..out + s].copy_from_slice(self.mem.slice(p2, size)?);
                p2 += size;
                r2 -= 1;
            }
            out += s;
        }
        if r1 > 0 {
            let rest = (r1 * size) as usize;
            tmp[out..out + rest].copy_from_slice(self.mem.slice(p1, r1 * size)?);
        }
        // Whatever remains of the second run is already in place.
        let merged = (n - r2) * size;
        let tmp_copy = tmp[..merged as usize].to_vec();
        self.mem.write(base, &tmp_copy)?;
        Ok(())
    }
}
