//! Source locations.

use crate::FileId;

/// A range of original source text, 1-based lines and columns (columns in bytes).
///
/// After preprocessing, spans point into the original files through the line markers,
/// never into the preprocessed text. Nodes that the lowering invents (the entry and exit
/// of a function, the increment of a desugared loop) carry the span of the construct that
/// produced them; [`Span::SYNTHETIC`] is only for nodes with no source at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub file: FileId,
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    /// Whether `inner` lies within the lines of this span, in the same file.
    pub fn holds_lines(&self, inner: &Span) -> bool {
        self.file == inner.file
            && self.start_line <= inner.start_line
            && inner.end_line <= self.end_line
    }

    /// The span of something with no source text.
    pub const SYNTHETIC: Span = Span {
        file: FileId(u32::MAX),
        start_line: 0,
        start_col: 0,
        end_line: 0,
        end_col: 0,
    };

    pub fn new(file: FileId, start_line: u32, start_col: u32, end_line: u32, end_col: u32) -> Self {
        Span {
            file,
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }

    pub fn is_synthetic(&self) -> bool {
        self.file.0 == u32::MAX
    }

    /// The lines this span covers, inclusive.
    pub fn lines(&self) -> std::ops::RangeInclusive<u32> {
        self.start_line..=self.end_line
    }

    /// The smallest span covering both, when both lie in the same file.
    pub fn cover(self, other: Span) -> Span {
        if self.is_synthetic() || self.file != other.file {
            return if self.is_synthetic() { other } else { self };
        }
        let start = (self.start_line, self.start_col).min((other.start_line, other.start_col));
        let end = (self.end_line, self.end_col).max((other.end_line, other.end_col));
        Span::new(self.file, start.0, start.1, end.0, end.1)
    }
}
