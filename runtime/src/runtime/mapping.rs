//! The mapping rules on one device (see `runtime`): entering and exiting list items with
//! their reference counts, the copies they imply, pointer attachment with shadows, and the
//! kernel parameters of a launch translated through the present table.

use super::*;

pub(super) fn check_items(items: &[MapItem<'_>], loc: &str) -> Result<(), RtError> {
    for (i, it) in items.iter().enumerate() {
        let unknown = it.flags & !flags::KNOWN;
        if unknown != 0 {
            return Err(RtError::new(
                loc,
                format!(
                    "map entry {i} ('{}') has unknown flag bits {unknown:#x}",
                    it.name
                ),
            ));
        }
        if let Some(p) = flags::member_of(it.flags)
            && p >= i
        {
            return Err(RtError::new(
                loc,
                format!(
                    "map entry {i} ('{}') is a member of entry {p}, which does not precede it",
                    it.name
                ),
            ));
        }
        if it.begin.checked_add(it.size).is_none() || it.size > isize::MAX as u64 {
            return Err(RtError::new(
                loc,
                format!(
                    "map entry {i} ('{}') has an impossible size {}",
                    it.name, it.size
                ),
            ));
        }
        if it.begin == 0 && it.size > 0 {
            return Err(RtError::new(
                it.loc,
                format!(
                    "'{}' is a NULL address with {} bytes to map",
                    it.name, it.size
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn partial_error(it: &MapItem<'_>, table: &PresentTable, key: u64, d: usize) -> RtError {
    let (oname, orange, oloc) = table
        .get(key)
        .map(|e| {
            (
                e.name.clone(),
                hex_range(e.host_begin, e.size()),
                e.loc.clone(),
            )
        })
        .unwrap_or_default();
    let (name, range) = (&it.name, hex_range(it.begin, it.size));
    let why = if it.flags & flags::IMPLICIT != 0 {
        // OpenMP 5.2: of an implicitly mapped item only the present part has device storage,
        // and the region uses more of it than that.
        format!(
            "the region uses '{name}' {range} (mapped implicitly), but only part of it, \
             '{oname}' {orange} mapped at {oloc}, is present on device {d}; map the rest of it \
             there too (or all of '{name}'), or map none of it before the region"
        )
    } else {
        format!(
            "'{name}' {range} partially overlaps '{oname}' {orange} mapped at {oloc} on device \
             {d}; a list item must be either entirely present or entirely absent (an existing \
             mapping cannot be extended)"
        )
    };
    RtError::new(it.loc, why)
}

pub(super) fn absent_error(it: &MapItem<'_>, d: usize, why: &str) -> RtError {
    RtError::new(
        it.loc,
        format!(
            "'{}' {} is not present on device {d} ({why})",
            it.name,
            hex_range(it.begin, it.size)
        ),
    )
}

impl Device {
    /// Under unified shared memory, a range whose device address is its host address is one
    /// storage: copying it onto itself would change nothing, so nothing moves.
    fn same_storage(&self, host: u64, dev_addr: DevPtr) -> bool {
        self.shared_host && host == dev_addr
    }

    /// Host->device copy of one item's bytes; re-applies attached pointers in the range.
    pub(super) fn copy_in(
        &mut self,
        it: &MapItem<'_>,
        dev_addr: DevPtr,
        info: InfoCategories,
    ) -> Result<(), RtError> {
        let (begin, size) = (it.begin, it.size);
        if self.same_storage(begin, dev_addr) {
            return Ok(());
        }
        // SAFETY: the generated code passes host ranges of live objects (ABI contract).
        let bytes = unsafe { std::slice::from_raw_parts(begin as *const u8, size as usize) };
        let start = Instant::now();
        self.backend.copy_to_device(dev_addr, bytes).map_err(|e| {
            RtError::backend(it.loc, format!("copying '{}' to the device", it.name), e)
        })?;
        let t = start.elapsed();
        profile::with(|p| p.transfer(Direction::HostToDevice, size, t));
        if info.has(InfoCategories::COPIES) {
            log::line(&format!(
                "ompcc-rt: info: {}: copy to device '{}' {} -> {dev_addr:#x}",
                it.loc,
                it.name,
                hex_range(begin, size)
            ));
        }
        let end = begin + size;
        let fixups: Vec<Shadow> = self.shadows.range(begin..end).map(|(_, s)| *s).collect();
        for s in fixups {
            self.backend
                .copy_to_device(s.dev_addr, &s.dev_value.to_le_bytes())
                .map_err(|e| {
                    RtError::backend(
                        it.loc,
                        format!("re-attaching a pointer in '{}'", it.name),
                        e,
                    )
                })?;
        }
        Ok(())
    }

    /// Device->host copy of one item's bytes; restores the host values of attached pointers.
    pub(super) fn copy_out(
        &mut self,
        it: &MapItem<'_>,
        dev_addr: DevPtr,
        info: InfoCategories,
    ) -> Result<(), RtError> {
        if self.same_storage(it.begin, dev_addr) {
            return Ok(());
        }
        // SAFETY: the generated code passes host ranges of live objects (ABI contract).
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(it.begin as *mut u8, it.size as usize) };
        let start = Instant::now();
        self.backend
            .copy_from_device(bytes, dev_addr)
            .map_err(|e| {
                RtError::backend(it.loc, format!("copying '{}' from the device", it.name), e)
            })?;
        let t = start.elapsed();
        profile::with(|p| p.transfer(Direction::DeviceToHost, it.size, t));
        if info.has(InfoCategories::COPIES) {
            log::line(&format!(
                "ompcc-rt: info: {}: copy from device '{}' {dev_addr:#x} -> {}",
                it.loc,
                it.name,
                hex_range(it.begin, it.size)
            ));
        }
        for (&host_ptr, s) in self.shadows.range(it.begin..it.begin + it.size) {
            let end = host_ptr + 8;
            if end <= it.begin + it.size {
                // SAFETY: the pointer variable lies inside the range just written.
                unsafe { (host_ptr as *mut u64).write_unaligned(s.host_value) };
            }
        }
        Ok(())
    }

    /// The entry half of a construct.
    pub(super) fn enter(
        &mut self,
        d: usize,
        items: &[MapItem<'_>],
        how: Enter,
        info: InfoCategories,
    ) -> Result<(), RtError> {
        let structured = how != Enter::Dynamic;
        // Per item: whether its storage was created by this construct.
        let mut done: Vec<bool> = Vec::with_capacity(items.len());
        let mut created: HashSet<u64> = HashSet::new();
        for it in items {
            let new = if it.flags & (flags::LITERAL | flags::ATTACH) != 0 || it.size == 0 {
                // Nothing to create: by-value items, attachments (done below) and zero-length
                // sections, which only translate addresses.
                false
            } else if let Some(parent) = flags::member_of(it.flags) {
                let key = match self.table.lookup(it.begin, it.size) {
                    Lookup::Inside(k) => k,
                    _ => {
                        return Err(RtError::new(
                            it.loc,
                            format!(
                                "struct member '{}' {} lies outside its parent '{}'",
                                it.name,
                                hex_range(it.begin, it.size),
                                items[parent].name
                            ),
                        ));
                    }
                };
                let new = done[parent];
                if it.flags & flags::TO != 0 && (new || it.flags & flags::ALWAYS != 0) {
                    let dev_addr = self.table.get(key).map_or(0, |e| e.translate(it.begin));
                    self.copy_in(it, dev_addr, info)?;
                }
                new
            } else {
                self.enter_one(d, it, structured, info, &mut created)?
            };
            if it.size == 0
                && it.flags & (flags::LITERAL | flags::ATTACH) == 0
                && info.has(InfoCategories::MAPS)
            {
                self.log_zero_length(d, it);
            }
            done.push(new);
        }
        for it in items.iter().filter(|it| it.flags & flags::ATTACH != 0) {
            self.attach(d, it, &created, how == Enter::Launch, info)?;
        }
        Ok(())
    }

    fn enter_one(
        &mut self,
        d: usize,
        it: &MapItem<'_>,
        structured: bool,
        info: InfoCategories,
        created: &mut HashSet<u64>,
    ) -> Result<bool, RtError> {
        let (key, new) = match self.table.lookup(it.begin, it.size) {
            Lookup::Partial(k) => return Err(partial_error(it, &self.table, k, d)),
            Lookup::Inside(k) => {
                let e = self.table.get_mut(k).expect("lookup returned a live key");
                if structured {
                    e.structured_refs += 1;
                } else {
                    e.dynamic_refs.increment();
                }
                (k, created.contains(&k))
            }
            Lookup::Absent if it.flags & flags::PRESENT != 0 => {
                return Err(absent_error(
                    it,
                    d,
                    "the map clause has the `present` modifier",
                ));
            }
            Lookup::Absent => {
                // unified shared memory: the device uses the host storage itself
                let dev_begin = if self.shared_host {
                    it.begin
                } else {
                    self.backend.alloc(it.size).map_err(|e| {
                        RtError::backend(
                            it.loc,
                            format!("allocating {} bytes for '{}'", it.size, it.name),
                            e,
                        )
                    })?
                };
                let key = self.table.insert(Entry {
                    host_begin: it.begin,
                    host_end: it.begin + it.size,
                    dev_begin,
                    dynamic_refs: RefCount::Finite(u64::from(!structured)),
                    structured_refs: u64::from(structured),
                    owned: !self.shared_host,
                    shared: self.shared_host,
                    name: it.name.to_string(),
                    loc: it.loc.to_string(),
                });
                created.insert(key);
                (key, true)
            }
        };
        let e = self.table.get(key).expect("entry just found or inserted");
        let dev_addr = e.translate(it.begin);
        if info.has(InfoCategories::MAPS) {
            log::line(&format!(
                "ompcc-rt: info: {}: map {} '{}' {} -> device {d} {dev_addr:#x} ({}; refs \
                 dynamic={} structured={})",
                it.loc,
                flags::describe(it.flags),
                it.name,
                hex_range(it.begin, it.size),
                if new { "new" } else { "present" },
                e.dynamic_refs,
                e.structured_refs
            ));
        }
        if it.flags & flags::TO != 0 && (new || it.flags & flags::ALWAYS != 0) {
            self.copy_in(it, dev_addr, info)?;
        }
        Ok(new)
    }

    /// The `OMPCC_INFO=maps` line of a zero-length section (an unmapped pointer a region uses
    /// is one, implicitly): the device address it translates to, or that nothing is mapped
    /// there, so the device gets the host address.
    fn log_zero_length(&self, d: usize, it: &MapItem<'_>) {
        let what = match self.table.lookup(it.begin, 0) {
            Lookup::Inside(k) => format!(
                "-> device {d} {:#x} (present in '{}')",
                self.table.get(k).map_or(0, |e| e.translate(it.base)),
                self.table.get(k).map_or("?", |e| e.name.as_str())
            ),
            _ if self.shared_host => format!(
                "not mapped on device {d}: the device gets the host address (unified shared \
                 memory)"
            ),
            _ => format!(
                "not mapped on device {d}: the device gets the host address (map the data it \
                 points to)"
            ),
        };
        log::line(&format!(
            "ompcc-rt: info: {}: map {} '{}' zero-length section at {:#x} {what}",
            it.loc,
            flags::describe(it.flags),
            it.name,
            it.begin
        ));
    }

    /// Pointer attachment for one `ATTACH` item (see [`flags::ATTACH`]).
    /// On a data construct a pointer that is not mapped is not attached (OpenMP 5.2: only a
    /// present pointer is); on a launch the kernel would read the host address through it,
    /// so that is an error naming the item and its construct.
    fn attach(
        &mut self,
        d: usize,
        it: &MapItem<'_>,
        created: &HashSet<u64>,
        launch: bool,
        info: InfoCategories,
    ) -> Result<(), RtError> {
        let ptr_key = match self.table.lookup(it.base, 8) {
            Lookup::Inside(k) => k,
            _ if launch => {
                return Err(RtError::new(
                    it.loc,
                    format!(
                        "cannot attach pointer '{}': the pointer at {:#x} is not mapped on \
                         device {d} (map the struct or array that holds it)",
                        it.name, it.base
                    ),
                ));
            }
            _ => return Ok(()),
        };
        let pointee_key = match self.table.lookup(it.begin, 0) {
            Lookup::Inside(k) => k,
            _ => {
                return Err(RtError::new(
                    it.loc,
                    format!(
                        "cannot attach pointer '{}': its pointee at {:#x} is not mapped on \
                         device {d}",
                        it.name, it.begin
                    ),
                ));
            }
        };
        if self.table.get(ptr_key).is_some_and(|e| e.shared) {
            // unified shared memory: the device reads the host's pointer itself, which points
            // at host storage the device can use; writing a device address there would
            // change the host's pointer
            if info.has(InfoCategories::MAPS) {
                log::line(&format!(
                    "ompcc-rt: info: {}: attach '{}' not needed: the pointer is shared with \
                     the host (unified shared memory)",
                    it.loc, it.name
                ));
            }
            return Ok(());
        }
        let newly = created.contains(&ptr_key) || created.contains(&pointee_key);
        if !newly && it.flags & flags::ALWAYS == 0 {
            return Ok(());
        }
        // SAFETY: `base` is the address of a live pointer variable (ABI contract).
        let host_value = unsafe { (it.base as *const u64).read_unaligned() };
        let pointee = self.table.get(pointee_key).expect("live key");
        let dev_value = host_value.wrapping_add(pointee.translate(it.begin).wrapping_sub(it.begin));
        let dev_addr = self
            .table
            .get(ptr_key)
            .expect("live key")
            .translate(it.base);
        self.backend
            .copy_to_device(dev_addr, &dev_value.to_le_bytes())
            .map_err(|e| RtError::backend(it.loc, format!("attaching pointer '{}'", it.name), e))?;
        self.shadows.insert(
            it.base,
            Shadow {
                host_value,
                dev_addr,
                dev_value,
            },
        );
        if info.has(InfoCategories::MAPS) {
            log::line(&format!(
                "ompcc-rt: info: {}: attach '{}' at device {dev_addr:#x} = {dev_value:#x}",
                it.loc, it.name
            ));
        }
        Ok(())
    }

    /// The exit half of a construct.
    pub(super) fn exit(
        &mut self,
        d: usize,
        items: &[MapItem<'_>],
        release: Release,
        info: InfoCategories,
    ) -> Result<(), RtError> {
        let storage =
            |it: &MapItem<'_>| it.flags & (flags::LITERAL | flags::ATTACH) == 0 && it.size > 0;
        let mut dying: Vec<u64> = Vec::new();
        for it in items.iter().rev() {
            if !storage(it) || flags::member_of(it.flags).is_some() {
                continue;
            }
            let key = match self.table.lookup(it.begin, it.size) {
                Lookup::Inside(k) => k,
                Lookup::Partial(k) => return Err(partial_error(it, &self.table, k, d)),
                Lookup::Absent if it.flags & flags::PRESENT != 0 => {
                    return Err(absent_error(
                        it,
                        d,
                        "the map clause has the `present` modifier",
                    ));
                }
                Lookup::Absent => continue,
            };
            let e = self.table.get_mut(key).expect("live key");
            match release {
                // OpenMP 5.2 (5.8.3): `delete` sets the reference count to zero, the
                // enclosing constructs' references included, so the mapping ends here.
                _ if it.flags & flags::DELETE != 0 => {
                    e.dynamic_refs.clear();
                    e.structured_refs = 0;
                }
                Release::Structured => e.structured_refs = e.structured_refs.saturating_sub(1),
                Release::Dynamic => e.dynamic_refs.decrement(),
            }
            if info.has(InfoCategories::MAPS) {
                log::line(&format!(
                    "ompcc-rt: info: {}: unmap {} '{}' {} on device {d} (refs dynamic={} \
                     structured={}{})",
                    it.loc,
                    flags::describe(it.flags),
                    it.name,
                    hex_range(it.begin, it.size),
                    e.dynamic_refs,
                    e.structured_refs,
                    if e.is_dead() { "; removed" } else { "" }
                ));
            }
            if e.is_dead() && !dying.contains(&key) {
                dying.push(key);
            }
        }
        for it in items.iter().rev() {
            if !storage(it) || it.flags & flags::FROM == 0 {
                continue;
            }
            let Lookup::Inside(key) = self.table.lookup(it.begin, it.size) else {
                continue;
            };
            if it.flags & flags::ALWAYS != 0 || dying.contains(&key) {
                let dev_addr = self.table.get(key).expect("live key").translate(it.begin);
                self.copy_out(it, dev_addr, info)?;
            }
        }
        for key in dying {
            let Some(e) = self.table.remove(key) else {
                continue;
            };
            let stale: Vec<u64> = self
                .shadows
                .range(e.host_begin..e.host_end)
                .map(|(k, _)| *k)
                .collect();
            for k in stale {
                self.shadows.remove(&k);
            }
            if e.owned {
                self.backend.free(e.dev_begin).map_err(|err| {
                    RtError::backend(
                        &e.loc,
                        format!("freeing the device copy of '{}'", e.name),
                        err,
                    )
                })?;
            }
        }
        Ok(())
    }

    /// The pointer parameters that reach a kernel as host addresses: zero-length sections
    /// (an implicitly mapped pointer is one) whose address no mapped storage contains.
    pub(super) fn unmapped_pointer_params(&self, items: &[MapItem<'_>]) -> Vec<(String, u64)> {
        if self.shared_host {
            // host addresses are what kernels use under unified shared memory
            return Vec::new();
        }
        items
            .iter()
            .filter(|it| {
                it.flags & flags::TARGET_PARAM != 0
                    && it.flags & flags::LITERAL == 0
                    && it.size == 0
                    && it.base != 0
                    && self.table.lookup(it.begin, 0) == Lookup::Absent
            })
            .map(|it| (it.name.to_string(), it.base))
            .collect()
    }

    /// Kernel parameter bytes from the `TARGET_PARAM` items.
    pub(super) fn kernel_params(&self, items: &[MapItem<'_>]) -> Result<Vec<Vec<u8>>, RtError> {
        let mut params = Vec::new();
        for it in items
            .iter()
            .filter(|it| it.flags & flags::TARGET_PARAM != 0)
        {
            if it.flags & flags::LITERAL != 0 {
                // SAFETY: `begin` points at `size` readable bytes (ABI contract).
                let bytes =
                    unsafe { std::slice::from_raw_parts(it.begin as *const u8, it.size as usize) };
                params.push(bytes.to_vec());
                continue;
            }
            let value = match self.table.lookup(it.begin, it.size) {
                Lookup::Inside(k) => self.table.get(k).expect("live key").translate(it.base),
                // An unmapped zero-length section keeps its host value (OpenMP 5.2).
                _ if it.size == 0 => it.base,
                _ => {
                    return Err(RtError::new(
                        it.loc,
                        format!("internal: kernel argument '{}' is not mapped", it.name),
                    ));
                }
            };
            params.push(value.to_le_bytes().to_vec());
        }
        Ok(params)
    }
}
