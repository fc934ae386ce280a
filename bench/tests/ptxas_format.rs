//! The `ptxas -v` reader against the real tool: a small kernel that calls a device function
//! and uses a local array must come back with a register count and no spills, and the PTX
//! counter must see its instructions. Without ptxas the test says so and passes, unless
//! `OMPCC_REQUIRE_PTXAS=1` (as in CI), where a missing ptxas fails it.

use std::process::Command;

const PTX: &str = r#"
.version 7.0
.target sm_80
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}

.visible .entry k(.param .u64 out, .param .u32 i)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	.local .align 4 .b8 buf[16];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [i];
	mov.u32 %r2, %tid.x;
	st.local.u32 [buf], %r2;
	st.local.u32 [buf+4], %r1;
	and.b32 %r3, %r1, 4;
	mov.u64 %rd2, buf;
	cvt.u64.u32 %rd3, %r3;
	add.s64 %rd2, %rd2, %rd3;
	ld.local.u32 %r4, [%rd2];
	{
	.param .b32 a;
	.param .b32 b;
	st.param.b32 [a], %r4;
	call.uni (b), twice, (a);
	ld.param.b32 %r5, [b];
	}
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u32 [%rd1], %r5;
	ret;
}
"#;

#[test]
fn ptxas_verbose_output_parses() {
    let funcs = ompcc_bench::ptx::function_stats(PTX).unwrap();
    assert_eq!(funcs.len(), 2);
    assert_eq!(
        (funcs[0].name.as_str(), funcs[0].instructions),
        ("twice", 4)
    );
    assert_eq!((funcs[1].name.as_str(), funcs[1].instructions), ("k", 16));
    assert_eq!(funcs[1].local_accesses, 3);

    let Some(ptxas) = ompcc_bench::ptxas::find() else {
        assert_ne!(
            std::env::var("OMPCC_REQUIRE_PTXAS").as_deref(),
            Ok("1"),
            "OMPCC_REQUIRE_PTXAS=1 but ptxas was not found"
        );
        eprintln!("ptxas not found: the ptxas half of this test did not run");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.ptx");
    std::fs::write(&file, PTX).unwrap();
    let out = Command::new(ptxas)
        .args(["-v", "-arch", "sm_80"])
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("k.cubin"))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    let res = ompcc_bench::ptxas::parse_verbose(&log);
    let k = res
        .get("k")
        .unwrap_or_else(|| panic!("no entry `k` in:\n{log}"));
    assert!(k.registers.is_some_and(|r| r > 0), "{log}");
    assert_eq!((k.spill_stores, k.spill_loads), (0, 0), "{log}");
    // The device function is reported on its own, without a register count.
    assert_eq!(res.get("twice").map(|t| t.registers), Some(None), "{log}");
}
