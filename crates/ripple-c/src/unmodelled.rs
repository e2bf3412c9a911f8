//! What a havoc for code the IR does not model reads and writes. A havoc reads and
//! writes all memory, but no register local: the values such code is given (an inline
//! assembly statement's inputs, an unknown builtin's arguments, the variables an
//! unreadable region names) are stored in memory temporaries of their own before it, so
//! that they reach what it writes, and the register locals it may write (an assembly
//! statement's outputs, the variables an unreadable region names) get unknown values of
//! havocs of their own after it, which also read the stored values.

use ripple_ir::{Expr, LocalKind, NodeKind, Place, TypeId, VarId};
use tree_sitter::Node as TsNode;

use crate::expr::LVal;
use crate::lower::{Lowerer, Sym};

impl<'a> Lowerer<'a, '_> {
    /// Stores each scalar of `values` in a memory temporary of its own, for the havoc
    /// that follows to read (an aggregate is an object in memory already).
    pub(crate) fn spill_for_havoc(&mut self, values: Vec<Expr>) {
        for value in values {
            let ty = value.ty;
            if !self.linker.program.types.is_scalar(ty) {
                continue;
            }
            let var = self.new_local("", ty, LocalKind::Temp, true);
            let addr = self.addr_of_local(var);
            self.store(&LVal::Mem(addr, ty), value);
        }
    }

    /// Writes an unknown value, from a havoc of its own (which reads all memory), to
    /// each scalar place of `places`.
    pub(crate) fn havoc_places(&mut self, places: Vec<LVal>, reason: &str) {
        for lv in places {
            let (LVal::Reg(_, ty) | LVal::Mem(_, ty) | LVal::Bits { ty, .. }) = lv;
            if !self.linker.program.types.is_scalar(ty) {
                // Written with the rest of memory.
                continue;
            }
            let var = self.temp(ty);
            self.emit(NodeKind::Havoc {
                dst: Some(Place::Local(var)),
                reason: reason.into(),
            });
            self.store(&lv, Expr::local(var, ty));
        }
    }

    /// The register locals in scope that an unreadable region names (its identifiers),
    /// in order of first mention.
    pub(crate) fn registers_named(&self, node: TsNode<'a>) -> Vec<(VarId, TypeId)> {
        let mut out: Vec<(VarId, TypeId)> = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" {
                if let Some(Sym::Local(var, ty)) = self.lookup(self.text(n)) {
                    if self.is_register(var) && !out.iter().any(|(v, _)| *v == var) {
                        out.push((var, ty));
                    }
                }
                continue;
            }
            let mut cursor = n.walk();
            let children: Vec<TsNode<'a>> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// What a havoc for an unreadable or unsupported region reads (and, with `write`,
    /// writes) of the register locals: those the region names.
    pub(crate) fn havoc_unreadable(&mut self, node: TsNode<'a>, write: bool, reason: &str) {
        let registers = self.registers_named(node);
        self.spill_for_havoc(
            registers
                .iter()
                .map(|&(var, ty)| Expr::local(var, ty))
                .collect(),
        );
        if write {
            let places = registers
                .iter()
                .map(|&(var, ty)| LVal::Reg(var, ty))
                .collect();
            self.havoc_places(places, reason);
        }
    }
}
