//! Literals: integer constants typed by value and suffix (C11 6.4.4.1), floating
//! constants (decimal and hexadecimal), character constants and string literals with
//! every escape sequence.

use ripple_ir::IntKind;

/// A parsed number literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    Int(u128, IntKind),
    Float(f64, FloatSuffix),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FloatSuffix {
    None,
    F,
    L,
}

/// Parses a C number literal; `None` when it is malformed.
pub(crate) fn parse_number(text: &str) -> Option<Number> {
    let text = text.trim();
    // The grammar lets a sign into the literal in some positions (`(T)-1`).
    if let Some(rest) = text.strip_prefix('-') {
        return match parse_number(rest)? {
            Number::Int(v, kind) => {
                let bits = kind.bits();
                let mask = if bits >= 128 {
                    u128::MAX
                } else {
                    (1u128 << bits) - 1
                };
                Some(Number::Int(v.wrapping_neg() & mask, kind))
            }
            Number::Float(f, suffix) => Some(Number::Float(-f, suffix)),
        };
    }
    if let Some(rest) = text.strip_prefix('+') {
        return parse_number(rest);
    }
    let lower_prefix = text.get(..2).map(str::to_ascii_lowercase);
    let is_hex = lower_prefix.as_deref() == Some("0x");
    let is_bin = lower_prefix.as_deref() == Some("0b");
    let is_float = if is_hex {
        text.contains(['p', 'P'])
    } else if is_bin {
        false
    } else {
        text.contains(['.', 'e', 'E'])
    };
    if is_float {
        return parse_float(text, is_hex);
    }
    // Integer: split digits and suffix.
    let (digits, radix) = if is_hex || is_bin {
        (&text[2..], if is_hex { 16 } else { 2 })
    } else if text.len() > 1 && text.starts_with('0') {
        (&text[1..], 8)
    } else {
        (text, 10)
    };
    let end = digits
        .find(|c: char| !(c.is_digit(radix) || c == '\''))
        .unwrap_or(digits.len());
    let (num, suffix) = digits.split_at(end);
    let mut value: u128 = 0;
    for c in num.chars() {
        if c == '\'' {
            continue;
        }
        let d = c.to_digit(radix)?;
        value = value
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(d))?;
    }
    let suffix = suffix.to_ascii_lowercase();
    let (unsigned, longs) = match suffix.as_str() {
        "" => (false, 0),
        "u" => (true, 0),
        "l" => (false, 1),
        "ul" | "lu" => (true, 1),
        "ll" => (false, 2),
        "ull" | "llu" => (true, 2),
        _ => return None,
    };
    let decimal = radix == 10;
    // The first type of the list in C11 6.4.4.1 that can represent the value.
    let candidates: &[IntKind] = match (unsigned, longs, decimal) {
        (false, 0, true) => &[IntKind::Int, IntKind::Long, IntKind::LongLong],
        (false, 0, false) => &[
            IntKind::Int,
            IntKind::UInt,
            IntKind::Long,
            IntKind::ULong,
            IntKind::LongLong,
            IntKind::ULongLong,
        ],
        (true, 0, _) => &[IntKind::UInt, IntKind::ULong, IntKind::ULongLong],
        (false, 1, true) => &[IntKind::Long, IntKind::LongLong],
        (false, 1, false) => &[
            IntKind::Long,
            IntKind::ULong,
            IntKind::LongLong,
            IntKind::ULongLong,
        ],
        (true, 1, _) => &[IntKind::ULong, IntKind::ULongLong],
        (false, _, true) => &[IntKind::LongLong],
        (false, _, false) => &[IntKind::LongLong, IntKind::ULongLong],
        (true, _, _) => &[IntKind::ULongLong],
    };
    for &kind in candidates {
        let max: u128 = if kind.is_signed() {
            (1u128 << (kind.bits() - 1)) - 1
        } else {
            (1u128 << kind.bits()) - 1
        };
        if value <= max {
            return Some(Number::Int(value, kind));
        }
    }
    // Too large for any standard type: GCC uses `__int128`/unsigned long long.
    let kind = if decimal && !unsigned {
        IntKind::Int128
    } else {
        IntKind::ULongLong
    };
    Some(Number::Int(value & u128::from(u64::MAX), kind))
}

fn parse_float(text: &str, is_hex: bool) -> Option<Number> {
    let mut body = text;
    let mut suffix = FloatSuffix::None;
    // Strip the suffix (f, l, f16/f32/f64/f128 extensions).
    'strip: {
        let lower = body.to_ascii_lowercase();
        if lower.ends_with("f128")
            || lower.ends_with("f64")
            || lower.ends_with("f32")
            || lower.ends_with("f16")
        {
            let cut = lower.rfind('f').unwrap_or(body.len());
            suffix = match &lower[cut..] {
                "f128" => FloatSuffix::L,
                "f32" | "f16" => FloatSuffix::F,
                _ => FloatSuffix::None,
            };
            body = &body[..cut];
            break 'strip;
        }
        match lower.chars().last() {
            Some('f') if !is_hex => {
                suffix = FloatSuffix::F;
                body = &body[..body.len() - 1];
            }
            Some('f') if is_hex && lower.contains('p') => {
                suffix = FloatSuffix::F;
                body = &body[..body.len() - 1];
            }
            Some('l') => {
                suffix = FloatSuffix::L;
                body = &body[..body.len() - 1];
            }
            _ => {}
        }
    }
    let body: String = body.chars().filter(|&c| c != '\'').collect();
    let value = if is_hex {
        parse_hex_float(&body, suffix == FloatSuffix::F)?
    } else if suffix == FloatSuffix::F {
        f64::from(body.parse::<f32>().ok()?)
    } else {
        body.parse::<f64>().ok()?
    };
    Some(Number::Float(value, suffix))
}

/// `0x1.8p3`: hexadecimal mantissa, binary exponent; rounded once to the target.
fn parse_hex_float(text: &str, single: bool) -> Option<f64> {
    let rest = &text[2..];
    let (mantissa, exp) = match rest.find(['p', 'P']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    // Accumulate up to 120 bits of mantissa exactly, then scale.
    let mut m: u128 = 0;
    let mut e = exp;
    let mut sticky = false;
    for c in int_part.chars() {
        let d = c.to_digit(16)?;
        if m >> 120 == 0 {
            m = (m << 4) | u128::from(d);
        } else {
            e += 4;
            sticky |= d != 0;
        }
    }
    for c in frac_part.chars() {
        let d = c.to_digit(16)?;
        if m >> 120 == 0 {
            m = (m << 4) | u128::from(d);
            e -= 4;
        } else {
            sticky |= d != 0;
        }
    }
    if m == 0 {
        return Some(0.0);
    }
    let bits = if single { 24 } else { 53 };
    // Normalize so that m has exactly `bits` significant bits, rounding to nearest even.
    let lead = 128 - m.leading_zeros() as i32;
    if lead > bits {
        let shift = lead - bits;
        let half = 1u128 << (shift - 1);
        let rem = m & ((1u128 << shift) - 1);
        m >>= shift;
        e += shift;
        if rem > half || (rem == half && (sticky || m & 1 == 1)) {
            m += 1;
        }
    }
    let value = (m as f64) * 2f64.powi(e);
    Some(if single {
        f64::from(value as f32)
    } else {
        value
    })
}

/// Decodes the escapes of a character or string body into code units. `unit_max` bounds
/// numeric escapes (255 for narrow strings).
pub(crate) fn decode_escapes(body: &str, wide: bool, out: &mut Vec<u32>) {
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' {
            if wide {
                // A wide literal holds code points.
                let ch = body[i..].chars().next().unwrap_or('\0');
                out.push(ch as u32);
                i += ch.len_utf8().max(1);
            } else {
                out.push(u32::from(b));
                i += 1;
            }
            continue;
        }
        i += 1;
        let Some(&c) = bytes.get(i) else {
            out.push(u32::from(b'\\'));
            break;
        };
        i += 1;
        let simple = match c {
            b'n' => Some(10),
            b't' => Some(9),
            b'r' => Some(13),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'e' | b'E' => Some(27),
            b'\\' | b'\'' | b'"' | b'?' => Some(u32::from(c)),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            continue;
        }
        match c {
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(if wide { v } else { v & 0xff });
            }
            b'x' => {
                let mut v: u32 = 0;
                while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v
                        .wrapping_mul(16)
                        .wrapping_add((bytes[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                }
                out.push(if wide { v } else { v & 0xff });
            }
            b'u' | b'U' => {
                let n = if c == b'u' { 4 } else { 8 };
                let end = (i + n).min(bytes.len());
                let v = u32::from_str_radix(body.get(i..end).unwrap_or("0"), 16).unwrap_or(0);
                i = end;
                if wide {
                    out.push(v);
                } else {
                    let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    for &byte in ch.encode_utf8(&mut buf).as_bytes() {
                        out.push(u32::from(byte));
                    }
                }
            }
            other => out.push(u32::from(other)),
        }
    }
}

/// The kind of a string or character literal's prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CharWidth {
    /// `"..."`, `u8"..."`: bytes.
    Narrow,
    /// `L"..."`: `int` units.
    Wide,
    /// `u"..."`: `unsigned short` units.
    Utf16,
    /// `U"..."`: `unsigned int` units.
    Utf32,
}

/// Splits a literal's text into its prefix kind and the body between the quotes.
pub(crate) fn split_literal(text: &str, quote: char) -> (CharWidth, &str) {
    let Some(open) = text.find(quote) else {
        return (CharWidth::Narrow, "");
    };
    let width = match &text[..open] {
        "L" => CharWidth::Wide,
        "u" => CharWidth::Utf16,
        "U" => CharWidth::Utf32,
        _ => CharWidth::Narrow,
    };
    let body = &text[open + 1..];
    let body = body.strip_suffix(quote).unwrap_or(body);
    (width, body)
}

/// The value of a character constant, as GCC computes it (plain constants have type
/// `int` with the value of a `char`; multi-character constants pack bytes big-endian).
pub(crate) fn char_value(text: &str) -> (i64, CharWidth) {
    let (width, body) = split_literal(text, '\'');
    let mut units = Vec::new();
    decode_escapes(body, width != CharWidth::Narrow, &mut units);
    match width {
        CharWidth::Narrow => {
            if units.len() <= 1 {
                let v = units.first().copied().unwrap_or(0);
                (i64::from(v as u8 as i8), width)
            } else {
                let mut v: u32 = 0;
                for u in units {
                    v = (v << 8) | (u & 0xff);
                }
                (i64::from(v as i32), width)
            }
        }
        CharWidth::Wide => (i64::from(units.last().copied().unwrap_or(0) as i32), width),
        CharWidth::Utf16 => (
            i64::from(units.last().copied().unwrap_or(0) & 0xffff),
            width,
        ),
        CharWidth::Utf32 => (i64::from(units.last().copied().unwrap_or(0)), width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals_are_typed_by_value_and_suffix() {
        assert_eq!(parse_number("42"), Some(Number::Int(42, IntKind::Int)));
        assert_eq!(
            parse_number("2147483648"),
            Some(Number::Int(2_147_483_648, IntKind::Long))
        );
        assert_eq!(
            parse_number("0x80000000"),
            Some(Number::Int(0x8000_0000, IntKind::UInt))
        );
        assert_eq!(parse_number("010"), Some(Number::Int(8, IntKind::Int)));
        assert_eq!(
            parse_number("1ULL"),
            Some(Number::Int(1, IntKind::ULongLong))
        );
        assert_eq!(
            parse_number("0xffffffffffffffff"),
            Some(Number::Int(u128::from(u64::MAX), IntKind::ULong))
        );
        assert_eq!(parse_number("5u"), Some(Number::Int(5, IntKind::UInt)));
    }

    #[test]
    fn float_literals_including_hex() {
        assert_eq!(
            parse_number("1.5"),
            Some(Number::Float(1.5, FloatSuffix::None))
        );
        assert_eq!(
            parse_number("0x1.8p3"),
            Some(Number::Float(12.0, FloatSuffix::None))
        );
        assert_eq!(
            parse_number("1e3f"),
            Some(Number::Float(1000.0, FloatSuffix::F))
        );
        assert_eq!(
            parse_number("0.1f"),
            Some(Number::Float(f64::from(0.1f32), FloatSuffix::F))
        );
        assert_eq!(
            parse_number("2.0L"),
            Some(Number::Float(2.0, FloatSuffix::L))
        );
    }

    #[test]
    fn char_escapes() {
        assert_eq!(char_value("'a'").0, 97);
        assert_eq!(char_value("'\\n'").0, 10);
        assert_eq!(char_value("'\\xff'").0, -1);
        assert_eq!(char_value("'\\101'").0, 65);
        assert_eq!(char_value("'\\0'").0, 0);
        assert_eq!(char_value("'ab'").0, 0x6162);
    }
}
