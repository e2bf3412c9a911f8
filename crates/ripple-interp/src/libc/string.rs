//! `<string.h>`: memory and string functions over interpreter memory, bounds-checked.
//! Comparisons return the difference of the first differing bytes, as glibc's x86-64
//! implementations do.

use crate::exec::Exec;
use crate::libc::{int, long, Args};
use crate::memory::BlockKind;
use crate::{Interpreter, Value};

fn ptr(v: u64) -> Value {
    Value::Int(u128::from(v))
}

fn diff(a: u8, b: u8) -> Value {
    int(i32::from(a) - i32::from(b))
}

impl Interpreter<'_> {
    pub(crate) fn string_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        // Bulk work counts toward the step limit once its bounds hold (past them the
        // call traps, undefined behaviour, whatever its size).
        match args.name {
            "memcpy" | "memmove" | "mempcpy" => {
                let n = args.u64(2)?;
                self.mem.slice(args.u64(1)?, n)?;
                self.mem.slice_mut(args.u64(0)?, n)?;
                self.charge_bytes(n)?;
            }
            "memset" | "strncpy" => {
                let n = args.u64(2)?;
                self.mem.slice_mut(args.u64(0)?, n)?;
                self.charge_bytes(n)?;
            }
            "memcmp" | "bcmp" | "memchr" => self.charge_bytes(args.u64(2)?)?,
            _ => {}
        }
        Ok(Some(match args.name {
            "memcpy" | "memmove" => {
                let dst = args.u64(0)?;
                self.mem.copy(dst, args.u64(1)?, args.u64(2)?)?;
                ptr(dst)
            }
            "mempcpy" => {
                let (dst, n) = (args.u64(0)?, args.u64(2)?);
                self.mem.copy(dst, args.u64(1)?, n)?;
                ptr(dst + n)
            }
            "memset" => {
                let dst = args.u64(0)?;
                let (c, n) = (args.int(1)? as u8, args.u64(2)?);
                self.mem.slice_mut(dst, n)?.fill(c);
                ptr(dst)
            }
            "memcmp" | "bcmp" => {
                let n = args.u64(2)?;
                let a = self.mem.slice(args.u64(0)?, n)?;
                let b = self.mem.slice(args.u64(1)?, n)?;
                match a.iter().zip(b).find(|(x, y)| x != y) {
                    Some((x, y)) => diff(*x, *y),
                    None => int(0),
                }
            }
            "memchr" => {
                let (s, c, n) = (args.u64(0)?, args.int(1)? as u8, args.u64(2)?);
                let hay = self.mem.rest_of_block(s)?;
                let limit = (n as usize).min(hay.len());
                match hay[..limit].iter().position(|b| *b == c) {
                    Some(i) => ptr(s + i as u64),
                    None if (n as usize) > hay.len() => {
                        self.mem.slice(s, n)?;
                        ptr(0)
                    }
                    None => ptr(0),
                }
            }
            "strlen" => long(self.mem.strlen(args.u64(0)?)? as i64),
            "strnlen" => {
                let (s, n) = (args.u64(0)?, args.u64(1)?);
                let bytes = self.string_prefix(s, Some(n.min(i64::MAX as u64) as i64))?;
                long(bytes.len() as i64)
            }
            "strcmp" | "strcoll" => {
                let a = self.mem.c_string(args.u64(0)?)?;
                let b = self.mem.c_string(args.u64(1)?)?;
                compare(a, b, usize::MAX)
            }
            "strncmp" => {
                let n = args.u64(2)?;
                let limit = Some(n.min(i64::MAX as u64) as i64);
                let a = self.string_prefix(args.u64(0)?, limit)?;
                let b = self.string_prefix(args.u64(1)?, limit)?;
                compare(&a, &b, n as usize)
            }
            "strcasecmp" => {
                let a = self.mem.c_string(args.u64(0)?)?.to_ascii_lowercase();
                let b = self.mem.c_string(args.u64(1)?)?.to_ascii_lowercase();
                compare(&a, &b, usize::MAX)
            }
            "strncasecmp" => {
                let n = args.u64(2)?;
                let limit = Some(n.min(i64::MAX as u64) as i64);
                let a = self
                    .string_prefix(args.u64(0)?, limit)?
                    .to_ascii_lowercase();
                let b = self
                    .string_prefix(args.u64(1)?, limit)?
                    .to_ascii_lowercase();
                compare(&a, &b, n as usize)
            }
            "strcpy" | "stpcpy" => {
                let (dst, src) = (args.u64(0)?, args.u64(1)?);
                let mut s = self.mem.c_string(src)?.to_vec();
                let len = s.len() as u64;
                s.push(0);
                self.mem.write(dst, &s)?;
                ptr(if args.name == "strcpy" {
                    dst
                } else {
                    dst + len
                })
            }
            "strncpy" => {
                let (dst, src, n) = (args.u64(0)?, args.u64(1)?, args.u64(2)?);
                // It writes exactly `n` bytes, checked above: a huge `n` (`SIZE_MAX`)
                // traps there, before it is made a buffer.
                let mut s = self.string_prefix(src, Some(n.min(i64::MAX as u64) as i64))?;
                s.resize(n as usize, 0);
                self.mem.write(dst, &s)?;
                ptr(dst)
            }
            "strcat" => {
                let (dst, src) = (args.u64(0)?, args.u64(1)?);
                let end = dst + self.mem.strlen(dst)?;
                let mut s = self.mem.c_string(src)?.to_vec();
                s.push(0);
                self.mem.write(end, &s)?;
                ptr(dst)
            }
            "strncat" => {
                let (dst, src, n) = (args.u64(0)?, args.u64(1)?, args.u64(2)?);
                let end = dst + self.mem.strlen(dst)?;
                let mut s = self.string_prefix(src, Some(n.min(i64::MAX as u64) as i64))?;
                s.push(0);
                self.mem.write(end, &s)?;
                ptr(dst)
            }
            "strchr" | "strrchr" | "strchrnul" => {
                let (s, c) = (args.u64(0)?, args.int(1)? as u8);
                let bytes = self.mem.c_string(s)?;
                let len = bytes.len() as u64;
                let found = if c == 0 {
                    Some(len)
                } else if args.name == "strrchr" {
                    bytes.iter().rposition(|b| *b == c).map(|i| i as u64)
                } else {
                    bytes.iter().position(|b| *b == c).map(|i| i as u64)
                };
                match found {
                    Some(i) => ptr(s + i),
                    None if args.name == "strchrnul" => ptr(s + len),
                    None => ptr(0),
                }
            }
            "strstr" => {
                let (h, n) = (args.u64(0)?, args.u64(1)?);
                let hay = self.mem.c_string(h)?;
                let needle = self.mem.c_string(n)?;
                if needle.is_empty() {
                    ptr(h)
                } else {
                    match hay.windows(needle.len()).position(|w| w == needle) {
                        Some(i) => ptr(h + i as u64),
                        None => ptr(0),
                    }
                }
            }
            "strpbrk" => {
                let s = args.u64(0)?;
                let accept = self.mem.c_string(args.u64(1)?)?.to_vec();
                let bytes = self.mem.c_string(s)?;
                match bytes.iter().position(|b| accept.contains(b)) {
                    Some(i) => ptr(s + i as u64),
                    None => ptr(0),
                }
            }
            "strspn" | "strcspn" => {
                let s = self.mem.c_string(args.u64(0)?)?;
                let set = self.mem.c_string(args.u64(1)?)?;
                let want = args.name == "strspn";
                let n = s
                    .iter()
                    .position(|b| set.contains(b) != want)
                    .unwrap_or(s.len());
                long(n as i64)
            }
            "strdup" | "strndup" => {
                let s = args.u64(0)?;
                let limit = if args.name == "strndup" {
                    Some(args.u64(1)?.min(i64::MAX as u64) as i64)
                } else {
                    None
                };
                let mut bytes = self.string_prefix(s, limit)?;
                bytes.push(0);
                match self.mem.alloc(bytes.len() as u64, BlockKind::Heap) {
                    Some(block) => {
                        let p = crate::memory::make_ptr(block, 0);
                        self.mem.write(p, &bytes)?;
                        ptr(p)
                    }
                    None => ptr(0),
                }
            }
            "strtok" => {
                let s = args.u64(0)?;
                let delims = self.mem.c_string(args.u64(1)?)?.to_vec();
                let mut p = if s == 0 { self.strtok_next } else { s };
                if p == 0 {
                    return Ok(Some(ptr(0)));
                }
                let rest = self.mem.c_string(p)?;
                let skip = rest
                    .iter()
                    .position(|b| !delims.contains(b))
                    .unwrap_or(rest.len());
                p += skip as u64;
                let rest = self.mem.c_string(p)?;
                if rest.is_empty() {
                    self.strtok_next = 0;
                    return Ok(Some(ptr(0)));
                }
                match rest.iter().position(|b| delims.contains(b)) {
                    Some(end) => {
                        self.mem.write(p + end as u64, &[0])?;
                        self.strtok_next = p + end as u64 + 1;
                    }
                    None => self.strtok_next = p + rest.len() as u64,
                }
                ptr(p)
            }
            "strerror" => {
                let mut msg = crate::libc::stdio::strerror(args.int(0)?);
                msg.push(0);
                ptr(self.runtime_bytes(&msg)?)
            }
            _ => return Ok(None),
        }))
    }
}

/// `strcmp` on two strings without their NULs, comparing at most `n` bytes.
fn compare(a: &[u8], b: &[u8], n: usize) -> Value {
    let len = a.len().max(b.len()).min(n);
    for i in 0..len {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return diff(x, y);
        }
    }
    int(0)
}
