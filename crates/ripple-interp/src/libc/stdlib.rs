//! `<stdlib.h>` (and `time`, `clock`): the heap, process exit, number parsing through
//! the host's `strtol`/`strtod` on a copy of the string, `abs`, and glibc's `rand`.
//! `time` returns a fixed instant and `clock` zero: an approximation, so that runs are
//! reproducible.

use std::ffi::{c_char, CString};

use crate::exec::{Exec, Stop};
use crate::libc::{int, long, Args};
use crate::memory::{block_of, offset_of, BlockKind};
use crate::{Interpreter, Value};

/// The fixed value of `time()`: 2024-01-01T00:00:00Z.
const FIXED_TIME: i64 = 1_704_067_200;

/// glibc's `random_r` state for the default TYPE_3 generator.
#[derive(Clone, Debug)]
pub(crate) struct RandState {
    r: Vec<i32>,
}

impl RandState {
    pub(crate) fn new(seed: u32) -> RandState {
        let seed = if seed == 0 { 1 } else { seed };
        let mut r = vec![0i32; 34];
        r[0] = seed as i32;
        for i in 1..31 {
            let hi = i64::from(r[i - 1]) / 127_773;
            let lo = i64::from(r[i - 1]) % 127_773;
            let mut word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            r[i] = word as i32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut state = RandState { r };
        for _ in 34..344 {
            state.step();
        }
        state
    }

    fn step(&mut self) -> i32 {
        let n = self.r.len();
        let v = self.r[n - 31].wrapping_add(self.r[n - 3]);
        self.r.push(v);
        if self.r.len() > 4096 {
            self.r.drain(..self.r.len() - 64);
        }
        ((v as u32) >> 1) as i32
    }

    pub(crate) fn next(&mut self) -> i32 {
        self.step()
    }
}

/// The string at the start of `bytes` (up to a NUL), as a C string.
fn c_prefix(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).unwrap_or_default()
}

impl Interpreter<'_> {
    fn malloc(&mut self, size: u64) -> Value {
        match self.mem.alloc(size, BlockKind::Heap) {
            Some(block) => Value::pointer(block, 0),
            None => Value::Int(0),
        }
    }

    fn free(&mut self, name: &str, ptr: u64) -> Exec<()> {
        if ptr == 0 {
            return Ok(());
        }
        let block = block_of(ptr);
        match self.mem.block(block) {
            Some(b) if b.kind == BlockKind::Heap && offset_of(ptr) == 0 => {
                if !b.live {
                    return Err(Stop::Trap(format!("{name}: double free of {ptr:#x}")));
                }
                self.mem.free(block);
                Ok(())
            }
            _ => Err(Stop::Trap(format!("{name}: invalid pointer {ptr:#x}"))),
        }
    }

    /// Runs a host parsing function on a copy of the string at `s`; stores the end
    /// pointer at `endp` (when not null).
    fn parse_with<T>(
        &mut self,
        s: u64,
        endp: u64,
        parse: impl FnOnce(*const c_char, *mut *mut c_char) -> T,
    ) -> Exec<T> {
        let text = c_prefix(self.mem.rest_of_block(s)?);
        let mut end: *mut c_char = std::ptr::null_mut();
        // SAFETY: reading and resetting the host's errno, a thread-local int.
        unsafe { *libc::__errno_location() = 0 };
        let value = parse(text.as_ptr(), &mut end);
        // SAFETY: as above.
        let errno = unsafe { *libc::__errno_location() };
        if errno != 0 {
            self.set_errno(errno)?;
        }
        if endp != 0 {
            let consumed = if end.is_null() {
                0
            } else {
                (end as usize).wrapping_sub(text.as_ptr() as usize) as u64
            };
            self.mem.write_uint(endp, 8, u128::from(s + consumed))?;
        }
        Ok(value)
    }

    pub(crate) fn stdlib_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        Ok(Some(match args.name {
            "malloc" => self.malloc(args.u64(0)?),
            "calloc" => match args.u64(0)?.checked_mul(args.u64(1)?) {
                Some(size) => self.malloc(size),
                None => Value::Int(0),
            },
            "realloc" => {
                let (p, size) = (args.u64(0)?, args.u64(1)?);
                if p == 0 {
                    return Ok(Some(self.malloc(size)));
                }
                let old = self
                    .mem
                    .block(block_of(p))
                    .map(|b| (b.kind, b.live, b.data.len()));
                match old {
                    Some((BlockKind::Heap, true, len)) if offset_of(p) == 0 => {
                        let new = self.malloc(size);
                        let np = new.as_u64();
                        if np != 0 {
                            self.mem.copy(np, p, (len as u64).min(size))?;
                            self.free("realloc", p)?;
                        }
                        new
                    }
                    _ => return Err(Stop::Trap(format!("realloc: invalid pointer {p:#x}"))),
                }
            }
            "free" => {
                self.free("free", args.u64(0)?)?;
                Value::Int(0)
            }
            "exit" | "_exit" | "_Exit" | "quick_exit" => {
                let code = args.int(0)?;
                if args.name == "exit" {
                    return Err(Stop::Exit(code));
                }
                self.atexit.clear();
                return Err(Stop::Exit(code));
            }
            "abort" => return Err(Stop::Abort),
            "abs" => int(args.int(0)?.wrapping_abs()),
            "labs" | "llabs" | "imaxabs" => long(args.i64(0)?.wrapping_abs()),
            "atoi" => {
                let s = args.u64(0)?;
                // SAFETY: the closure receives a NUL-terminated copy of the string.
                let v = self.parse_with(s, 0, |p, _| unsafe { libc::atoi(p) })?;
                int(v)
            }
            "atol" | "atoll" => {
                let s = args.u64(0)?;
                // SAFETY: as above.
                let v = self.parse_with(s, 0, |p, _| unsafe { libc::atol(p) })?;
                long(v)
            }
            "atof" => {
                let s = args.u64(0)?;
                // SAFETY: as above.
                Value::F64(self.parse_with(s, 0, |p, _| unsafe { libc::atof(p) })?)
            }
            "strtol" | "strtoll" | "strtoimax" => {
                let (s, endp, base) = (args.u64(0)?, args.u64(1)?, args.int(2)?);
                // SAFETY: as above; `end` points to a live local.
                long(self.parse_with(s, endp, |p, end| unsafe { libc::strtol(p, end, base) })?)
            }
            "strtoul" | "strtoull" | "strtoumax" => {
                let (s, endp, base) = (args.u64(0)?, args.u64(1)?, args.int(2)?);
                // SAFETY: as above.
                let v =
                    self.parse_with(s, endp, |p, end| unsafe { libc::strtoul(p, end, base) })?;
                Value::Int(u128::from(v))
            }
            "strtod" | "strtold" => {
                let (s, endp) = (args.u64(0)?, args.u64(1)?);
                // SAFETY: as above.
                Value::F64(self.parse_with(s, endp, |p, end| unsafe { libc::strtod(p, end) })?)
            }
            "strtof" => {
                let (s, endp) = (args.u64(0)?, args.u64(1)?);
                // SAFETY: as above.
                Value::F32(self.parse_with(s, endp, |p, end| unsafe { libc::strtof(p, end) })?)
            }
            "rand" | "random" => {
                let state = self.rand_state.get_or_insert_with(|| RandState::new(1));
                int(state.next())
            }
            "srand" | "srandom" => {
                self.rand_state = Some(RandState::new(args.int(0)? as u32));
                Value::Int(0)
            }
            "getenv" | "secure_getenv" => Value::Int(0),
            // The run is in the "C" locale whatever is asked.
            "setlocale" => long(self.runtime_bytes(b"C\0")? as i64),
            "time" => {
                let p = args.u64(0)?;
                if p != 0 {
                    self.mem.write_uint(p, 8, u128::from(FIXED_TIME as u64))?;
                }
                long(FIXED_TIME)
            }
            "clock" => long(0),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rand_matches_glibc() {
        // The first values of glibc's rand() with the default seed 1.
        let mut state = RandState::new(1);
        let first: Vec<i32> = (0..3).map(|_| state.next()).collect();
        assert_eq!(first, vec![1_804_289_383, 846_930_886, 1_681_692_777]);
    }
}
