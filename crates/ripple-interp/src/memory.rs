//! Byte-addressed memory: one bounds-checked block per object.
//!
//! A pointer is `block << 32 | offset`. Block 0 is never allocated, so the null pointer
//! and small integers cast to pointers are invalid addresses. Every object gets its own
//! block: each function (not readable; calls through a pointer decode the block), each
//! global and string literal, each memory local of each call (fresh per call, so
//! recursion works), each `malloc` and each `alloca`. Freed blocks stay in the table,
//! marked dead, so a later access reports a use after free instead of reading another
//! object. Frame blocks are recycled once freed (the table would otherwise grow with the
//! number of calls); heap blocks never are.

use ripple_ir::{FuncId, GlobalId};

/// What a block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Function(FuncId),
    Global(GlobalId),
    /// A memory local of a call (or an `alloca`): freed when the call returns.
    Stack,
    Heap,
    /// Memory the interpreter itself provides (argv strings, ctype tables, `FILE`s).
    Runtime,
}

#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub(crate) data: Vec<u8>,
    pub(crate) kind: BlockKind,
    pub(crate) live: bool,
    pub(crate) read_only: bool,
}

/// A memory access error, turned into a trap by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MemError {
    Null,
    Invalid(u64),
    Freed(u64),
    OutOfBounds {
        address: u64,
        size: u64,
        block_size: u64,
    },
    ReadOnly(u64),
    NotData(u64),
}

impl MemError {
    pub(crate) fn message(&self) -> String {
        match self {
            MemError::Null => "null pointer dereference".to_string(),
            MemError::Invalid(a) => format!("access through an invalid pointer {a:#x}"),
            MemError::Freed(a) => format!("use of freed or out-of-scope memory at {a:#x}"),
            MemError::OutOfBounds {
                address,
                size,
                block_size,
            } => format!(
                "out-of-bounds access of {size} bytes at offset {} of a {block_size}-byte object",
                address & 0xffff_ffff
            ),
            MemError::ReadOnly(a) => format!("write to read-only memory at {a:#x}"),
            MemError::NotData(a) => format!("data access to a function address {a:#x}"),
        }
    }
}

pub(crate) fn block_of(ptr: u64) -> u32 {
    (ptr >> 32) as u32
}

pub(crate) fn offset_of(ptr: u64) -> u32 {
    ptr as u32
}

pub(crate) fn make_ptr(block: u32, offset: u32) -> u64 {
    (u64::from(block) << 32) | u64::from(offset)
}

/// Where a block was allocated: the node executing then, and how many blocks that
/// node had allocated before in the run (`None` for the blocks of globals and of the
/// run's arguments).
pub type BlockOrigin = Option<(FuncId, ripple_ir::NodeId, u32)>;

/// All blocks of one run.
#[derive(Clone, Debug)]
pub struct Memory {
    pub(crate) blocks: Vec<Block>,
    free_stack_blocks: Vec<u32>,
    /// Whether [`Memory::origins`] is kept (observed runs).
    pub(crate) track_origins: bool,
    /// The node executing (set by the interpreter when origins are kept).
    pub(crate) site: Option<(FuncId, ripple_ir::NodeId)>,
    /// By block id: where it was last allocated.
    pub(crate) origins: Vec<BlockOrigin>,
    site_counts: rustc_hash::FxHashMap<(FuncId, ripple_ir::NodeId), u32>,
    /// Bytes in live blocks.
    pub(crate) live_bytes: u64,
    pub(crate) max_bytes: u64,
    /// While above 0 (an observed call of the C library model or of a memory intrinsic
    /// runs), every access is logged: address, size, whether it writes, and the bytes
    /// read (a write's bytes are taken when the log ends).
    pub(crate) log_depth: u32,
    pub(crate) log: std::cell::RefCell<Vec<crate::LibraryAccess>>,
}

impl Memory {
    pub(crate) fn new(max_bytes: u64) -> Memory {
        Memory {
            blocks: vec![Block {
                data: Vec::new(),
                kind: BlockKind::Runtime,
                live: false,
                read_only: true,
            }],
            free_stack_blocks: Vec::new(),
            track_origins: false,
            site: None,
            origins: Vec::new(),
            site_counts: Default::default(),
            live_bytes: 0,
            max_bytes,
            log_depth: 0,
            log: Default::default(),
        }
    }

    /// Allocates a zeroed block; `None` past the memory limit or the block count limit.
    pub(crate) fn alloc(&mut self, size: u64, kind: BlockKind) -> Option<u32> {
        if size > u64::from(u32::MAX) || self.live_bytes.saturating_add(size) > self.max_bytes {
            return None;
        }
        self.live_bytes += size;
        let size = size as usize;
        if kind == BlockKind::Stack {
            if let Some(id) = self.free_stack_blocks.pop() {
                let block = &mut self.blocks[id as usize];
                block.data.clear();
                block.data.resize(size, 0);
                block.live = true;
                self.note_origin(id);
                return Some(id);
            }
        }
        let id = u32::try_from(self.blocks.len()).ok()?;
        if id == u32::MAX {
            return None;
        }
        self.blocks.push(Block {
            data: vec![0; size],
            kind,
            live: true,
            read_only: false,
        });
        self.note_origin(id);
        Some(id)
    }

    /// What a copy of the memory costs, in steps: one per block and per 64 bytes.
    pub(crate) fn clone_cost(&self) -> u64 {
        let bytes: usize = self.blocks.iter().map(|b| b.data.len()).sum();
        (self.blocks.len() + bytes / 64) as u64
    }

    /// Adds `n` blocks no pointer may access (as if freed): kept free around an object,
    /// pointer arithmetic past it by up to `n` blocks' span reaches no other object.
    pub(crate) fn dead_blocks(&mut self, n: u32) {
        for _ in 0..n {
            self.blocks.push(Block {
                data: Vec::new(),
                kind: BlockKind::Heap,
                live: false,
                read_only: false,
            });
        }
    }

    fn note_origin(&mut self, id: u32) {
        if !self.track_origins {
            return;
        }
        let origin = self.site.map(|site| {
            let count = self.site_counts.entry(site).or_insert(0);
            *count += 1;
            (site.0, site.1, *count - 1)
        });
        let id = id as usize;
        if self.origins.len() <= id {
            self.origins.resize(id + 1, None);
        }
        self.origins[id] = origin;
    }

    /// Counts `size` more bytes held outside blocks (the run's files) against the limit;
    /// `false` (and nothing counted) past it.
    pub(crate) fn reserve(&mut self, size: u64) -> bool {
        if self.live_bytes.saturating_add(size) > self.max_bytes {
            return false;
        }
        self.live_bytes += size;
        true
    }

    /// Gives back bytes counted by [`Memory::reserve`].
    pub(crate) fn release(&mut self, size: u64) {
        self.live_bytes = self.live_bytes.saturating_sub(size);
    }

    /// Frees a block (of any kind; the caller checks what may be freed).
    pub(crate) fn free(&mut self, id: u32) {
        let Some(block) = self.blocks.get_mut(id as usize) else {
            return;
        };
        if !block.live {
            return;
        }
        block.live = false;
        self.live_bytes -= block.data.len() as u64;
        block.data = Vec::new();
        if block.kind == BlockKind::Stack {
            self.free_stack_blocks.push(id);
        }
    }

    pub(crate) fn block(&self, id: u32) -> Option<&Block> {
        self.blocks.get(id as usize)
    }

    pub(crate) fn block_mut(&mut self, id: u32) -> Option<&mut Block> {
        self.blocks.get_mut(id as usize)
    }

    fn check(&self, ptr: u64, size: u64) -> Result<(usize, usize), MemError> {
        let id = block_of(ptr);
        if id == 0 {
            return Err(if ptr == 0 {
                MemError::Null
            } else {
                MemError::Invalid(ptr)
            });
        }
        let Some(block) = self.blocks.get(id as usize) else {
            return Err(MemError::Invalid(ptr));
        };
        if let BlockKind::Function(_) = block.kind {
            return Err(MemError::NotData(ptr));
        }
        if !block.live {
            return Err(MemError::Freed(ptr));
        }
        let offset = u64::from(offset_of(ptr));
        if offset.saturating_add(size) > block.data.len() as u64 {
            return Err(MemError::OutOfBounds {
                address: ptr,
                size,
                block_size: block.data.len() as u64,
            });
        }
        Ok((id as usize, offset as usize))
    }

    /// The `size` bytes at `ptr`.
    pub(crate) fn slice(&self, ptr: u64, size: u64) -> Result<&[u8], MemError> {
        let (id, offset) = self.check(ptr, size)?;
        let bytes = &self.blocks[id].data[offset..offset + size as usize];
        self.note(ptr, size, Some(bytes));
        Ok(bytes)
    }

    /// The `size` bytes at `ptr`, writable.
    pub(crate) fn slice_mut(&mut self, ptr: u64, size: u64) -> Result<&mut [u8], MemError> {
        let (id, offset) = self.check(ptr, size)?;
        if self.blocks[id].read_only {
            return Err(MemError::ReadOnly(ptr));
        }
        self.note(ptr, size, None);
        Ok(&mut self.blocks[id].data[offset..offset + size as usize])
    }

    pub(crate) fn write(&mut self, ptr: u64, bytes: &[u8]) -> Result<(), MemError> {
        self.slice_mut(ptr, bytes.len() as u64)?
            .copy_from_slice(bytes);
        Ok(())
    }

    /// Reads a little-endian integer of `size` bytes (at most 16).
    pub(crate) fn read_uint(&self, ptr: u64, size: u64) -> Result<u128, MemError> {
        let bytes = self.slice(ptr, size)?;
        let mut buf = [0u8; 16];
        buf[..bytes.len()].copy_from_slice(bytes);
        Ok(u128::from_le_bytes(buf))
    }

    /// Writes the low `size` bytes (at most 16) of `value`, little-endian.
    pub(crate) fn write_uint(&mut self, ptr: u64, size: u64, value: u128) -> Result<(), MemError> {
        let bytes = value.to_le_bytes();
        self.write(ptr, &bytes[..size.min(16) as usize])
    }

    /// Copies `size` bytes from `src` to `dst` (overlap allowed).
    pub(crate) fn copy(&mut self, dst: u64, src: u64, size: u64) -> Result<(), MemError> {
        if size == 0 {
            return Ok(());
        }
        let (src_id, src_off) = self.check(src, size)?;
        let (dst_id, dst_off) = self.check(dst, size)?;
        if self.blocks[dst_id].read_only {
            return Err(MemError::ReadOnly(dst));
        }
        let size = size as usize;
        self.note(
            src,
            size as u64,
            Some(&self.blocks[src_id].data[src_off..src_off + size]),
        );
        self.note(dst, size as u64, None);
        if src_id == dst_id {
            self.blocks[dst_id]
                .data
                .copy_within(src_off..src_off + size, dst_off);
        } else {
            let (a, b) = if src_id < dst_id {
                let (lo, hi) = self.blocks.split_at_mut(dst_id);
                (&lo[src_id], &mut hi[0])
            } else {
                let (lo, hi) = self.blocks.split_at_mut(src_id);
                (&hi[0], &mut lo[dst_id])
            };
            b.data[dst_off..dst_off + size].copy_from_slice(&a.data[src_off..src_off + size]);
        }
        Ok(())
    }

    /// The length of the NUL-terminated string at `ptr` (an error when the string runs
    /// past the end of its block).
    pub(crate) fn strlen(&self, ptr: u64) -> Result<u64, MemError> {
        let (id, offset) = self.check(ptr, 0)?;
        let data = &self.blocks[id].data;
        match data[offset..].iter().position(|b| *b == 0) {
            Some(len) => {
                self.note(ptr, len as u64 + 1, Some(&data[offset..offset + len + 1]));
                Ok(len as u64)
            }
            None => Err(MemError::OutOfBounds {
                address: ptr,
                size: (data.len() - offset + 1) as u64,
                block_size: data.len() as u64,
            }),
        }
    }

    /// The bytes of the NUL-terminated string at `ptr`, without the NUL.
    pub(crate) fn c_string(&self, ptr: u64) -> Result<&[u8], MemError> {
        let len = self.strlen(ptr)?;
        self.slice(ptr, len)
    }

    /// The bytes from `ptr` to the end of its block (for functions that scan a bounded
    /// prefix, like `strtol`).
    pub(crate) fn rest_of_block(&self, ptr: u64) -> Result<&[u8], MemError> {
        let (id, offset) = self.check(ptr, 0)?;
        let rest = &self.blocks[id].data[offset..];
        // Logged up to the string's end: what such a scan can read.
        let read = rest
            .iter()
            .position(|b| *b == 0)
            .map_or(rest.len(), |n| n + 1);
        self.note(ptr, read as u64, Some(&rest[..read]));
        Ok(rest)
    }

    /// Logs an access while logging is on: a read with the bytes read, a write (`None`)
    /// with its size (its bytes are taken when the log ends).
    fn note(&self, address: u64, size: u64, read: Option<&[u8]>) {
        if self.log_depth > 0 && size > 0 {
            self.log.borrow_mut().push(crate::LibraryAccess {
                address,
                size,
                write: read.is_none(),
                bytes: read.map(<[u8]>::to_vec).unwrap_or_default(),
            });
        }
    }

    /// Starts logging accesses (nested calls log into the outer one's log too); returns
    /// the mark to give [`Memory::end_log`].
    pub(crate) fn start_log(&mut self) -> usize {
        self.log_depth += 1;
        self.log.borrow().len()
    }

    /// The accesses logged since `mark`, each write with the bytes it left.
    pub(crate) fn end_log(&mut self, mark: usize) -> Vec<crate::LibraryAccess> {
        self.log_depth = self.log_depth.saturating_sub(1);
        let mut logged: Vec<crate::LibraryAccess> =
            self.log.borrow().get(mark..).unwrap_or(&[]).to_vec();
        if self.log_depth == 0 {
            self.log.borrow_mut().clear();
        }
        for access in logged.iter_mut().filter(|a| a.write) {
            // A block freed since (by `realloc`, say) left nothing to read.
            access.bytes = match self.check(access.address, access.size) {
                Ok((id, off)) => self.blocks[id].data[off..off + access.size as usize].to_vec(),
                Err(_) => Vec::new(),
            };
        }
        logged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_lifetime_are_checked() {
        let mut mem = Memory::new(1 << 20);
        let b = mem.alloc(4, BlockKind::Heap).unwrap();
        let p = make_ptr(b, 0);
        mem.write_uint(p, 4, 0x1234_5678).unwrap();
        assert_eq!(mem.read_uint(p, 4).unwrap(), 0x1234_5678);
        assert_eq!(mem.read_uint(p + 2, 2).unwrap(), 0x1234);
        assert!(matches!(
            mem.read_uint(p + 1, 4),
            Err(MemError::OutOfBounds { .. })
        ));
        assert_eq!(mem.read_uint(0, 4), Err(MemError::Null));
        mem.free(b);
        assert_eq!(mem.read_uint(p, 4), Err(MemError::Freed(p)));
    }
}
