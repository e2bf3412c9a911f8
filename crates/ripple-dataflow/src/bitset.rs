//! The bit set of the bit-vector analyses: the one the graph algorithms use.

pub use ripple_graph::BitSet;

#[cfg(test)]
mod tests {
    use super::BitSet;

    #[test]
    fn insert_union_subtract_iterate() {
        let mut a = BitSet::new(130);
        assert!(a.insert(3));
        assert!(!a.insert(3));
        a.insert(129);
        let mut b = BitSet::new(130);
        b.insert(64);
        assert!(a.union_with(&b));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 64, 129]);
        a.subtract(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 129]);
        assert_eq!(a.count(), 2);
        assert!(!a.contains(64));
    }
}
