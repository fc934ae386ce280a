//! Lowering of C operators: unary and binary arithmetic, `++`/`--`, assignment (compound
//! included) and `?:`, with C's overflow rules carried as IR arithmetic flags.

use super::*;

impl<'a> FnLower<'_, 'a, '_> {
    pub(super) fn unary(
        &mut self,
        op: UnaryOp,
        x: &'a Expr,
        info: ExprInfo,
        span: Span,
    ) -> Option<Ev> {
        if let Some(c) = self.complex_unary(op, x, info, span) {
            return c;
        }
        let r = |v| Some(Ev::R(Rv::S(v)));
        match op {
            UnaryOp::AddrOf => match self.lvalue(x)? {
                Lv::Mem(addr, _) => r(self.generic_ptr(addr)),
                Lv::Func(sym) => r(self.func_ptr(sym, span)?),
                Lv::Bit { .. } => {
                    self.unsupported("cannot take the address of a bitfield", span);
                    None
                }
            },
            UnaryOp::Deref => {
                let xi = self.info(x)?;
                if self.cx.typed.types.is_function(info.ty) {
                    // `*f` of a function designator is the designator.
                    if let Some(Ev::L(Lv::Func(s))) = self.eval(x) {
                        return Some(Ev::L(Lv::Func(s)));
                    }
                    self.unsupported(
                        "calls through function pointers are not supported on the device yet",
                        span,
                    );
                    return None;
                }
                let _ = xi;
                let p = self.scalar(x)?;
                let align = self.align_of(info.ty);
                Some(Ev::L(Lv::Mem(
                    Addr {
                        ptr: p,
                        space: AddrSpace::Generic,
                        align,
                    },
                    info.ty,
                )))
            }
            UnaryOp::Plus => {
                let v = self.scalar(x)?;
                r(v)
            }
            UnaryOp::Minus => {
                let cls = self.class_of_conv(x)?;
                let v = self.scalar(x)?;
                match cls {
                    Scalar::Float(_) => r(self.b.ins().fneg(v)),
                    _ => r(self.b.ins().neg(v)),
                }
            }
            UnaryOp::BitNot => {
                let v = self.scalar(x)?;
                r(self.b.ins().not(v))
            }
            UnaryOp::Not => {
                let cls = self.class_of_conv(x)?;
                let v = self.scalar(x)?;
                let nz = self.nonzero(v, cls);
                let t = self.b.ins().iconst(Type::I1, 1);
                let z = self.b.ins().xor(nz, t);
                r(self.b.ins().zext(Type::I32, z))
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                self.incdec(op, x, span).map(|v| Ev::R(Rv::S(v)))
            }
            UnaryOp::Real | UnaryOp::Imag => None,
        }
    }

    fn incdec(&mut self, op: UnaryOp, x: &'a Expr, span: Span) -> Option<Value> {
        let xi = self.info(x)?;
        let lv = self.lvalue(x)?;
        if let Some(r) = self.atomic_incdec(op, x, &lv, span) {
            return r;
        }
        let cls = self.class(xi.ty, span)?;
        let old = self.load_lv(&lv);
        let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
        let new = match cls {
            Scalar::Ptr => {
                let elem = self.cx.typed.types.pointee(xi.ty)?;
                let one = self.b.ins().iconst(Type::I64, 1);
                let base = Addr {
                    ptr: old,
                    space: AddrSpace::Generic,
                    align: 1,
                };
                self.element_addr_value(base, one, Scalar::LONG, elem, !inc, span)?
                    .ptr
            }
            Scalar::Float(t) => {
                let one = self.b.ins().fconst(t, 1.0);
                if inc {
                    self.b.ins().fadd(old, one)
                } else {
                    self.b.ins().fsub(old, one)
                }
            }
            Scalar::Bool => {
                if inc {
                    self.b.ins().iconst(Type::I8, 1)
                } else {
                    let one = self.b.ins().iconst(Type::I8, 1);
                    self.b.ins().xor(old, one)
                }
            }
            Scalar::Int(t, signed) => {
                let one = self.b.ins().iconst(t, 1);
                // `i++` on an `int` or `long` is `i + 1` in that type: overflow is undefined.
                let flags = ArithFlags {
                    nsw: signed_overflow_undefined(Scalar::Int(t, signed)),
                };
                let op = if inc { Opcode::Iadd } else { Opcode::Isub };
                self.b.ins().binary_flags(op, flags, old, one)
            }
        };
        let stored = self.store_lv(&lv, new);
        Some(if matches!(op, UnaryOp::PostInc | UnaryOp::PostDec) {
            old
        } else {
            stored
        })
    }

    pub(super) fn binary(
        &mut self,
        e: &'a Expr,
        op: BinaryOp,
        l: &'a Expr,
        r: &'a Expr,
        info: ExprInfo,
    ) -> Option<Rv> {
        use BinaryOp::*;
        let span = e.span;
        if let Some(c) = self.complex_binary(op, l, r, info, span) {
            return c;
        }
        match op {
            LogAnd | LogOr => return Some(Rv::S(self.bool_value(e))),
            Lt | Gt | Le | Ge | Eq | Ne => {
                let c = self.compare(op, l, r)?;
                return Some(Rv::S(self.b.ins().zext(Type::I32, c)));
            }
            _ => {}
        }
        let types = &self.cx.typed.types;
        let li = self.info(l)?;
        let ri = self.info(r)?;
        let lp = types.is_pointer(li.conv);
        let rp = types.is_pointer(ri.conv);
        if matches!(op, Add | Sub) && (lp || rp) {
            if lp && rp {
                // pointer difference, in elements
                let elem = types.pointee(li.conv)?;
                let a = self.scalar(l)?;
                let b = self.scalar(r)?;
                let a = self.b.ins().ptrtoint(Type::I64, a);
                let b = self.b.ins().ptrtoint(Type::I64, b);
                let d = self.b.ins().isub(a, b);
                let size = self.sizeof_value(elem, span)?;
                let q = self.b.ins().sdiv(d, size);
                let cls = self.class(info.ty, span)?;
                return Some(Rv::S(self.convert(q, Scalar::LONG, cls)));
            }
            let (p, i, pt) = if lp { (l, r, li.conv) } else { (r, l, ri.conv) };
            let elem = types.pointee(pt)?;
            let pv = self.scalar(p)?;
            let base = Addr {
                ptr: pv,
                space: AddrSpace::Generic,
                align: 1,
            };
            let a = self.element_addr(base, i, elem, op == Sub, span)?;
            return Some(Rv::S(a.ptr));
        }
        let cls = self.class_of_conv(l)?;
        let a = self.scalar(l)?;
        let rc = self.class_of_conv(r)?;
        let b = self.scalar(r)?;
        Some(Rv::S(self.arith_c(op, cls, a, rc, b, span)?))
    }

    /// `a op b` computed in class `cls` (`b` of class `rc`, only different for shifts), with
    /// wrapping integer arithmetic (atomics: C11 defines their signed overflow to wrap).
    pub(crate) fn arith(
        &mut self,
        op: BinaryOp,
        cls: Scalar,
        a: Value,
        rc: Scalar,
        b: Value,
        span: Span,
    ) -> Option<Value> {
        self.arith_flags(op, cls, a, rc, b, span, false)
    }

    /// `arith` for a C operator `a op b`: signed `int`/`long` overflow is undefined there, so
    /// `+ - *` in those classes say `nsw`.
    pub(crate) fn arith_c(
        &mut self,
        op: BinaryOp,
        cls: Scalar,
        a: Value,
        rc: Scalar,
        b: Value,
        span: Span,
    ) -> Option<Value> {
        self.arith_flags(op, cls, a, rc, b, span, true)
    }

    #[allow(clippy::too_many_arguments)]
    fn arith_flags(
        &mut self,
        op: BinaryOp,
        cls: Scalar,
        a: Value,
        rc: Scalar,
        b: Value,
        span: Span,
        c_semantics: bool,
    ) -> Option<Value> {
        use BinaryOp::*;
        if let Scalar::Float(_) = cls {
            let b = self.convert(b, rc, cls);
            let ins = self.b.ins();
            return Some(match op {
                Add => ins.fadd(a, b),
                Sub => ins.fsub(a, b),
                Mul => ins.fmul(a, b),
                Div => ins.fdiv(a, b),
                _ => {
                    self.unsupported("invalid floating-point operation", span);
                    return None;
                }
            });
        }
        let signed = cls.is_signed();
        if matches!(op, Shl | Shr) {
            let amount = self.resize(b, cls.ty(), false);
            let ins = self.b.ins();
            return Some(match op {
                Shl => ins.shl(a, amount),
                _ if signed => ins.ashr(a, amount),
                _ => ins.lshr(a, amount),
            });
        }
        let b = self.convert(b, rc, cls);
        let flags = ArithFlags {
            nsw: c_semantics && signed_overflow_undefined(cls),
        };
        let ins = self.b.ins();
        Some(match op {
            Add => ins.binary_flags(Opcode::Iadd, flags, a, b),
            Sub => ins.binary_flags(Opcode::Isub, flags, a, b),
            Mul => ins.binary_flags(Opcode::Imul, flags, a, b),
            Div if signed => ins.sdiv(a, b),
            Div => ins.udiv(a, b),
            Rem if signed => ins.srem(a, b),
            Rem => ins.urem(a, b),
            BitAnd => ins.and(a, b),
            BitOr => ins.or(a, b),
            BitXor => ins.xor(a, b),
            _ => {
                self.unsupported("invalid integer operation", span);
                return None;
            }
        })
    }

    pub(super) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        l: &'a Expr,
        r: &'a Expr,
        span: Span,
    ) -> Option<Rv> {
        let li = self.info(l)?;
        let lt = li.ty;
        let rt = self.info(r)?.ty;
        if op.is_some() && (self.is_complex(lt) || self.is_complex(rt)) {
            return self.complex_compound(op?, l, r, span);
        }
        if ty::by_address(&self.cx.typed.types, lt) {
            // Evaluate the source first: `a = f()` must not see a half-written `a`.
            let src = self.agg_value(r)?;
            let dst = match self.lvalue(l)? {
                Lv::Mem(a, _) => a,
                _ => return None,
            };
            self.copy(dst, src, lt, span);
            return Some(Rv::Agg(dst));
        }
        let Some(bop) = op else {
            let v = self.scalar(r)?;
            let lv = self.lvalue(l)?;
            return Some(Rv::S(self.store_lv(&lv, v)));
        };
        let lv = self.lvalue(l)?;
        if let Some(r) = self.atomic_compound(bop, lt, &lv, r, span) {
            return r.map(Rv::S);
        }
        let lc = self.class(lt, span)?;
        let old = self.load_lv(&lv);
        let new = if lc == Scalar::Ptr {
            let elem = self.cx.typed.types.pointee(lt)?;
            let base = Addr {
                ptr: old,
                space: AddrSpace::Generic,
                align: 1,
            };
            self.element_addr(base, r, elem, bop == BinaryOp::Sub, span)?
                .ptr
        } else {
            let rc = self.class_of_conv(r)?;
            let cc = if matches!(bop, BinaryOp::Shl | BinaryOp::Shr) {
                ty::promote(lc)
            } else {
                rc
            };
            let a = self.convert(old, lc, cc);
            let b = self.scalar(r)?;
            let res = self.arith_c(bop, cc, a, rc, b, span)?;
            self.convert(res, cc, lc)
        };
        Some(Rv::S(self.store_lv(&lv, new)))
    }

    pub(super) fn conditional(
        &mut self,
        c: &'a Expr,
        t: Option<&'a Expr>,
        f: &'a Expr,
        info: ExprInfo,
        span: Span,
    ) -> Option<Rv> {
        let types = &self.cx.typed.types;
        let void = types.is_void(info.ty);
        let agg = ty::by_address(types, info.ty);
        let tb = self.b.create_block();
        let fb = self.b.create_block();
        let join = self.b.create_block();
        let cls = if void {
            None
        } else if agg {
            Some(Scalar::Ptr)
        } else {
            Some(self.class(info.ty, span)?)
        };
        let param = cls.map(|c| self.b.append_block_param(join, c.ty()));
        // GNU `c ?: f`: the condition's value is the true result.
        let mut gnu_value = None;
        match t {
            Some(_) => self.branch(c, tb, fb),
            None => {
                let cc = self.class_of_conv(c)?;
                let v = self.scalar(c)?;
                let nz = self.nonzero(v, cc);
                gnu_value = Some((v, cc));
                self.b.ins().brif(nz, tb, &[], fb, &[]);
            }
        }
        for (blk, arm) in [(tb, t), (fb, Some(f))] {
            self.b.switch_to_block(blk);
            let v = match (arm, gnu_value) {
                (Some(x), _) => self.arm_value(x, void, agg),
                (None, Some((v, cc))) => cls.map(|to| self.convert(v, cc, to)),
                (None, None) => None,
            };
            self.ensure_open();
            match (param, v) {
                (Some(_), Some(v)) => {
                    self.b.ins().jump(join, &[v]);
                }
                (None, _) => {
                    self.b.ins().jump(join, &[]);
                }
                (Some(_), None) => {
                    // the arm failed (already reported): keep the IR well formed
                    self.b.ins().unreachable();
                }
            }
        }
        self.b.switch_to_block(join);
        Some(match (param, agg) {
            (None, _) => Rv::Void,
            (Some(p), true) => Rv::Agg(Addr {
                ptr: p,
                space: AddrSpace::Generic,
                align: self.align_of(info.ty),
            }),
            (Some(p), false) => Rv::S(p),
        })
    }

    fn arm_value(&mut self, x: &'a Expr, void: bool, agg: bool) -> Option<Value> {
        if void {
            self.effect(x);
            return None;
        }
        if agg {
            let a = self.agg_value(x)?;
            return Some(self.generic_ptr(a));
        }
        self.scalar(x)
    }
}

/// Whether C leaves signed overflow of `+ - *` in class `cls` undefined: signed `int`,
/// `long`, `long long` (narrower types are computed in `int` after promotion, so they never
/// reach here as a class; `i8`/`i16` classes come from `++`/`--`, which convert back and wrap).
fn signed_overflow_undefined(cls: Scalar) -> bool {
    matches!(cls, Scalar::Int(Type::I32 | Type::I64, true))
}
