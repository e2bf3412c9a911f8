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

    /// An unknown value of type `ty`, from a havoc of its own (which reads all memory).
    pub(crate) fn unknown(&mut self, ty: TypeId, reason: &str) -> Expr {
        let var = self.temp(ty);
        self.emit(NodeKind::Havoc {
            dst: Some(Place::Local(var)),
            reason: reason.into(),
        });
        Expr::local(var, ty)
    }

    /// Writes an unknown value to each scalar place of `places`.
    pub(crate) fn havoc_places(&mut self, places: Vec<LVal>, reason: &str) {
        for lv in places {
            let (LVal::Reg(_, ty) | LVal::Mem(_, ty) | LVal::Bits { ty, .. }) = lv;
            if !self.linker.program.types.is_scalar(ty) {
                // Written with the rest of memory.
                continue;
            }
            let value = self.unknown(ty, reason);
            self.store(&lv, value);
        }
    }

    /// Stores the values of register locals for the havoc that follows to read.
    pub(crate) fn spill_registers(&mut self, registers: &[(VarId, TypeId)]) {
        let values = registers.iter().map(|&(var, ty)| Expr::local(var, ty));
        self.spill_for_havoc(values.collect());
    }

    /// Writes an unknown value to each register local of `registers`.
    pub(crate) fn havoc_registers(&mut self, registers: &[(VarId, TypeId)], reason: &str) {
        let places = registers.iter().map(|&(var, ty)| LVal::Reg(var, ty));
        self.havoc_places(places.collect(), reason);
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
        self.spill_registers(&registers);
        if write {
            self.havoc_registers(&registers, reason);
        }
    }
}
