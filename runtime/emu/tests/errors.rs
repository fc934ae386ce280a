//! Error reporting: faults name kernel, block, thread, address and PTX line; malformed or
//! unsupported PTX gives errors with the line; API misuse gives errors, never panics.

mod common;

use common::{Env, p, ptx_dir};
use ompcc_emu::{DevPtr, Device, EmuError, Module};

fn line_of(file: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(ptx_dir().join(file)).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle in file") as u32
        + 1
}

#[test]
fn out_of_bounds_global_load_names_everything() {
    let mut e = Env::new("oob");
    let n = 256usize;
    let input = e.upload(&vec![7u32; n]);
    let out = e.zeros(n * 4);
    // in range: every thread copies
    e.run(
        "read_past",
        2,
        128,
        &[&p(input), &p(out), &0u32.to_le_bytes()],
    );
    let err = e
        .launch(
            "read_past",
            [2, 1, 1],
            [128, 1, 1],
            &[&p(input), &p(out), &16u32.to_le_bytes()],
        )
        .unwrap_err();
    let line = line_of("oob.ptx", "ld.global.u32 \t%r7, [%rd5];");
    let EmuError::Fault { site, msg } = &err else {
        panic!("expected a fault, got {err}")
    };
    assert_eq!(site.kernel, "read_past");
    assert_eq!(site.block, [1, 0, 0]);
    assert_eq!(site.thread, [112, 0, 0]);
    assert_eq!(site.ptx_line, line);
    assert_eq!(site.source, Some(("oob.c".to_string(), 7)));
    let addr = format!("0x{:x}", input.0 + 4 * n as u64);
    assert!(
        msg.contains("out-of-bounds global load of 4 bytes") && msg.contains(&addr),
        "{msg}"
    );
    let text = err.to_string();
    for part in [
        "kernel `read_past`",
        "block (1,0,0)",
        "thread (112,0,0)",
        &addr,
        &format!("PTX line {line}"),
        "oob.c:7",
    ] {
        assert!(text.contains(part), "`{part}` missing in: {text}");
    }
}

#[test]
fn misaligned_null_and_shared_faults() {
    let mut e = Env::new("oob");
    let buf = e.zeros(64);
    let err = e
        .launch("misaligned", [1, 1, 1], [1, 1, 1], &[&p(buf)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("misaligned global load of 4 bytes")
            && err.contains(&format!("0x{:x}", buf.0 + 2)),
        "{err}"
    );
    let err = e
        .launch("null_deref", [1, 1, 1], [1, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("unmapped global address 0x0"), "{err}");
    e.launch("shared_oob", [1, 1, 1], [1, 1, 1], &[&60u32.to_le_bytes()])
        .unwrap();
    let err = e
        .launch("shared_oob", [1, 1, 1], [1, 1, 1], &[&64u32.to_le_bytes()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("out-of-bounds shared store of 4 bytes at address 0x40"),
        "{err}"
    );
    let err = e
        .launch("do_trap", [1, 1, 1], [1, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("trap instruction executed") && err.contains("kernel `do_trap`"),
        "{err}"
    );
    let err = e
        .launch("far_address", [1, 1, 1], [1, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unmapped global address 0xfffffffffffffff0"),
        "{err}"
    );
}

#[test]
fn use_after_free_faults() {
    let mut e = Env::new("oob");
    let input = e.upload(&[1u32; 32]);
    let out = e.zeros(32 * 4);
    e.dev.free(input).unwrap();
    let err = e
        .launch(
            "read_past",
            [1, 1, 1],
            [32, 1, 1],
            &[&p(input), &p(out), &0u32.to_le_bytes()],
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("unmapped global address"), "{err}");
    assert!(e.dev.free(input).is_err());
}

fn parse_err(src: &str) -> (u32, String) {
    match Module::parse(src) {
        Err(EmuError::Parse { line, msg } | EmuError::Decode { line, msg }) => (line, msg),
        Err(e) => panic!("unexpected error kind: {e}"),
        Ok(_) => panic!("expected an error for:\n{src}"),
    }
}

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

#[test]
fn parse_and_decode_errors_carry_the_line() {
    let cases: &[(&str, u32, &str)] = &[
        (
            ".visible .entry k()\n{\n\tmov.u32 %r1, 1;\n\tret;\n}\n",
            6,
            "undeclared register `%r1`",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tbra $L_nowhere;\n}\n",
            7,
            "unknown label",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tfrobnicate.u32 %r0, %r1;\n}\n",
            7,
            "unsupported instruction `frobnicate.u32`",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r0 %r1;\n}\n",
            7,
            "expected `,`",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r0, #1;\n}\n",
            7,
            "unexpected character",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tret;\n",
            7,
            "unterminated function body",
        ),
        (
            ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tld.global.u32 %rd0, [nosuch];\n}\n",
            7,
            "undeclared name `nosuch`",
        ),
        (
            ".visible .entry k()\n{\n\tcall.uni foo;\n}\n",
            6,
            "unknown function `foo`",
        ),
    ];
    for (body, line, msg) in cases {
        let (l, m) = parse_err(&format!("{HEAD}{body}"));
        assert_eq!(l, *line, "{m}");
        assert!(m.contains(msg), "expected `{msg}` in `{m}`");
    }
    let (l, m) = parse_err(".version 7.0\n.target sm_70\n.address_size 32\n");
    assert_eq!(l, 3);
    assert!(m.contains("address_size"));
}

#[test]
fn api_misuse_is_an_error() {
    let mut e = Env::new("saxpy");
    let x = e.zeros(16);
    let args: [&[u8]; 4] = [&4u32.to_le_bytes(), &1f32.to_le_bytes(), &p(x), &p(x)];
    assert!(
        e.launch("nosuch", [1, 1, 1], [1, 1, 1], &args)
            .unwrap_err()
            .to_string()
            .contains("no kernel named")
    );
    assert!(e.launch("saxpy", [1, 1, 1], [2048, 1, 1], &args).is_err());
    assert!(e.launch("saxpy", [0, 1, 1], [1, 1, 1], &args).is_err());
    assert!(e.launch("saxpy", [1, 1, 1], [1, 1, 1], &args[..3]).is_err());
    let short: [&[u8]; 4] = [&4u16.to_le_bytes(), &1f32.to_le_bytes(), &p(x), &p(x)];
    assert!(
        e.launch("saxpy", [1, 1, 1], [1, 1, 1], &short)
            .unwrap_err()
            .to_string()
            .contains("parameter 0")
    );
    assert!(e.dev.copy_to_device(DevPtr(x.0 + 8), &[0u8; 16]).is_err());
    let mut b = [0u8; 4];
    assert!(e.dev.copy_from_device(&mut b, DevPtr(12345)).is_err());
    assert!(e.dev.free(DevPtr(x.0 + 4)).is_err());
    let other = Device::new();
    assert!(
        other
            .launch(&e.m, "saxpy", [1, 1, 1], [1, 1, 1], 0, &args)
            .unwrap_err()
            .to_string()
            .contains("another device")
    );
    assert_eq!(e.m.module().kernel_params("saxpy").unwrap().len(), 4);
    assert_eq!(e.m.module().kernels(), vec!["saxpy"]);
    let info = e.m.module().kernel_info("saxpy").unwrap();
    assert_eq!(
        (info.param_bytes, info.local_bytes, info.static_shared_bytes),
        (24, 0, 0)
    );
    assert_eq!(info.params[1], ompcc_emu::ParamInfo { offset: 4, size: 4 });
    assert_eq!(info.virtual_registers, 2 + 5 + 6 + 8);
}

/// Mutated inputs never panic: every truncation of every test file parses or fails cleanly.
#[test]
fn truncated_inputs_never_panic() {
    for entry in std::fs::read_dir(ptx_dir()).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut cut = text.len();
        while cut > 0 {
            let mut c = cut;
            while !text.is_char_boundary(c) {
                c -= 1;
            }
            let _ = Module::parse(&text[..c]);
            cut = cut.saturating_sub(97);
        }
    }
}

#[test]
fn block_instruction_limit_stops_endless_work() {
    let mut e = Env::new("sync");
    let out = e.zeros(32 * 8);
    e.dev.set_block_instruction_limit(Some(10_000));
    let err = e
        .launch("uneven_then_shuffle", [1, 1, 1], [32, 1, 1], &[&p(out)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("more than 10000 warp instructions")
            && err.contains("kernel `uneven_then_shuffle`"),
        "{err}"
    );
    e.dev.set_block_instruction_limit(None);
    e.launch("uneven_then_shuffle", [1, 1, 1], [32, 1, 1], &[&p(out)])
        .unwrap();
}

#[test]
fn device_and_modules_can_be_shared_between_host_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Device>();
    assert_send_sync::<ompcc_emu::LoadedModule>();
    assert_send_sync::<Module>();
}

/// Mutated PTX (lines deleted, duplicated or swapped, numbers made extreme) never panics the parser, the decoder or
/// the interpreter: each mutant that still decodes is launched with small zeroed buffers and
/// an instruction limit, and may fail only with an error value.
#[test]
fn mutated_programs_never_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut files: Vec<_> = std::fs::read_dir(ptx_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut launched = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..40 {
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            for _ in 0..1 + rand(3) {
                let (i, j) = (rand(l.len()), rand(l.len()));
                match rand(4) {
                    0 => {
                        l.remove(i);
                    }
                    1 => {
                        let dup = l[j].clone();
                        l.insert(i, dup);
                    }
                    2 => l.swap(i, j),
                    _ => {
                        // replace the first number on the line with an extreme one
                        const NUMS: [&str; 8] = [
                            "0",
                            "1",
                            "-1",
                            "31",
                            "64",
                            "4294967295",
                            "18446744073709551615",
                            "-9223372036854775808",
                        ];
                        let line = l[i].clone();
                        if let Some(pos) = line.find(|c: char| c.is_ascii_digit()) {
                            let end = line[pos..]
                                .find(|c: char| !c.is_ascii_alphanumeric())
                                .map_or(line.len(), |e| pos + e);
                            l[i] = format!(
                                "{}{}{}",
                                &line[..pos],
                                NUMS[rand(NUMS.len())],
                                &line[end..]
                            );
                        }
                    }
                }
            }
            let Ok(m) = Module::parse(&l.join("\n")) else {
                continue;
            };
            let mut dev = Device::new();
            dev.set_workers(1);
            dev.set_printf_sink(Box::new(std::io::sink()));
            dev.set_block_instruction_limit(Some(200_000));
            let Ok(lm) = dev.load(&m) else { continue };
            let kernels: Vec<String> = m.kernels().iter().map(|k| k.to_string()).collect();
            for k in kernels {
                let params = m.kernel_params(&k).unwrap();
                let mut vals = Vec::new();
                for p in &params {
                    if p.size == 8 {
                        vals.push(dev.alloc(1 << 16).unwrap().0.to_le_bytes().to_vec());
                    } else {
                        vals.push(vec![0u8; p.size as usize]);
                    }
                }
                let args: Vec<&[u8]> = vals.iter().map(|v| v.as_slice()).collect();
                let _ = dev.launch(&lm, &k, [2, 1, 1], [40, 1, 1], 256, &args);
                launched += 1;
            }
        }
    }
    assert!(launched > 100, "only {launched} mutants ran");
}

#[test]
fn absurd_sizes_are_errors() {
    let cases = [
        ".shared .align 4 .b8 big[18446744073709551615];\n",
        ".global .align 4 .b8 big[18446744073709551615];\n",
        ".visible .entry k(.param .align 8 .b8 p[18446744073709551615])\n{\n\tret;\n}\n",
        ".visible .entry k()\n{\n\t.local .align 8 .b8 d[18446744073709551615];\n\tret;\n}\n",
        ".visible .entry k()\n{\n\t.reg .b32 %r<4000000000>;\n\tret;\n}\n",
    ];
    for body in cases {
        let r = Module::parse(&format!("{HEAD}{body}"));
        match r {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(m) => {
                // a huge global can still parse; loading it must fail cleanly
                let mut dev = Device::new();
                assert!(dev.load(&m).is_err(), "{body}");
            }
        }
    }
}

#[test]
fn alloca_past_the_stack_limit_is_a_stack_overflow_error() {
    let mut e = Env::new("alloca");
    e.dev.set_stack_limit(4096);
    let err = e
        .launch("big", [1, 1, 1], [32, 1, 1], &[&5000u64.to_le_bytes()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("stack overflow: alloca of 5000 bytes")
            && err.contains("more than its 4096 bytes (OMPCC_STACK_SIZE)")
            && err.contains("kernel `big`"),
        "{err}"
    );
    // a size near 2^64 is the same error, not a wrapped address
    let err = e
        .launch("big", [1, 1, 1], [1, 1, 1], &[&u64::MAX.to_le_bytes()])
        .unwrap_err()
        .to_string();
    assert!(err.contains("stack overflow"), "{err}");
}

#[test]
fn blocks_freed_by_stackrestore_fault_and_bad_restores_are_errors() {
    let mut e = Env::new("alloca");
    let out = e.zeros(8);
    let err = e
        .launch("stale", [1, 1, 1], [1, 1, 1], &[&p(out)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("out-of-bounds local load of 8 bytes"), "{err}");
    let err = e
        .launch("bad_restore", [1, 1, 1], [1, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("stackrestore to 0x") && err.contains("outside the current frame's stack"),
        "{err}"
    );
    assert_eq!(
        err.lines().next().map(|l| l.contains(&format!(
            "line {}",
            line_of("alloca.ptx", "stackrestore.u64 \t%rd2")
        ))),
        Some(true),
        "{err}"
    );
}

#[test]
fn assertfail_and_trap_stop_the_kernel_as_device_aborts() {
    let mut e = Env::new("abort");
    let out = e.zeros(64);
    let err = e
        .launch("checked", [1, 1, 1], [8, 1, 1], &[&p(out)])
        .unwrap_err();
    let EmuError::Trap { site, assertion } = &err else {
        panic!("expected a trap, got {err}")
    };
    assert_eq!(site.thread, [3, 0, 0]);
    assert_eq!(
        assertion.as_deref(),
        Some("t.c:12: main: Assertion `i != 3' failed.")
    );
    assert!(err.to_string().contains("kernel `checked` block (0,0,0) thread (3,0,0)"));
    let err = e.launch("stop", [1, 1, 1], [32, 1, 1], &[]).unwrap_err();
    let EmuError::Trap { site, assertion } = &err else {
        panic!("expected a trap, got {err}")
    };
    assert_eq!((site.thread, assertion), ([5, 0, 0], &None));
    assert!(err.to_string().contains("trap instruction executed"), "{err}");
}
