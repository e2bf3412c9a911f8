//! `<ctype.h>`: the classification functions, and the tables behind glibc's macros
//! (`(*__ctype_b_loc())[c] & _ISdigit`), copied from the host's C locale tables into
//! interpreter memory on first use.

use crate::exec::{Exec, Stop};
use crate::libc::{int, Args};
use crate::memory::{make_ptr, BlockKind};
use crate::{Interpreter, Value};

extern "C" {
    fn __ctype_b_loc() -> *mut *const u16;
    fn __ctype_toupper_loc() -> *mut *const i32;
    fn __ctype_tolower_loc() -> *mut *const i32;
}

/// Table entries from index -128 to 255.
const ENTRIES: usize = 384;

impl Interpreter<'_> {
    /// Builds the three tables: each block holds the table followed by the pointer slot
    /// that the `*_loc` function returns; the slot points at entry 0 of the table.
    fn ctype_slots(&mut self) -> Exec<[u64; 3]> {
        if let Some(slots) = self.ctype_slots {
            return Ok(slots);
        }
        // SAFETY: glibc's tables are valid for indices -128..256 of the returned pointer.
        let (b, upper, lower) = unsafe {
            let b = std::slice::from_raw_parts((*__ctype_b_loc()).sub(128), ENTRIES);
            let upper = std::slice::from_raw_parts((*__ctype_toupper_loc()).sub(128), ENTRIES);
            let lower = std::slice::from_raw_parts((*__ctype_tolower_loc()).sub(128), ENTRIES);
            (b.to_vec(), upper.to_vec(), lower.to_vec())
        };
        let b_bytes: Vec<u8> = b.iter().flat_map(|v| v.to_le_bytes()).collect();
        let upper_bytes: Vec<u8> = upper.iter().flat_map(|v| v.to_le_bytes()).collect();
        let lower_bytes: Vec<u8> = lower.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut slots = [0u64; 3];
        for (i, (bytes, elem)) in [(b_bytes, 2u64), (upper_bytes, 4), (lower_bytes, 4)]
            .into_iter()
            .enumerate()
        {
            let size = bytes.len() as u64;
            let block = self.alloc_block(size + 8, BlockKind::Runtime)?;
            let base = make_ptr(block, 0);
            self.mem.write(base, &bytes)?;
            let slot = base + size;
            self.mem
                .write_uint(slot, 8, u128::from(base + 128 * elem))?;
            slots[i] = slot;
        }
        self.ctype_slots = Some(slots);
        Ok(slots)
    }

    pub(crate) fn ctype_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        let class: Option<unsafe extern "C" fn(i32) -> i32> = match args.name {
            "isdigit" => Some(libc::isdigit),
            "isalpha" => Some(libc::isalpha),
            "isalnum" => Some(libc::isalnum),
            "isspace" => Some(libc::isspace),
            "isupper" => Some(libc::isupper),
            "islower" => Some(libc::islower),
            "isxdigit" => Some(libc::isxdigit),
            "ispunct" => Some(libc::ispunct),
            "isprint" => Some(libc::isprint),
            "iscntrl" => Some(libc::iscntrl),
            "isgraph" => Some(libc::isgraph),
            "isblank" => Some(libc::isblank),
            "toupper" => Some(libc::toupper),
            "tolower" => Some(libc::tolower),
            _ => None,
        };
        if let Some(f) = class {
            let c = args.int(0)?;
            if !(-128..=255).contains(&c) {
                return Err(Stop::Trap(format!(
                    "{}: argument {c} out of range",
                    args.name
                )));
            }
            // SAFETY: glibc's classification functions, for an argument in table range.
            return Ok(Some(int(unsafe { f(c) })));
        }
        Ok(Some(match args.name {
            "isascii" => int(i32::from(args.int(0)? & !0x7f == 0)),
            "toascii" => int(args.int(0)? & 0x7f),
            "__ctype_b_loc" => Value::Int(u128::from(self.ctype_slots()?[0])),
            "__ctype_toupper_loc" => Value::Int(u128::from(self.ctype_slots()?[1])),
            "__ctype_tolower_loc" => Value::Int(u128::from(self.ctype_slots()?[2])),
            _ => return Ok(None),
        }))
    }
}
