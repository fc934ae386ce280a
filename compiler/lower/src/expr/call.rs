//! Lowering of calls: direct and indirect calls with their argument conversions, function
//! pointers, intrinsics and math builtins, `assert` and `printf` (through `vprintf`).

use super::*;

impl<'a> FnLower<'_, 'a, '_> {
    fn callee_symbol(&mut self, f: &'a Expr) -> Option<SymbolId> {
        let inner = strip_parens(f);
        match &inner.kind {
            ExprKind::Ident(_) => self
                .cx
                .typed
                .ident_symbols
                .get(&inner.id)
                .copied()
                .filter(|s| self.cx.typed.symbols[*s].kind == SymbolKind::Function),
            ExprKind::Unary(UnaryOp::Deref, x) => self.callee_symbol(x),
            // `_Generic(x, int: f, long: g)(args)`: a direct call of the selected function.
            ExprKind::Generic(..) => {
                let sel = *self.cx.typed.selected.get(&inner.id)?;
                let x = self.cx.expr_by_id(sel)?;
                self.callee_symbol(x)
            }
            _ => None,
        }
    }

    /// The address of function `sym` (a generic `ptr`); the function is lowered too, or,
    /// for a `declare target` function another unit defines, declared `extern` (the device
    /// link resolves the address).
    pub(super) fn func_ptr(&mut self, sym: SymbolId, span: Span) -> Option<Value> {
        let name = self.cx.typed.symbols[sym].name.clone();
        // Defined here (the unit's own function, or the wrapper of a library function), or a
        // declare-target function another unit defines.
        let defined = self
            .cx
            .callee_def(sym)
            .or_else(|| self.cx.library_address(sym));
        let Some(target) = defined
            .clone()
            .or_else(|| self.cx.extern_device_function(sym))
        else {
            self.unsupported(
                format!("function '{name}' has no device definition, so it has no device address"),
                span,
            );
            return None;
        };
        let fty = self.cx.fn_type_of(sym)?;
        let (sig, _) = match crate::varargs::call_signature(self.cx, fty) {
            Ok(s) => s,
            Err(m) => {
                self.unsupported(format!("cannot take the address of '{name}': {m}"), span);
                return None;
            }
        };
        if defined.is_none()
            && let Err(m) = self.cx.declare_external(&target, &sig)
        {
            self.unsupported(m, span);
            return None;
        }
        let fr = self.b.import_function(&target, sig);
        Some(self.b.ins().func_addr(fr))
    }

    /// A call through a function pointer: `fp(args)` or `(*fp)(args)`.
    fn call_indirect(
        &mut self,
        e: &'a Expr,
        f: &'a Expr,
        args: &'a [Expr],
        info: ExprInfo,
    ) -> Option<Rv> {
        let span = e.span;
        // `(*fp)(...)`, `(**fp)(...)`: the designator is the pointer itself.
        let mut callee = strip_parens(f);
        while let ExprKind::Unary(UnaryOp::Deref, x) = &callee.kind {
            let xi = self.info(x)?;
            let types = &self.cx.typed.types;
            if !types.is_pointer(xi.ty) && !types.is_function(xi.ty) {
                break;
            }
            callee = strip_parens(x);
        }
        let ci = self.info(callee)?;
        let types = &self.cx.typed.types;
        let fty = if types.is_function(ci.ty) {
            ci.ty
        } else {
            match types.pointee(ci.conv).filter(|p| types.is_function(*p)) {
                Some(p) => p,
                None => {
                    self.unsupported("called object is not a function pointer", span);
                    return None;
                }
            }
        };
        let (sig, sret) = match crate::varargs::call_signature(self.cx, fty) {
            Ok(s) => s,
            Err(m) => {
                self.unsupported(format!("cannot call through this pointer: {m}"), span);
                return None;
            }
        };
        let target = self.scalar(callee)?;
        let target = if self.b.value_type(target) == Type::PTR {
            target
        } else {
            self.b.ins().addrspacecast(Type::PTR, target)
        };
        let target = self.indirect_target(target);
        let (vals, result_slot) = self.call_args(args, info, fty, sret, span)?;
        if vals.len() != sig.params.len()
            || vals
                .iter()
                .zip(&sig.params)
                .any(|(v, t)| self.b.value_type(*v) != *t)
        {
            self.unsupported(
                "call through a function pointer does not match its parameters",
                span,
            );
            return None;
        }
        let sr = self.b.import_signature(sig);
        let call = self.b.ins().call_indirect(sr, target, &vals);
        if let Some((slot, align)) = result_slot {
            return Some(Rv::Agg(self.slot_addr(slot, align)));
        }
        let res = self.b.func.dfg.inst_results(call).first().copied();
        Some(match res {
            Some(v) => Rv::S(v),
            None => Rv::Void,
        })
    }

    /// The IR arguments of a call of a function of type `fty`: a hidden result slot first
    /// for struct results, struct arguments as pointers to fresh copies, scalars converted as
    /// sema recorded; for a variadic function the arguments after the named ones packed into
    /// a buffer whose address comes last (module `varargs`).
    #[allow(clippy::type_complexity)]
    fn call_args(
        &mut self,
        args: &'a [Expr],
        info: ExprInfo,
        fty: QualType,
        sret: bool,
        span: Span,
    ) -> Option<(Vec<Value>, Option<(ompcc_ir::StackSlot, u32)>)> {
        let (args, rest) = match self.cx.typed.types.fn_type(fty) {
            Some(f) if f.variadic => {
                let named = f.params.len().min(args.len());
                (&args[..named], Some(&args[named..]))
            }
            _ => (args, None),
        };
        let mut vals = Vec::new();
        let mut result_slot = None;
        if sret {
            let slot = self.new_slot(info.ty, span)?;
            let align = self.align_of(info.ty);
            let a = self.slot_addr(slot, align);
            vals.push(self.generic_ptr(a));
            result_slot = Some((slot, align));
        }
        for a in args {
            let ai = self.info(a)?;
            if ty::by_address(&self.cx.typed.types, ai.conv) {
                let src = self.agg_value(a)?;
                let slot = self.new_slot(ai.conv, a.span)?;
                let align = self.align_of(ai.conv);
                let dst = self.slot_addr(slot, align);
                self.copy(dst, src, ai.conv, a.span);
                let dst = self.slot_addr(slot, align);
                vals.push(self.generic_ptr(dst));
            } else {
                vals.push(self.scalar(a)?);
            }
        }
        if let Some(rest) = rest {
            let buf = self.variadic_args(rest, span)?;
            vals.push(buf);
        }
        Some((vals, result_slot))
    }

    pub(super) fn call(
        &mut self,
        e: &'a Expr,
        f: &'a Expr,
        args: &'a [Expr],
        info: ExprInfo,
    ) -> Option<Rv> {
        let span = e.span;
        if let Some(b) = crate::atomic_builtin::callee_builtin(self.cx.typed, self.cx.tu, f) {
            return self.atomic_builtin(b, args, info, span);
        }
        // builtins sema typed without a symbol: the type-generic floating-point ones
        // (`__builtin_isnan`, ...), `__builtin_inf`/`nan` (values), `__builtin_complex`
        if let ExprKind::Ident(n) = &strip_parens(f).kind {
            let name = self.cx.tu.symbols.resolve(*n).to_string();
            if name == "__builtin_complex" {
                return self.builtin_complex(args, info, span);
            }
            if let Some(r) = self.float_class_builtin(&name, args, info, span) {
                return r;
            }
            if let Some(r) = self.va_builtin(&name, args, span) {
                return r;
            }
        }
        let Some(sym) = self.callee_symbol(f) else {
            return self.call_indirect(e, f, args, info);
        };
        let sym = match self.dispatch_callee {
            Some((id, v)) if id == strip_parens(f).id => v,
            _ => self.cx.variant_of(f, sym),
        };
        let name = self.cx.typed.symbols[sym].name.clone();
        let fty = self.cx.fn_type_of(sym)?;
        if name == "printf" {
            return self.printf(args, span);
        }
        if name == "vprintf"
            && let [fmt, ap] = args
        {
            // the va_list's cursor points into a buffer of CUDA's layout: vprintf reads it
            let fv = self.scalar(fmt)?;
            let buf = self.va_list_cursor(ap)?;
            return self.call_vprintf(fv, buf, span).map(Rv::S);
        }
        match name.strip_prefix("__builtin_").unwrap_or(&name) {
            "unreachable" if name.starts_with("__builtin_") => {
                self.b.ins().unreachable();
                return Some(Rv::Void);
            }
            "trap" | "abort" => {
                // Evaluate nothing else: the kernel stops here.
                self.b.ins().trap();
                return Some(Rv::Void);
            }
            "__assert_fail" if args.len() == 4 => return self.assert_fail(args, span),
            _ => {}
        }
        if let Some(r) = self.omp_lock(&name, args, info, span) {
            return r;
        }
        if let Some(r) = self.omp_icv_api(&name, args, info, span) {
            return r;
        }
        if let Some(v) = self.omp_api(&name, args, info.ty) {
            return Some(Rv::S(v));
        }
        if let Some(r) = self.intrinsic(&name, args, info, span) {
            return r;
        }
        if self.cx.callee_def(sym).is_none()
            && let Some(r) = self.complex_builtin(&name, args, span)
        {
            return r;
        }
        let target = if let Some(n) = self.cx.callee_def(sym) {
            n
        } else if let Some(n) = self.cx.extern_device_function(sym) {
            n
        } else {
            let lib = name.strip_prefix("__builtin_").unwrap_or(&name).to_string();
            if self.cx.is_library_function(&lib) {
                lib
            } else {
                if matches!(
                    name.as_str(),
                    "setjmp" | "longjmp" | "_setjmp" | "sigsetjmp" | "siglongjmp" | "__sigsetjmp"
                ) {
                    self.unsupported(format!("'{name}' cannot be used on the device"), span);
                } else if crate::host_library::is_host_library_function(&lib) {
                    self.unsupported_with_help(
                        format!("function '{name}' has no device definition"),
                        format!(
                            "'{lib}' is a host C library function with no device version: call \
                             it before or after the target region and pass its result in"
                        ),
                        span,
                    );
                } else {
                    self.unsupported_with_help(
                        format!("function '{name}' has no device definition"),
                        format!(
                            "define '{name}' in this unit, or declare it 'declare target' where \
                             it is defined (#pragma omp declare target ... end declare target)"
                        ),
                        span,
                    );
                }
                return None;
            }
        };
        let (sig, sret) = match crate::varargs::call_signature(self.cx, fty) {
            Ok(s) => s,
            Err(m) => {
                self.unsupported(format!("cannot call '{name}' on the device: {m}"), span);
                return None;
            }
        };
        let (vals, result_slot) = self.call_args(args, info, fty, sret, span)?;
        let types_ok = vals.len() == sig.params.len()
            && vals
                .iter()
                .zip(&sig.params)
                .all(|(v, t)| self.b.value_type(*v) == *t);
        if !types_ok {
            self.unsupported(
                format!("call to '{name}' does not match its definition's parameters"),
                span,
            );
            return None;
        }
        if !self.cx.module.functions.iter().any(|f| f.name == target)
            && self.cx.callee_def(sym).is_none()
            && let Err(m) = self.cx.declare_external(&target, &sig)
        {
            self.unsupported(m, span);
            return None;
        }
        let fr = self.b.import_function(&target, sig.clone());
        let call = self.b.ins().call(fr, &vals);
        if let Some((slot, align)) = result_slot {
            return Some(Rv::Agg(self.slot_addr(slot, align)));
        }
        let res = self.b.func.dfg.inst_results(call).first().copied();
        Some(match res {
            Some(v) => Rv::S(v),
            None => Rv::Void,
        })
    }

    /// GNU builtins that are single IR operations: byte swaps, bit counts, `fabs`.
    /// `None`: not one of them.
    fn intrinsic(
        &mut self,
        name: &str,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        let base = name.strip_prefix("__builtin_")?;
        if let Some(r) = self.float_intrinsic(base, args, info) {
            return Some(r);
        }
        let op = match base {
            "bswap16" | "bswap32" | "bswap64" => "bswap",
            "clz" | "clzl" | "clzll" => "clz",
            "ctz" | "ctzl" | "ctzll" => "ctz",
            "popcount" | "popcountl" | "popcountll" => "popcnt",
            "fabs" | "fabsf" => "fabs",
            _ => return None,
        };
        let [x] = args else { return None };
        Some((|| {
            let xc = self.class_of_conv(x)?;
            let v = self.scalar(x)?;
            let r = match op {
                "bswap" => self.b.ins().bswap(v),
                "clz" => self.b.ins().clz(v),
                "ctz" => self.b.ins().ctz(v),
                "popcnt" => self.b.ins().popcnt(v),
                _ => self.b.ins().fabs(v),
            };
            let to = self.class(info.ty, span)?;
            Some(Rv::S(self.convert(r, xc, to)))
        })())
    }

    /// GNU math builtins that are exact single IR operations (`__builtin_sqrt`, `fma`,
    /// `fmin`/`fmax`, `copysign`, `floor`, `ceil`, `trunc`, `rint`), in both widths; their
    /// arguments are already converted to the parameter type by sema. `None`: not one of them.
    fn float_intrinsic(
        &mut self,
        base: &str,
        args: &'a [Expr],
        info: ExprInfo,
    ) -> Option<Option<Rv>> {
        use ompcc_ir::Opcode as O;
        let op = match base.strip_suffix('f').unwrap_or(base) {
            "sqrt" => O::Sqrt,
            "floor" => O::Floor,
            "ceil" => O::Ceil,
            "trunc" => O::Ftrunc,
            // rint rounds in the current mode, which on the device is always to nearest even.
            "rint" | "nearbyint" => O::Nearest,
            "fmin" => O::Fmin,
            "fmax" => O::Fmax,
            "copysign" => O::Fcopysign,
            "fma" => O::Fma,
            _ => return None,
        };
        let arity = match op {
            O::Fma => 3,
            O::Fmin | O::Fmax | O::Fcopysign => 2,
            _ => 1,
        };
        let to = ty::scalar(&self.cx.typed.types, info.ty).ok().flatten()?;
        if args.len() != arity || !matches!(to, Scalar::Float(_)) {
            return None;
        }
        Some((|| {
            let mut vals = Vec::with_capacity(3);
            for a in args {
                let c = self.class_of_conv(a)?;
                let v = self.scalar(a)?;
                vals.push(self.convert(v, c, to));
            }
            let ins = self.b.ins();
            let r = match (op, vals.as_slice()) {
                (O::Sqrt, [x]) => ins.sqrt(*x),
                (O::Floor, [x]) => ins.floor(*x),
                (O::Ceil, [x]) => ins.ceil(*x),
                (O::Ftrunc, [x]) => ins.ftrunc(*x),
                (O::Nearest, [x]) => ins.nearest(*x),
                (O::Fmin, [x, y]) => ins.fmin(*x, *y),
                (O::Fmax, [x, y]) => ins.fmax(*x, *y),
                (O::Fcopysign, [x, y]) => ins.fcopysign(*x, *y),
                (O::Fma, [x, y, z]) => ins.fma(*x, *y, *z),
                _ => return None,
            };
            Some(Rv::S(r))
        })())
    }

    /// glibc's `__assert_fail(assertion, file, line, function)` as CUDA's
    /// `__assertfail(assertion, file, line, function, char_size)`: the CUDA driver (or the
    /// emulator) prints the message on stderr and ends the kernel with an assert error, after
    /// which the runtime aborts the program as glibc would. A `trap` follows in case it returns.
    fn assert_fail(&mut self, args: &'a [Expr], span: Span) -> Option<Rv> {
        let mut vals = Vec::new();
        for a in args {
            let cls = self.class_of_conv(a)?;
            let v = self.scalar(a)?;
            let v = match cls {
                Scalar::Int(..) => self.resize(v, Type::I32, false),
                _ => v,
            };
            vals.push(v);
        }
        vals.push(self.b.ins().iconst(Type::I64, 1));
        let sig = ompcc_ir::Signature::new(
            vec![Type::PTR, Type::PTR, Type::I32, Type::PTR, Type::I64],
            vec![],
        );
        if let Err(m) = self.cx.declare_external("__assertfail", &sig) {
            self.unsupported(m, span);
            return None;
        }
        let fr = self.b.import_function("__assertfail", sig);
        self.b.ins().call(fr, &vals);
        self.b.ins().trap();
        Some(Rv::Void)
    }

    /// `printf(fmt, args...)` as `vprintf(fmt, buf)`: each argument stored in a local buffer at
    /// an offset aligned to its size (CUDA's layout), floats already promoted to double.
    fn printf(&mut self, args: &'a [Expr], span: Span) -> Option<Rv> {
        let Some((fmt, rest)) = args.split_first() else {
            self.unsupported("printf needs a format", span);
            return None;
        };
        let fv = self.scalar(fmt)?;
        let buf = self.variadic_args(rest, span)?;
        self.call_vprintf(fv, buf, span).map(Rv::S)
    }

    /// `vprintf(fmt, buf)`: CUDA's device printf with a varargs buffer.
    fn call_vprintf(&mut self, fv: Value, buf: Value, span: Span) -> Option<Value> {
        let sig = ompcc_ir::Signature::new(vec![Type::PTR, Type::PTR], vec![Type::I32]);
        if let Err(m) = self.cx.declare_external("vprintf", &sig) {
            self.unsupported(m, span);
            return None;
        }
        let fr = self.b.import_function("vprintf", sig);
        let call = self.b.ins().call(fr, &[fv, buf]);
        let r = self.b.func.dfg.inst_results(call).first().copied()?;
        Some(r)
    }
}
