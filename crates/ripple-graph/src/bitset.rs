//! Dense bit sets and bit matrices over `0..n`, for relations between functions or
//! components (SEA, call closure) where a row is a set and union is word-wise OR, and
//! for the bit-vector domains of the dataflow analyses.
//!
//! Known limits: the size is fixed at construction; rows of a [`BitMatrix`] are all of
//! the same width, so an `n` by `n` matrix costs `n * n / 8` bytes (about 1 MB for
//! 3,000 rows).

/// A fixed-size set of indices `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    /// The empty set over `0..len`.
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// The universe size (not the number of members; see [`BitSet::count`]).
    pub fn capacity(&self) -> usize {
        self.len
    }

    /// Adds `index`; returns whether it was absent.
    pub fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let absent = self.words[word] & bit == 0;
        self.words[word] |= bit;
        absent
    }

    pub fn remove(&mut self, index: usize) {
        self.words[index / 64] &= !(1u64 << (index % 64));
    }

    pub fn contains(&self, index: usize) -> bool {
        index < self.len && self.words[index / 64] & (1u64 << (index % 64)) != 0
    }

    /// `self |= other`; returns whether `self` grew.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        union_words(&mut self.words, &other.words)
    }

    /// `self |= words` (the words of a set or matrix row of the same width).
    pub fn union_with_words(&mut self, words: &[u64]) -> bool {
        union_words(&mut self.words, words)
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// `self -= other`.
    pub fn subtract(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !*b;
        }
    }

    /// Keeps only the elements of `other`; returns whether `self` shrank.
    pub fn intersect_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let next = *a & *b;
            changed |= next != *a;
            *a = next;
        }
        changed
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The number of members.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        iter_words(&self.words)
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// A `rows` by `cols` matrix of bits: row `r` is a set over `0..cols`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitMatrix {
    words: Vec<u64>,
    rows: usize,
    cols: usize,
    stride: usize,
}

impl BitMatrix {
    pub fn new(rows: usize, cols: usize) -> BitMatrix {
        let stride = cols.div_ceil(64);
        BitMatrix {
            words: vec![0; rows * stride],
            rows,
            cols,
            stride,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn insert(&mut self, row: usize, col: usize) -> bool {
        let word = &mut self.words[row * self.stride + col / 64];
        let bit = 1u64 << (col % 64);
        let absent = *word & bit == 0;
        *word |= bit;
        absent
    }

    pub fn contains(&self, row: usize, col: usize) -> bool {
        col < self.cols && self.words[row * self.stride + col / 64] & (1u64 << (col % 64)) != 0
    }

    /// The words of one row.
    pub fn row(&self, row: usize) -> &[u64] {
        &self.words[row * self.stride..(row + 1) * self.stride]
    }

    /// Row `row` as a [`BitSet`].
    pub fn row_set(&self, row: usize) -> BitSet {
        BitSet {
            words: self.row(row).to_vec(),
            len: self.cols,
        }
    }

    /// Row `row` |= `set` (a set over `0..cols`); returns whether the row grew.
    pub fn union_row_with(&mut self, row: usize, set: &BitSet) -> bool {
        let stride = self.stride;
        union_words(
            &mut self.words[row * stride..(row + 1) * stride],
            &set.words,
        )
    }

    /// Row `dst` |= row `src`.
    pub fn union_rows(&mut self, dst: usize, src: usize) -> bool {
        if dst == src {
            return false;
        }
        let stride = self.stride;
        let (dst_slice, src_slice) = if dst < src {
            let (low, high) = self.words.split_at_mut(src * stride);
            (&mut low[dst * stride..(dst + 1) * stride], &high[..stride])
        } else {
            let (low, high) = self.words.split_at_mut(dst * stride);
            (&mut high[..stride], &low[src * stride..(src + 1) * stride])
        };
        union_words(dst_slice, src_slice)
    }

    /// Members of row `row`, in increasing order.
    pub fn iter_row(&self, row: usize) -> impl Iterator<Item = usize> + '_ {
        iter_words(self.row(row))
    }

    pub fn count_row(&self, row: usize) -> usize {
        self.row(row).iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The transposed matrix.
    pub fn transpose(&self) -> BitMatrix {
        let mut out = BitMatrix::new(self.cols, self.rows);
        for row in 0..self.rows {
            for col in self.iter_row(row) {
                out.insert(col, row);
            }
        }
        out
    }
}

fn union_words(dst: &mut [u64], src: &[u64]) -> bool {
    let mut changed = 0u64;
    for (d, s) in dst.iter_mut().zip(src) {
        changed |= *s & !*d;
        *d |= *s;
    }
    changed != 0
}

fn iter_words(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(i, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(i * 64 + bit)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = BitSet::new(130);
        assert!(a.insert(0));
        assert!(a.insert(129));
        assert!(!a.insert(129));
        let mut b = BitSet::new(130);
        b.insert(64);
        assert!(a.union_with(&b));
        assert!(!a.union_with(&b));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert_eq!(a.count(), 3);
        a.remove(64);
        assert!(!a.contains(64));
    }

    #[test]
    fn matrix_rows_and_transpose() {
        let mut m = BitMatrix::new(3, 70);
        m.insert(0, 69);
        m.insert(2, 1);
        assert!(m.union_rows(1, 0));
        assert!(m.union_rows(0, 2));
        assert_eq!(m.iter_row(0).collect::<Vec<_>>(), vec![1, 69]);
        assert_eq!(m.iter_row(1).collect::<Vec<_>>(), vec![69]);
        let t = m.transpose();
        assert_eq!(t.iter_row(69).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(t.iter_row(1).collect::<Vec<_>>(), vec![0, 2]);
    }
}
