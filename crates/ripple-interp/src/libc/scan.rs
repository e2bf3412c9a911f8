//! `scanf` conversions over a byte input (stdin or a string): `%d %i %u %o %x %s %c
//! %[ %n %f %e %g` with widths, length modifiers and `*` suppression. Numbers are
//! converted by the host's `strtol`/`strtoul`/`strtod` on the scanned token, as glibc does.

use std::ffi::CString;

use crate::exec::Exec;
use crate::libc::format::VarArgs;
use crate::Interpreter;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The characters of an integer token in `base` (0: C prefix rules), at most `width`.
fn scan_int_token(
    input: &[u8],
    pos: &mut usize,
    width: usize,
    base: u32,
) -> Option<(Vec<u8>, u32)> {
    let mut tok = Vec::new();
    let mut base = base;
    let at = |p: usize| input.get(p).copied();
    if let Some(c @ (b'+' | b'-')) = at(*pos) {
        if tok.len() < width {
            tok.push(c);
            *pos += 1;
        }
    }
    if (base == 0 || base == 16) && at(*pos) == Some(b'0') && tok.len() < width {
        tok.push(b'0');
        *pos += 1;
        if matches!(at(*pos), Some(b'x' | b'X')) && tok.len() < width {
            tok.push(b'x');
            *pos += 1;
            base = 16;
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    while tok.len() < width {
        match at(*pos) {
            Some(c) if (c as char).is_digit(base) => {
                tok.push(c);
                *pos += 1;
            }
            _ => break,
        }
    }
    let digits = tok.iter().filter(|c| c.is_ascii_hexdigit()).count();
    (digits > 0).then_some((tok, base))
}

fn scan_float_token(input: &[u8], pos: &mut usize, width: usize) -> Option<Vec<u8>> {
    let mut tok = Vec::new();
    let at = |p: usize| input.get(p).copied();
    let take = |tok: &mut Vec<u8>, pos: &mut usize, c: u8| {
        tok.push(c);
        *pos += 1;
    };
    if let Some(c @ (b'+' | b'-')) = at(*pos) {
        take(&mut tok, pos, c);
    }
    let rest: Vec<u8> = input[*pos..]
        .iter()
        .take(8)
        .map(u8::to_ascii_lowercase)
        .collect();
    for word in [&b"infinity"[..], b"inf", b"nan"] {
        if rest.starts_with(word) && tok.len() + word.len() <= width {
            for _ in 0..word.len() {
                let c = input[*pos];
                take(&mut tok, pos, c);
            }
            return Some(tok);
        }
    }
    let mut digits = 0;
    while tok.len() < width {
        match at(*pos) {
            Some(c) if c.is_ascii_digit() => {
                take(&mut tok, pos, c);
                digits += 1;
            }
            _ => break,
        }
    }
    if tok.len() < width && at(*pos) == Some(b'.') {
        take(&mut tok, pos, b'.');
        while tok.len() < width {
            match at(*pos) {
                Some(c) if c.is_ascii_digit() => {
                    take(&mut tok, pos, c);
                    digits += 1;
                }
                _ => break,
            }
        }
    }
    if digits == 0 {
        return None;
    }
    if tok.len() < width && matches!(at(*pos), Some(b'e' | b'E')) {
        let save = (*pos, tok.len());
        take(&mut tok, pos, b'e');
        if tok.len() < width {
            if let Some(c @ (b'+' | b'-')) = at(*pos) {
                take(&mut tok, pos, c);
            }
        }
        let mut exp_digits = 0;
        while tok.len() < width {
            match at(*pos) {
                Some(c) if c.is_ascii_digit() => {
                    take(&mut tok, pos, c);
                    exp_digits += 1;
                }
                _ => break,
            }
        }
        if exp_digits == 0 {
            // glibc consumes the `e` but then fails; keep the mantissa (close enough).
            *pos = save.0;
            tok.truncate(save.1);
        }
    }
    Some(tok)
}

impl Interpreter<'_> {
    /// Scans `input` from `pos` by the format; returns the number of assignments, or -1
    /// when the input ended before the first conversion.
    pub(crate) fn scan(
        &mut self,
        input: &[u8],
        pos: &mut usize,
        fmt: &[u8],
        args: &mut VarArgs<'_>,
    ) -> Exec<i32> {
        let start_pos = *pos;
        let mut assigned = 0;
        let mut converted_any = false;
        let mut i = 0;
        let eof_result =
            |converted_any: bool, assigned: i32| if converted_any { assigned } else { -1 };
        while i < fmt.len() {
            let c = fmt[i];
            if is_space(c) {
                while i < fmt.len() && is_space(fmt[i]) {
                    i += 1;
                }
                while *pos < input.len() && is_space(input[*pos]) {
                    *pos += 1;
                }
                continue;
            }
            if c != b'%' {
                match input.get(*pos) {
                    None => return Ok(eof_result(converted_any, assigned)),
                    Some(&b) if b == c => {
                        *pos += 1;
                        i += 1;
                        continue;
                    }
                    Some(_) => return Ok(assigned),
                }
            }
            i += 1;
            let suppress = fmt.get(i) == Some(&b'*');
            if suppress {
                i += 1;
            }
            let mut width = 0usize;
            let mut has_width = false;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                width = width
                    .saturating_mul(10)
                    .saturating_add(usize::from(fmt[i] - b'0'));
                has_width = true;
                i += 1;
            }
            let length_start = i;
            while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
                i += 1;
            }
            let length = fmt[length_start..i].to_vec();
            let Some(&conv) = fmt.get(i) else {
                break;
            };
            i += 1;
            let width = if has_width && width > 0 {
                width
            } else {
                usize::MAX
            };
            if !matches!(conv, b'[' | b'c' | b'n') {
                while *pos < input.len() && is_space(input[*pos]) {
                    *pos += 1;
                }
            }
            let int_size = match length.as_slice() {
                b"hh" => 1,
                b"h" => 2,
                b"" => 4,
                _ => 8,
            };
            match conv {
                b'%' => match input.get(*pos) {
                    None => return Ok(eof_result(converted_any, assigned)),
                    Some(b'%') => *pos += 1,
                    Some(_) => return Ok(assigned),
                },
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => {
                    if *pos >= input.len() {
                        return Ok(eof_result(converted_any, assigned));
                    }
                    let base = match conv {
                        b'd' | b'u' => 10,
                        b'i' => 0,
                        b'o' => 8,
                        _ => 16,
                    };
                    let Some((tok, base)) = scan_int_token(input, pos, width, base) else {
                        return Ok(assigned);
                    };
                    converted_any = true;
                    if !suppress {
                        let Ok(text) = CString::new(tok) else {
                            return Ok(assigned);
                        };
                        // SAFETY: `text` is a NUL-terminated string; a null end pointer is allowed.
                        let v: u64 = unsafe {
                            if matches!(conv, b'd' | b'i') {
                                libc::strtol(text.as_ptr(), std::ptr::null_mut(), base as i32)
                                    as u64
                            } else {
                                libc::strtoul(text.as_ptr(), std::ptr::null_mut(), base as i32)
                            }
                        };
                        let ptr = self.next_vararg(args)?.as_u64();
                        self.mem.write_uint(ptr, int_size, u128::from(v))?;
                        assigned += 1;
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    if *pos >= input.len() {
                        return Ok(eof_result(converted_any, assigned));
                    }
                    let Some(tok) = scan_float_token(input, pos, width) else {
                        return Ok(assigned);
                    };
                    converted_any = true;
                    if !suppress {
                        let Ok(text) = CString::new(tok) else {
                            return Ok(assigned);
                        };
                        // SAFETY: `text` is a NUL-terminated string.
                        let v = unsafe { libc::strtod(text.as_ptr(), std::ptr::null_mut()) };
                        let ptr = self.next_vararg(args)?.as_u64();
                        match length.as_slice() {
                            b"" => self
                                .mem
                                .write_uint(ptr, 4, u128::from((v as f32).to_bits()))?,
                            b"L" => self.mem.write_uint(ptr, 16, u128::from(v.to_bits()))?,
                            _ => self.mem.write_uint(ptr, 8, u128::from(v.to_bits()))?,
                        }
                        assigned += 1;
                    }
                }
                b's' => {
                    if *pos >= input.len() {
                        return Ok(eof_result(converted_any, assigned));
                    }
                    let start = *pos;
                    while *pos < input.len() && !is_space(input[*pos]) && *pos - start < width {
                        *pos += 1;
                    }
                    converted_any = true;
                    if !suppress {
                        let mut bytes = input[start..*pos].to_vec();
                        bytes.push(0);
                        let ptr = self.next_vararg(args)?.as_u64();
                        self.mem.write(ptr, &bytes)?;
                        assigned += 1;
                    }
                }
                b'c' => {
                    let n = if width == usize::MAX { 1 } else { width };
                    if *pos >= input.len() {
                        return Ok(eof_result(converted_any, assigned));
                    }
                    let end = pos.saturating_add(n).min(input.len());
                    let bytes = input[*pos..end].to_vec();
                    *pos = end;
                    converted_any = true;
                    if !suppress {
                        let ptr = self.next_vararg(args)?.as_u64();
                        self.mem.write(ptr, &bytes)?;
                        assigned += 1;
                    }
                }
                b'[' => {
                    let mut negate = false;
                    if fmt.get(i) == Some(&b'^') {
                        negate = true;
                        i += 1;
                    }
                    let mut set = [false; 256];
                    let mut first = true;
                    while i < fmt.len() && (fmt[i] != b']' || first) {
                        let c = fmt[i];
                        if fmt.get(i + 1) == Some(&b'-')
                            && fmt.get(i + 2).is_some_and(|e| *e != b']')
                        {
                            let end = fmt[i + 2];
                            for x in c..=end.max(c) {
                                set[x as usize] = true;
                            }
                            i += 3;
                        } else {
                            set[c as usize] = true;
                            i += 1;
                        }
                        first = false;
                    }
                    i += 1; // the closing `]`
                    if *pos >= input.len() {
                        return Ok(eof_result(converted_any, assigned));
                    }
                    let start = *pos;
                    while *pos < input.len()
                        && set[input[*pos] as usize] != negate
                        && *pos - start < width
                    {
                        *pos += 1;
                    }
                    if *pos == start {
                        return Ok(assigned);
                    }
                    converted_any = true;
                    if !suppress {
                        let mut bytes = input[start..*pos].to_vec();
                        bytes.push(0);
                        let ptr = self.next_vararg(args)?.as_u64();
                        self.mem.write(ptr, &bytes)?;
                        assigned += 1;
                    }
                }
                b'n' => {
                    if !suppress {
                        let ptr = self.next_vararg(args)?.as_u64();
                        self.mem
                            .write_uint(ptr, int_size, (*pos - start_pos) as u128)?;
                    }
                }
                _ => return Ok(assigned),
            }
        }
        Ok(assigned)
    }
}
