//! Fixed addresses of globals, functions and frames, shared by both versions.
//!
//! A global gets the same address in the old and the new program when its key is the
//! same (string literals: when their bytes are the same), so that pointers to it compare
//! equal across versions; except the globals asked to be kept apart (constants whose
//! contents differ: the facts of each version's bytes at one address would contradict
//! each other, and every query over them would hold vacuously). Frames of memory locals are per function key, in a region of
//! their own far from globals and from the addresses pointer arguments get in witnesses.

use std::collections::BTreeMap;

use ripple_ir::{FuncId, GlobalId, InitItem, Program, VarId};
use rustc_hash::FxHashMap;

/// First address of globals.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// First address of function "objects" (their addresses only).
pub const FUNCTION_BASE: u64 = 0x0800_0000;
/// First address of frames.
pub const FRAME_BASE: u64 = 0x7f00_0000_0000;
/// The span reserved for one function's frame.
pub const FRAME_SPAN: u64 = 0x10_0000;
/// Where witness search places the object a pointer argument points to.
pub const ARGUMENT_BASE: u64 = 0x5000_0000;
/// The span of one pointer argument's object in witnesses.
pub const ARGUMENT_SPAN: u64 = 0x1_0000;

/// A function's frame: its base address and the address of each memory local.
type Frame = (u64, FxHashMap<VarId, u64>);

/// Addresses for two program versions (index 0 old, 1 new).
#[derive(Clone, Debug, Default)]
pub struct Layout {
    globals: [FxHashMap<GlobalId, u64>; 2],
    /// The string literal (a global keyed `.str...`) at each address, per version.
    literals: [FxHashMap<u64, GlobalId>; 2],
    functions: [FxHashMap<FuncId, u64>; 2],
    frames: [FxHashMap<FuncId, Frame>; 2],
}

impl Layout {
    /// The layout of two versions, with the globals of `apart` (per version) at
    /// addresses of their own, and each new global of `same` (old, new) at its old
    /// partner's address whatever its key (a static of `old.c` and of `new.c`).
    pub fn new(
        programs: [&Program; 2],
        apart: [&[GlobalId]; 2],
        same: &[(GlobalId, GlobalId)],
    ) -> Layout {
        let mut layout = Layout::default();
        let partner: FxHashMap<GlobalId, GlobalId> = same.iter().map(|&(o, n)| (n, o)).collect();
        let identity = |side: usize, id: GlobalId| {
            let (side_of_name, id_of_name) = match partner.get(&id) {
                Some(&old) if side == 1 => (0, old),
                _ => (side, id),
            };
            let program = programs[side_of_name];
            let mut identity = global_identity(program, &program.globals[id_of_name]);
            if apart[side].contains(&id) {
                identity.push_str(if side == 0 { "@old" } else { "@new" });
            }
            identity
        };
        // Globals: one slot per identity (key, or bytes for literals), largest size wins.
        let mut slots: BTreeMap<String, u64> = BTreeMap::new();
        for (side, program) in programs.into_iter().enumerate() {
            for (id, global) in program.globals.iter_enumerated() {
                let size = program.types.size_of(global.ty).max(1);
                let slot = slots.entry(identity(side, id)).or_insert(0);
                *slot = (*slot).max(size);
            }
        }
        let mut address_of: BTreeMap<String, u64> = BTreeMap::new();
        let mut next = GLOBAL_BASE;
        for (identity, size) in slots {
            address_of.insert(identity, next);
            next += size.div_ceil(16) * 16 + 16;
        }
        let mut function_keys: BTreeMap<String, u64> = BTreeMap::new();
        for program in programs {
            for function in program.functions.iter() {
                function_keys.entry(function.key.clone()).or_insert(0);
            }
        }
        for (index, (_, address)) in function_keys.iter_mut().enumerate() {
            *address = FUNCTION_BASE + 16 * index as u64;
        }
        for (side, program) in programs.into_iter().enumerate() {
            for (id, global) in program.globals.iter_enumerated() {
                let address = address_of[&identity(side, id)];
                layout.globals[side].insert(id, address);
                if global.key.starts_with(".str") {
                    layout.literals[side].entry(address).or_insert(id);
                }
            }
            for (id, function) in program.functions.iter_enumerated() {
                let index = (function_keys[&function.key] - FUNCTION_BASE) / 16;
                layout.functions[side].insert(id, function_keys[&function.key]);
                let base = FRAME_BASE + FRAME_SPAN * index;
                let mut offset = 0u64;
                let mut locals = FxHashMap::default();
                for (var, local) in function.locals.iter_enumerated() {
                    if local.storage == ripple_ir::Storage::Memory {
                        let align = program.types.align_of(local.ty).clamp(1, 16);
                        offset = offset.div_ceil(align) * align;
                        locals.insert(var, base + offset);
                        offset += program.types.size_of(local.ty).max(1);
                    }
                }
                layout.frames[side].insert(id, (offset, locals));
            }
        }
        layout
    }

    pub fn global(&self, side: usize, global: GlobalId) -> u64 {
        self.globals[side]
            .get(&global)
            .copied()
            .unwrap_or(GLOBAL_BASE)
    }

    /// The string literal of version `side` at `address`, if one is there.
    pub fn literal_at(&self, side: usize, address: u64) -> Option<GlobalId> {
        self.literals[side].get(&address).copied()
    }

    pub fn function(&self, side: usize, function: FuncId) -> u64 {
        self.functions[side]
            .get(&function)
            .copied()
            .unwrap_or(FUNCTION_BASE)
    }

    /// The address of a memory local in its function's frame.
    pub fn local(&self, side: usize, function: FuncId, var: VarId) -> u64 {
        self.frames[side]
            .get(&function)
            .and_then(|(_, locals)| locals.get(&var).copied())
            .unwrap_or(FRAME_BASE)
    }

    /// The memory locals of a function: (address, size in bytes).
    pub fn frame(&self, side: usize, function: FuncId, program: &Program) -> Vec<(u64, u64)> {
        let Some((_, locals)) = self.frames[side].get(&function) else {
            return Vec::new();
        };
        let mut out: Vec<(u64, u64)> = locals
            .iter()
            .map(|(var, address)| {
                let ty = program.functions[function].locals[*var].ty;
                (*address, program.types.size_of(ty).max(1))
            })
            .collect();
        out.sort_unstable();
        out
    }
}

fn global_identity(program: &Program, global: &ripple_ir::Global) -> String {
    if global.key.starts_with(".str") {
        if let Some(init) = &global.init {
            let mut text = String::from("str:");
            for item in &init.items {
                if let InitItem::Bytes { offset, bytes } = item {
                    text.push_str(&format!("{offset}:{bytes:?};"));
                }
            }
            text.push_str(&format!("{}", program.types.size_of(global.ty)));
            return text;
        }
    }
    format!("key:{}", global.key)
}
