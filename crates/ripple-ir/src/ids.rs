//! Dense newtype indices and the vector they index.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

macro_rules! define_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing plain slices and bitsets.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl From<usize> for $name {
            fn from(index: usize) -> Self {
                Self(u32::try_from(index).expect("index fits in u32"))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

define_id!(
    /// A function of a [`crate::Program`].
    FuncId,
    "f"
);
define_id!(
    /// A CFG node, local to its function.
    NodeId,
    "n"
);
define_id!(
    /// A local variable (parameter, declared local or temporary), local to its function.
    VarId,
    "v"
);
define_id!(
    /// A global object: a C global, a file-scoped static or a string literal.
    GlobalId,
    "g"
);
define_id!(
    /// An interned type of the program's [`crate::TypeTable`].
    TypeId,
    "t"
);
define_id!(
    /// A source file of the program.
    FileId,
    "file"
);
define_id!(
    /// A node of a function's [`crate::SyntaxTree`].
    SynId,
    "s"
);

/// A vector indexed by a newtype id.
#[derive(Clone, PartialEq, Eq)]
pub struct IndexVec<I, T> {
    raw: Vec<T>,
    _marker: PhantomData<fn(I) -> I>,
}

impl<I, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.raw.fmt(f)
    }
}

impl<I, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self {
            raw: Vec::new(),
            _marker: PhantomData,
        }
    }
}

impl<I: From<usize> + Copy, T> IndexVec<I, T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            raw: Vec::with_capacity(capacity),
            _marker: PhantomData,
        }
    }

    /// Appends `value` and returns its id.
    pub fn push(&mut self, value: T) -> I {
        let id = I::from(self.raw.len());
        self.raw.push(value);
        id
    }

    /// The id the next [`IndexVec::push`] will return.
    pub fn next_id(&self) -> I {
        I::from(self.raw.len())
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// Ids and values, in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::from(i), t))
    }

    /// Ids and mutable values, in id order.
    pub fn iter_enumerated_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (I, &mut T)> + ExactSizeIterator {
        self.raw
            .iter_mut()
            .enumerate()
            .map(|(i, t)| (I::from(i), t))
    }

    /// All ids, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator {
        (0..self.raw.len()).map(I::from)
    }

    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }

    pub fn get(&self, id: I) -> Option<&T>
    where
        I: Into<usize>,
    {
        self.raw.get(id.into())
    }
}

impl<I, T> From<Vec<T>> for IndexVec<I, T> {
    fn from(raw: Vec<T>) -> Self {
        Self {
            raw,
            _marker: PhantomData,
        }
    }
}

impl<I, T> IntoIterator for IndexVec<I, T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.into_iter()
    }
}

impl<'a, I, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

macro_rules! impl_index {
    ($($id:ident),*) => {$(
        impl<T> Index<$id> for IndexVec<$id, T> {
            type Output = T;
            fn index(&self, id: $id) -> &T {
                &self.raw[id.index()]
            }
        }
        impl<T> IndexMut<$id> for IndexVec<$id, T> {
            fn index_mut(&mut self, id: $id) -> &mut T {
                &mut self.raw[id.index()]
            }
        }
        impl From<$id> for usize {
            fn from(id: $id) -> usize {
                id.index()
            }
        }
    )*};
}

impl_index!(FuncId, NodeId, VarId, GlobalId, TypeId, FileId, SynId);
