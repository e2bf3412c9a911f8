//! Declarations and definitions: the translation unit's top level, typedefs, global
//! variables and functions with linking by name across units (a definition wins over
//! declarations; `static` names are per unit, keyed `unitpath:name`), local variables
//! (register or memory storage, VLAs, `static` locals keyed `unitpath:fn:name`),
//! compound literals, and function bodies.

use ripple_ir::{
    ApproximationKind, Callee, Expr, ExprKind, FuncId, Function, Global, GlobalId, GlobalInit,
    Intrinsic, Linkage, LocalKind, NodeId, NodeKind, Place, Span, Type, TypeId,
};
use tree_sitter::Node as TsNode;

use crate::expr::{LVal, Val};
use crate::lower::{FnState, Lowerer, Sym};
use crate::types::{Param, StorageClass};
use crate::Severity;

impl<'a> Lowerer<'a, '_> {
    /// The lowering state after a panic caught while lowering one definition or
    /// declaration: back to file scope with `scopes` scopes, outside any function.
    fn reset_after_panic(&mut self, scopes: usize) {
        self.scopes.truncate(scopes.max(1));
        self.speculating = 0;
        self.in_function = false;
        self.func = FnState::new(self.types.int);
    }

    pub fn lower_translation_unit(&mut self, root: TsNode<'a>) {
        let mut cursor = root.walk();
        let items: Vec<TsNode<'a>> = root.named_children(&mut cursor).collect();
        for item in items {
            self.top_level(item);
        }
    }

    fn top_level(&mut self, node: TsNode<'a>) {
        match node.kind() {
            "function_definition" => self.function_definition(node),
            "declaration" => {
                let scopes = self.scopes.len();
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.global_declaration(node);
                }));
                if outcome.is_err() {
                    // A bug in the lowering: the declaration is kept as far as it got and
                    // said to be approximated (its objects are then of unknown content).
                    self.reset_after_panic(scopes);
                    self.diag(
                        Severity::Error,
                        node,
                        "internal error while lowering this declaration".into(),
                    );
                    let text: String = self.text(node).chars().take(60).collect();
                    self.approx(
                        ApproximationKind::Unsupported,
                        node,
                        format!("declaration `{text}` could not be lowered (internal error)"),
                    );
                }
            }
            "type_definition" => self.type_definition(node),
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                self.type_specifier(node);
            }
            "linkage_specification" => {
                if let Some(body) = self.child_field(node, self.fields.body) {
                    if body.kind() == "declaration_list" {
                        self.lower_translation_unit(body);
                    } else {
                        self.top_level(body);
                    }
                }
            }
            "ERROR" => {
                // Keep whatever complete declarations the error region contains.
                let mut cursor = node.walk();
                let items: Vec<TsNode<'a>> = node.named_children(&mut cursor).collect();
                for item in items {
                    if matches!(
                        item.kind(),
                        "function_definition"
                            | "declaration"
                            | "type_definition"
                            | "ERROR"
                            | "linkage_specification"
                    ) {
                        self.top_level(item);
                    }
                }
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                for item in self.preproc_branch(node) {
                    self.top_level(item);
                }
            }
            "expression_statement"
            | "compound_statement"
            | "if_statement"
            | "for_statement"
            | "while_statement"
            | "return_statement"
            | "labeled_statement" => {
                self.diag(
                    Severity::Warning,
                    node,
                    "statement at file scope is ignored".into(),
                );
            }
            _ => {}
        }
    }

    /// `typedef T name, *pname;`
    pub fn type_definition(&mut self, node: TsNode<'a>) {
        let specs = self.specs(node);
        let mut cursor = node.walk();
        let declarators: Vec<TsNode<'a>> = node
            .children_by_field_id(self.fields.declarator, &mut cursor)
            .collect();
        for d in declarators {
            let dec = self.declarator(d, specs.ty);
            if let Some(name) = dec.name {
                if dec.ty == specs.ty {
                    self.linker
                        .program
                        .types
                        .name_anonymous_record(dec.ty, name);
                }
                self.bind(name, Sym::Typedef(dec.ty));
            }
        }
    }

    /// The declarators of a declaration with their initializers.
    /// Per declarator of a declaration, the `cleanup` attribute that applies to it (its
    /// offset and function): one before the first declarator applies to all, one after a
    /// declarator (before the next) to that one.
    pub fn cleanup_attributes_of(&self, node: TsNode<'a>) -> Vec<Option<(usize, String)>> {
        // An attribute written before the type is blanked text before the node.
        let start = node
            .prev_sibling()
            .or_else(|| node.parent())
            .map_or(node.start_byte(), |p| {
                if p.end_byte() <= node.start_byte() {
                    p.end_byte()
                } else {
                    p.start_byte()
                }
            });
        let range = start..node.end_byte();
        let attrs: Vec<&(usize, String)> = self
            .cleanup_attributes
            .iter()
            .filter(|(at, _)| range.contains(at))
            .collect();
        let declarators = self.declarators(node);
        if attrs.is_empty() {
            return vec![None; declarators.len()];
        }
        let starts: Vec<usize> = declarators.iter().map(|(d, _)| d.start_byte()).collect();
        (0..declarators.len())
            .map(|i| {
                // Up to the initializer (which may hold declarations of its own), or else
                // to the next declarator.
                let end = match declarators[i].1 {
                    Some(init) => init.start_byte(),
                    None => starts.get(i + 1).copied().unwrap_or(range.end),
                };
                attrs
                    .iter()
                    .find(|(at, _)| *at < starts[0] || (starts[i] <= *at && *at < end))
                    .map(|&a| a.clone())
            })
            .collect()
    }

    pub(crate) fn declarators(&self, node: TsNode<'a>) -> Vec<(TsNode<'a>, Option<TsNode<'a>>)> {
        let mut cursor = node.walk();
        node.children_by_field_id(self.fields.declarator, &mut cursor)
            .filter(|d| d.kind() != "gnu_asm_expression")
            .map(|d| {
                if d.kind() == "init_declarator" {
                    let inner = self.child_field(d, self.fields.declarator).unwrap_or(d);
                    (inner, self.child_field(d, self.fields.value))
                } else {
                    (d, None)
                }
            })
            .collect()
    }

    fn global_declaration(&mut self, node: TsNode<'a>) {
        let specs = self.specs(node);
        if specs.storage == StorageClass::Typedef {
            for (d, _) in self.declarators(node) {
                let dec = self.declarator(d, specs.ty);
                if let Some(name) = dec.name {
                    self.bind(name, Sym::Typedef(dec.ty));
                }
            }
            return;
        }
        for (d, init) in self.declarators(node) {
            let base = self.declared_base(node, specs.ty, init);
            let dec = self.declarator(d, base);
            let Some(name) = dec.name else { continue };
            let span = self.span_of(d);
            if matches!(self.linker.program.types.get(dec.ty), Type::Function { .. }) {
                let existing = match self.lookup(name) {
                    Some(Sym::Func(f, _)) => Some(f),
                    _ => None,
                };
                let f = match existing {
                    Some(f) => {
                        self.merge_function_type(f, dec.ty);
                        f
                    }
                    None => self.declare_function(
                        name,
                        dec.ty,
                        specs.storage == StorageClass::Static,
                        span,
                    ),
                };
                if self.declares_noreturn(node, Some(d)) {
                    self.linker.program.functions[f].noreturn = true;
                }
                self.note_runtime_calls(f, node, Some(d));
                let ty = self.linker.program.functions[f].ty;
                self.bind(name, Sym::Func(f, ty));
                continue;
            }
            let is_static = specs.storage == StorageClass::Static
                || matches!(self.lookup(name), Some(Sym::Global(g, _)) if matches!(self.linker.program.globals[g].linkage, Linkage::Internal(_)));
            let key = if is_static {
                format!("{}:{}", self.unit.path, name)
            } else {
                name.to_string()
            };
            let mut ty = dec.ty;
            if let Some(init) = init {
                ty = self.complete_array_type(ty, init);
            }
            let linkage = if is_static {
                Linkage::Internal(self.unit_file)
            } else {
                Linkage::External
            };
            let is_const = dec.is_const(specs.is_const);
            let g = self.global_by_key(&key, name, ty, linkage, is_const, span);
            // Prefer the completed type (sized arrays, complete records).
            let old_ty = self.linker.program.globals[g].ty;
            if old_ty != ty && self.size_of(ty) >= self.size_of(old_ty) {
                self.linker.program.globals[g].ty = ty;
            }
            let gty = self.linker.program.globals[g].ty;
            self.bind(name, Sym::Global(g, gty));
            if let Some(init) = init {
                let value = self.global_init(gty, init);
                self.linker.program.globals[g].init = Some(value);
                self.linker.program.globals[g].span = span;
            } else if specs.storage != StorageClass::Extern
                && self.linker.program.globals[g].init.is_none()
            {
                // A tentative definition: zero-initialized.
                self.linker.program.globals[g].init = Some(GlobalInit::default());
                self.linker.program.globals[g].span = span;
            }
        }
    }

    /// The global with `key`, created as a declaration if new.
    fn global_by_key(
        &mut self,
        key: &str,
        name: &str,
        ty: TypeId,
        linkage: Linkage,
        is_const: bool,
        span: Span,
    ) -> GlobalId {
        if let Some(&g) = self.linker.global_keys.get(key) {
            return g;
        }
        let g = self.linker.program.globals.push(Global {
            name: name.to_string(),
            key: key.to_string(),
            linkage,
            ty,
            init: None,
            is_const,
            span,
        });
        self.linker.global_keys.insert(key.to_string(), g);
        g
    }

    /// The function named `name` (per unit when static), created as a declaration if new.
    pub fn declare_function(
        &mut self,
        name: &str,
        ty: TypeId,
        is_static: bool,
        span: Span,
    ) -> FuncId {
        let key = if is_static {
            format!("{}:{}", self.unit.path, name)
        } else {
            name.to_string()
        };
        if let Some(f) = self.linker.program.function_by_key(&key) {
            self.merge_function_type(f, ty);
            return f;
        }
        self.linker.program.add_function(Function {
            name: name.to_string(),
            key,
            linkage: if is_static {
                Linkage::Internal(self.unit_file)
            } else {
                Linkage::External
            },
            ty,
            params: Vec::new(),
            ret_var: None,
            locals: Default::default(),
            nodes: Default::default(),
            entry: NodeId(0),
            exit: NodeId(0),
            span,
            syntax: None,
            fingerprint: 0,
            noreturn: false,
        })
    }

    /// Keeps the more informative type (a prototype over `int f()`) for a declaration.
    fn merge_function_type(&mut self, f: FuncId, ty: TypeId) {
        let func = &self.linker.program.functions[f];
        if func.is_defined() || func.ty == ty {
            return;
        }
        let old_proto = matches!(
            self.linker.program.types.get(func.ty),
            Type::Function {
                prototyped: true,
                ..
            }
        );
        let new_proto = matches!(
            self.linker.program.types.get(ty),
            Type::Function {
                prototyped: true,
                ..
            }
        );
        if new_proto || !old_proto {
            self.linker.program.functions[f].ty = ty;
        }
    }

    /// A declaration inside a function body.
    pub fn local_declaration(&mut self, node: TsNode<'a>) {
        // `a * b;` where `a` is a variable: the parser took an expression for a
        // declaration (typedef-name ambiguity). It has no effect.
        if let Some(ty_node) = self.child_field(node, self.fields.type_) {
            if ty_node.kind() == "type_identifier" {
                let name = self.text(ty_node);
                if matches!(
                    self.lookup(name),
                    Some(Sym::Local(..) | Sym::Global(..) | Sym::Func(..) | Sym::EnumConst(..))
                ) {
                    return;
                }
            }
        }
        let specs = self.specs(node);
        if specs.storage == StorageClass::Typedef {
            for (d, _) in self.declarators(node) {
                let dec = self.declarator(d, specs.ty);
                if let Some(name) = dec.name {
                    self.bind(name, Sym::Typedef(dec.ty));
                }
            }
            return;
        }
        let cleanups = self.cleanup_attributes_of(node);
        for ((d, init), cleanup) in self.declarators(node).into_iter().zip(cleanups) {
            let base = self.declared_base(node, specs.ty, init);
            let dec = self.declarator(d, base);
            let Some(name) = dec.name else { continue };
            let span = self.span_of(d);
            if matches!(self.linker.program.types.get(dec.ty), Type::Function { .. }) {
                let f = match self.scopes.first().and_then(|s| s.names.get(name).copied()) {
                    Some(Sym::Func(f, _)) => f,
                    _ => self.declare_function(
                        name,
                        dec.ty,
                        specs.storage == StorageClass::Static,
                        span,
                    ),
                };
                if self.declares_noreturn(node, Some(d)) {
                    self.linker.program.functions[f].noreturn = true;
                }
                self.note_runtime_calls(f, node, Some(d));
                let ty = self.linker.program.functions[f].ty;
                self.bind(name, Sym::Func(f, ty));
                continue;
            }
            if specs.storage == StorageClass::Extern {
                let g = match self.scopes.first().and_then(|s| s.names.get(name).copied()) {
                    Some(Sym::Global(g, _)) => g,
                    _ => self.global_by_key(
                        name,
                        name,
                        dec.ty,
                        Linkage::External,
                        dec.is_const(specs.is_const),
                        span,
                    ),
                };
                let ty = self.linker.program.globals[g].ty;
                self.bind(name, Sym::Global(g, ty));
                continue;
            }
            let mut ty = dec.ty;
            if let Some(init) = init {
                ty = self.complete_array_type(ty, init);
            }
            if specs.storage == StorageClass::Static {
                let mut key = format!("{}:{}:{}", self.unit.path, self.func.name, name);
                let mut n = 1;
                while self.linker.global_keys.contains_key(&key) {
                    n += 1;
                    key = format!("{}:{}:{}#{n}", self.unit.path, self.func.name, name);
                }
                let g = self.global_by_key(
                    &key,
                    name,
                    ty,
                    Linkage::Internal(self.unit_file),
                    dec.is_const(specs.is_const),
                    span,
                );
                // Bind first: the initializer may take its own address.
                self.bind(name, Sym::Global(g, ty));
                let value = match init {
                    Some(init) => {
                        let saved = self.in_function;
                        let v = self.global_init(ty, init);
                        self.in_function = saved;
                        v
                    }
                    None => GlobalInit::default(),
                };
                self.linker.program.globals[g].init = Some(value);
                continue;
            }
            if let Some(size) = dec.vla_size {
                self.ensure_cur();
                self.vla(name, ty, size, node);
                continue;
            }
            let memory = self.func.addr_taken.contains(name);
            let saved_span = self.func.span;
            self.func.span = span;
            let var = self.new_local(name, ty, LocalKind::Declared, memory);
            self.func.span = saved_span;
            self.bind(name, Sym::Local(var, ty));
            if let Some(init) = init {
                self.ensure_cur();
                let lv = if self.is_register(var) {
                    LVal::Reg(var, ty)
                } else {
                    LVal::Mem(self.addr_of_local(var), ty)
                };
                self.init_local(lv, init);
            }
            if let Some((at, func)) = cleanup {
                self.add_cleanup(node, at, &func, var);
            }
        }
    }

    /// The type a declarator of `decl` applies to: that of the specifiers, or for GNU
    /// `__auto_type` that of the declarator's initializer after lvalue conversion
    /// (arrays and functions become pointers), not evaluated.
    fn declared_base(
        &mut self,
        decl: TsNode<'a>,
        specs_ty: TypeId,
        init: Option<TsNode<'a>>,
    ) -> TypeId {
        let auto = self
            .child_field(decl, self.fields.type_)
            .is_some_and(|t| t.kind() == "type_identifier" && self.text(t) == "__auto_type");
        if !auto {
            return specs_ty;
        }
        let Some(init) = init else {
            self.diag(
                Severity::Error,
                decl,
                "`__auto_type` declaration without an initializer".into(),
            );
            return specs_ty;
        };
        let ty = self.speculate(|this| this.lower_expr(init).ty());
        match self.linker.program.types.get(ty) {
            Type::Array { elem, .. } => {
                let elem = *elem;
                self.pointer_to(elem)
            }
            Type::Function { .. } => self.pointer_to(ty),
            _ => ty,
        }
    }

    /// Runs `func(&var)` wherever the scope of `var` is left (`Lowerer::run_cleanups`);
    /// a function that is not declared is left unmodelled (said after the lowering).
    fn add_cleanup(&mut self, decl: TsNode<'a>, at: usize, func: &str, var: ripple_ir::VarId) {
        let Some(Sym::Func(f, _)) = self.lookup(func) else {
            return;
        };
        if self.is_register(var) {
            return;
        }
        let scope = decl.start_byte()..decl.parent().map_or(decl.end_byte(), |p| p.end_byte());
        self.modelled_cleanups.insert(at);
        if let Some(top) = self.scopes.last_mut() {
            top.cleanups.push(crate::lower::Cleanup {
                func: f,
                var,
                scope,
            });
        }
    }

    /// A variable-length array: its size computed at run time, storage from `Alloca`.
    fn vla(&mut self, name: &'a str, ty: TypeId, _size_node: TsNode<'a>, _node: TsNode<'a>) {
        let t = self.types;
        let elem = match self.linker.program.types.get(ty) {
            Type::Array { elem, .. } => *elem,
            _ => ty,
        };
        // The size was evaluated with the declarator (`vla_dimension`).
        let bytes = self.runtime_size(ty);
        let size_var = self.new_local(&format!("{name}.size"), t.ulong, LocalKind::Temp, false);
        self.emit(NodeKind::Assign {
            dst: Place::Local(size_var),
            value: bytes,
        });
        let ptr_ty = self.pointer_to(elem);
        let ptr_var = self.new_local(name, ptr_ty, LocalKind::Declared, false);
        self.emit(NodeKind::Call {
            dst: Some(Place::Local(ptr_var)),
            callee: Callee::Intrinsic(Intrinsic::Alloca),
            args: vec![Expr::local(size_var, t.ulong)],
        });
        self.bind(
            name,
            Sym::Vla {
                ptr: ptr_var,
                size: size_var,
                ty,
            },
        );
    }

    /// `(T){ ... }`: a temporary object (a global at file scope).
    pub fn compound_literal(&mut self, node: TsNode<'a>) -> Val {
        let (Some(desc), Some(value)) = (
            self.child_field(node, self.fields.type_),
            self.child_field(node, self.fields.value),
        ) else {
            return Val::R(self.int_const(0, self.types.int));
        };
        let ty = self.type_descriptor(desc);
        let ty = self.complete_array_type(ty, value);
        if !self.in_function {
            let n = self.linker.next_string;
            self.linker.next_string += 1;
            let key = format!("{}:.compound.{n}", self.unit.path);
            let span = self.span_of(node);
            let g = self.global_by_key(
                &key,
                ".compound",
                ty,
                Linkage::Internal(self.unit_file),
                false,
                span,
            );
            let init = self.global_init(ty, value);
            self.linker.program.globals[g].init = Some(init);
            let p = self.pointer_to(ty);
            return Val::L(LVal::Mem(Expr::new(ExprKind::AddrOfGlobal(g), p), ty));
        }
        let var = self.new_local("", ty, LocalKind::Temp, true);
        let lv = LVal::Mem(self.addr_of_local(var), ty);
        self.init_local(lv.clone(), value);
        Val::L(lv)
    }

    /// Whether one of the attributes blanked before parsing at `offsets` (sorted) is on
    /// this declarator of `node` (or on the whole declaration).
    pub(crate) fn has_attribute(
        &self,
        node: TsNode<'a>,
        declarator: Option<TsNode<'a>>,
        offsets: &[usize],
    ) -> bool {
        let mut cursor = node.walk();
        let children: Vec<TsNode<'a>> = node.children(&mut cursor).collect();
        // Another declarator of the same declaration says nothing of this one.
        let other = |child: &TsNode<'a>| {
            child.kind().ends_with("declarator")
                && declarator.is_some_and(|d| !child.byte_range().contains(&d.start_byte()))
        };
        let body = children.iter().find(|c| c.kind() == "compound_statement");
        // The attributes blanked before parsing lie between the tokens: from the end of
        // the token before the declaration (blanked attributes are spaces; a declaration
        // first in its tree, or in its chunk of a large file, has no previous sibling,
        // and must not take every attribute of the text before it) to its body (or end).
        let before = self
            .src
            .as_bytes()
            .get(..node.start_byte())
            .unwrap_or_default();
        let token_end = before
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |i| i + 1);
        let start = token_end.max(node.prev_sibling().map_or(0, |p| p.end_byte()));
        let end = body.map_or(node.end_byte(), |b| b.start_byte());
        let from = offsets.partition_point(|&o| o < start);
        offsets[from..].iter().take_while(|&&o| o < end).any(|&o| {
            // An attribute belongs to the declarator before it (or, before any, to
            // the whole declaration).
            !children
                .iter()
                .rev()
                .find(|c| c.start_byte() <= o)
                .is_some_and(other)
        })
    }

    /// The functions the C runtime is asked to call before `main` (constructors) and
    /// after it (destructors): recorded for `runtime::call_around_main`.
    fn note_runtime_calls(
        &mut self,
        f: ripple_ir::FuncId,
        node: TsNode<'a>,
        declarator: Option<TsNode<'a>>,
    ) {
        for k in 0..2 {
            if self.has_attribute(node, declarator, &self.runtime_attributes[k]) {
                self.linker.runtime_calls[k].push(f);
            }
        }
    }

    /// Whether a declaration says its function never returns: `_Noreturn` (also as
    /// `noreturn` from <stdnoreturn.h>) or a `noreturn` attribute, in the specifiers or
    /// on this declarator (never in a body).
    fn declares_noreturn(&self, node: TsNode<'a>, declarator: Option<TsNode<'a>>) -> bool {
        let mut cursor = node.walk();
        let children: Vec<TsNode<'a>> = node.children(&mut cursor).collect();
        // Another declarator of the same declaration says nothing of this one.
        let other = |range: &std::ops::Range<usize>, child: &TsNode<'a>| {
            child.kind().ends_with("declarator")
                && declarator.is_some_and(|d| !range.contains(&d.start_byte()))
        };
        self.has_attribute(node, declarator, &self.noreturn_attributes)
            || children
                .iter()
                .filter(|c| c.kind() != "compound_statement" && !other(&c.byte_range(), c))
                .any(|c| {
                    self.text(*c)
                        .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                        .any(|w| matches!(w, "_Noreturn" | "noreturn" | "__noreturn__"))
                })
    }

    pub fn function_definition(&mut self, node: TsNode<'a>) {
        let specs = self.specs(node);
        let Some(d) = self.child_field(node, self.fields.declarator) else {
            return;
        };
        let dec = self.declarator(d, specs.ty);
        if let Some(name_node) = dec.name_node {
            self.lowered_definitions.insert(name_node.start_byte());
        }
        let Some(name) = dec.name else {
            self.diag(
                Severity::Error,
                node,
                "function definition without a name".into(),
            );
            return;
        };
        let mut ty = dec.ty;
        let Type::Function {
            ret,
            params: param_types,
            varargs,
            prototyped,
        } = self.linker.program.types.get(ty).clone()
        else {
            self.diag(
                Severity::Error,
                node,
                format!("`{name}` is defined like a function but is not one"),
            );
            // Kept as a function of unknown behaviour (a prototype seen before gives it
            // its parameters).
            let span = self.span_of(node);
            let f = match self.scopes.first().and_then(|s| s.names.get(name).copied()) {
                Some(Sym::Func(f, _)) => f,
                _ => self.declare_function(
                    name,
                    self.types.implicit_fn,
                    specs.storage == StorageClass::Static,
                    span,
                ),
            };
            if !self.linker.program.functions[f].is_defined() {
                let ty = self.linker.program.functions[f].ty;
                self.bind_file_scope(name, Sym::Func(f, ty));
                self.havoc_body(
                    f,
                    node,
                    &format!("the definition of `{name}` could not be read"),
                );
            }
            return;
        };
        let mut params: Vec<Param<'a>> = dec.params.clone().unwrap_or_default();
        let body = self.child_field(node, self.fields.body);
        // Old-style parameter declarations: before the body as the grammar reads them, or
        // moved to the start of the body by the C89 rewrite (`oldstyle.rs`).
        let moved = body.and_then(|b| Some((b, *self.knr_bodies.get(&b.start_byte())?)));
        let knr_in_body: Vec<TsNode<'a>> = match moved {
            Some((b, end)) => {
                let mut cursor = b.walk();
                b.named_children(&mut cursor)
                    .take_while(|c| c.end_byte() <= end)
                    .filter(|c| c.kind() == "declaration")
                    .collect()
            }
            None => Vec::new(),
        };
        if !prototyped && !params.is_empty() {
            let mut cursor = node.walk();
            let mut decls: Vec<TsNode<'a>> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "declaration")
                .collect();
            decls.extend(knr_in_body.iter().copied());
            for decl in decls {
                let pspecs = self.specs(decl);
                for (pd, _) in self.declarators(decl) {
                    let pdec = self.declarator(pd, pspecs.ty);
                    if let Some(pname) = pdec.name {
                        let pty = self.adjust_param_type(pdec.ty);
                        for p in params.iter_mut() {
                            if p.name == Some(pname) {
                                p.ty = pty;
                                p.knr_declarator = Some(pd);
                            }
                        }
                    }
                }
            }
            // Calls stay unprototyped: they pass the default promotions of the arguments,
            // which the entry converts to the declared types (`lower_body`).
            let _ = param_types;
            let promoted: Vec<TypeId> = params
                .iter()
                .map(|p| self.default_promoted_type(p.ty))
                .collect();
            ty = self.linker.program.types.intern(Type::Function {
                ret,
                params: promoted,
                varargs,
                prototyped: false,
            });
        }
        let span = self.span_of(node);
        let existing = match self.scopes.first().and_then(|s| s.names.get(name).copied()) {
            Some(Sym::Func(f, _)) => Some(f),
            _ => None,
        };
        let mut f = match existing {
            Some(f) => f,
            None => self.declare_function(name, ty, specs.storage == StorageClass::Static, span),
        };
        if self.declares_noreturn(node, None) {
            self.linker.program.functions[f].noreturn = true;
        }
        if self.linker.program.functions[f].is_defined() {
            // Several programs in one directory (tests, examples) each define `main` and
            // friends. Keep every definition: later ones are keyed by their unit, like
            // statics, and calls below in their unit go to them.
            f = self.declare_function(name, ty, true, span);
            if self.linker.program.functions[f].is_defined() {
                self.diag(
                    Severity::Error,
                    node,
                    format!("redefinition of `{name}` in the same file; this definition is not analysed"),
                );
                return;
            }
            let key = self.linker.program.functions[f].key.clone();
            self.diag(
                Severity::Warning,
                node,
                format!(
                    "`{name}` is defined in several files; this definition is analysed as `{key}`"
                ),
            );
        }
        self.linker.program.functions[f].ty = ty;
        self.bind_file_scope(name, Sym::Func(f, ty));
        let Some(body) = body else {
            return;
        };
        self.note_runtime_calls(f, node, None);
        let scopes = self.scopes.len();
        let knr_skip: Vec<usize> = knr_in_body.iter().map(|d| d.id()).collect();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.func = FnState::new(self.types.int);
            self.func.skip_items = knr_skip;
            self.lower_body(f, name, ty, ret, &params, node, body, span);
        }));
        // A `cleanup` attribute the lowering did not model (on a variable it could not
        // keep in memory, or naming no declared function): said, and no semantic verdict
        // is given on the function (`ripple_analyses::unread`).
        if let Some(&(at, _)) = self
            .cleanup_attributes
            .iter()
            .find(|(o, _)| body.byte_range().contains(o) && !self.modelled_cleanups.contains(o))
        {
            let span = self.span_of(body);
            let line =
                span.start_line + self.src[body.start_byte()..at].matches('\n').count() as u32;
            let span = ripple_ir::Span {
                start_line: line,
                end_line: line,
                ..span
            };
            self.linker.program.read_errors.push(ripple_ir::ReadError {
                span,
                function: Some(f),
                record: None,
                text: 0,
            });
            self.linker.program.approximations.push(ripple_ir::Approximation {
                kind: ripple_ir::ApproximationKind::Unsupported,
                span,
                function: Some(f),
                detail: "a `cleanup` attribute: the function it names runs at the end of the variable's scope, which is not modelled".into(),
            });
        }
        if outcome.is_err() {
            self.reset_after_panic(scopes);
            self.diag(
                Severity::Error,
                node,
                format!("internal error while lowering `{name}`"),
            );
            self.havoc_body(
                f,
                node,
                &format!("`{name}` could not be lowered (internal error); its body may read and write anything reachable and return anything"),
            );
        }
    }

    /// Gives `f` a body that is one `Havoc` (recorded as an approximation): a function
    /// the frontend could not lower stays in the program as an explicit
    /// over-approximation (it may read and write every region and return anything, as
    /// the dataflow engines treat havoc nodes), never dropped.
    pub fn havoc_body(&mut self, f: FuncId, node: TsNode<'a>, reason: &str) {
        let ty = self.linker.program.functions[f].ty;
        let (ret, param_types) = match self.linker.program.types.get(ty).clone() {
            Type::Function { ret, params, .. } => (ret, params),
            _ => (self.types.int, Vec::new()),
        };
        let span = self.span_of(node);
        self.func = FnState::new(self.types.int);
        self.func.id = Some(f);
        self.func.span = span;
        self.in_function = true;
        let entry = self.emit(NodeKind::Entry);
        let exit = self
            .func
            .push_node(ripple_ir::Node::new(NodeKind::Exit, span));
        self.func.is_label.push(false);
        self.func.exit = exit;
        self.func.cur = Some(entry);
        // The parameters live in memory, which the havoc reads: the result and every
        // write may depend on the arguments.
        let params: Vec<_> = param_types
            .iter()
            .map(|&p| self.new_local("", p, LocalKind::Param, true))
            .collect();
        let ret_var = (ret != self.types.void && self.linker.program.types.is_scalar(ret))
            .then(|| self.new_local("<return>", ret, LocalKind::Return, false));
        self.func.ret_var = ret_var;
        self.havoc(
            ret_var.map(Place::Local),
            ApproximationKind::Unsupported,
            node,
            reason,
        );
        self.goto(exit);
        let (nodes, exit) = self.finish_cfg();
        let locals = std::mem::take(&mut self.func.locals).into();
        let func = &mut self.linker.program.functions[f];
        func.params = params;
        func.ret_var = ret_var;
        func.locals = locals;
        func.nodes = nodes;
        func.entry = NodeId(0);
        func.exit = exit;
        func.span = span;
        self.in_function = false;
        self.func = FnState::new(self.types.int);
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_body(
        &mut self,
        f: FuncId,
        name: &'a str,
        ty: TypeId,
        ret: TypeId,
        params: &[Param<'a>],
        def: TsNode<'a>,
        body: TsNode<'a>,
        span: Span,
    ) {
        self.func.id = Some(f);
        self.func.name = name;
        self.func.span = span;
        self.in_function = true;
        let src = self.src;
        let volatile_names = self
            .volatile_names
            .get_or_insert_with(|| crate::volatile::declared_names(src));
        if crate::volatile::mentions(&src[def.byte_range()], volatile_names) {
            self.linker.program.volatile.push(f);
        }
        let (syntax, fingerprint) = self.scan_function(def);
        self.func.syn = syntax.as_ref().map(|s| s.root);
        let entry = self.emit(NodeKind::Entry);
        let exit = self
            .func
            .push_node(ripple_ir::Node::new(NodeKind::Exit, span));
        self.func.is_label.push(false);
        self.func.exit = exit;
        self.func.cur = Some(entry);
        self.push_scope();
        let mut param_vars = Vec::with_capacity(params.len());
        let old_style = matches!(
            self.linker.program.types.get(ty),
            Type::Function {
                prototyped: false,
                ..
            }
        );
        let mut narrowed = Vec::new();
        for p in params {
            let pname = p.name.unwrap_or("");
            let memory = !pname.is_empty() && self.func.addr_taken.contains(pname);
            // A K&R parameter declared `char` or `float` receives the promoted value
            // (`int`, `double`) and converts it at the entry, as compilers do.
            let passed = if old_style {
                self.default_promoted_type(p.ty)
            } else {
                p.ty
            };
            if passed != p.ty {
                let var = self.new_local(pname, passed, LocalKind::Param, false);
                narrowed.push((var, passed, p));
                param_vars.push(var);
                continue;
            }
            let var = self.new_local(pname, p.ty, LocalKind::Param, memory);
            if let Some(n) = p.name {
                self.bind(n, Sym::Local(var, p.ty));
            }
            param_vars.push(var);
        }
        for (passed_var, passed, p) in narrowed {
            let pname = p.name.unwrap_or("");
            let memory = !pname.is_empty() && self.func.addr_taken.contains(pname);
            let var = self.new_local(pname, p.ty, LocalKind::Declared, memory);
            if let Some(n) = p.name {
                self.bind(n, Sym::Local(var, p.ty));
            }
            let value = Expr::local(passed_var, passed);
            let value = self.convert(value, p.ty);
            let lv = if self.is_register(var) {
                LVal::Reg(var, p.ty)
            } else {
                LVal::Mem(self.addr_of_local(var), p.ty)
            };
            // The conversion is located at the declaration that asks for it.
            let saved = self.func.span;
            if let Some(d) = p.knr_declarator {
                self.func.span = self.span_of(d);
            }
            self.store(&lv, value);
            self.func.span = saved;
        }
        self.param_vla_dimensions(params);
        if ret != self.types.void {
            let var = self.new_local("<return>", ret, LocalKind::Return, false);
            self.func.ret_var = Some(var);
        }
        self.func.ret_ty = ret;
        self.statement(body);
        if self.func.cur.is_some() && name == "main" && ret == self.types.int {
            if let Some(var) = self.func.ret_var {
                self.func.span = self.span_of(body);
                self.emit(NodeKind::Assign {
                    dst: Place::Local(var),
                    value: Expr::int(0, ret),
                });
            }
        }
        self.goto(exit);
        // Jumps to labels never defined.
        let labels: Vec<(&str, NodeId)> = self.func.labels.iter().map(|(k, v)| (*k, *v)).collect();
        for (label, id) in labels {
            if self.func.nodes[id.index()].succs.is_empty() {
                let at = self.func.label_uses.get(label).copied().unwrap_or(body);
                self.diag(
                    Severity::Error,
                    at,
                    format!("label `{label}` used but not defined"),
                );
            }
        }
        self.pop_scope();
        let (nodes, exit) = self.finish_cfg();
        let locals = std::mem::take(&mut self.func.locals).into();
        let ret_var = self.func.ret_var;
        let func = &mut self.linker.program.functions[f];
        func.ty = ty;
        func.params = param_vars;
        func.ret_var = ret_var;
        func.locals = locals;
        func.nodes = nodes;
        func.entry = NodeId(0);
        func.exit = exit;
        func.span = span;
        func.syntax = syntax;
        func.fingerprint = fingerprint;
        self.in_function = false;
        self.func = FnState::new(self.types.int);
        let _ = ApproximationKind::Unsupported;
    }
}
