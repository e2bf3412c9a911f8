//! The integer bits of [`crate::ExprKind::Int`]: a value of a `bits`-wide type is kept
//! truncated to its width; signed types read it sign-extended.

/// `value` truncated to its low `bits` bits.
pub fn truncate(value: u128, bits: u32) -> u128 {
    if bits >= 128 {
        value
    } else {
        value & ((1u128 << bits) - 1)
    }
}

/// The low `bits` bits of `value`, sign-extended.
pub fn sign_extend(value: u128, bits: u32) -> i128 {
    if bits >= 128 || bits == 0 {
        value as i128
    } else {
        let shift = 128 - bits;
        ((value << shift) as i128) >> shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_and_sign_extension() {
        assert_eq!(truncate(0x1ff, 8), 0xff);
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(u128::MAX, 128), -1);
    }
}
