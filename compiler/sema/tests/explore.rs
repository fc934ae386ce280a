mod common;
#[test]
fn explore() {
    let src = std::fs::read_to_string("/tmp/semaprobe/x.c").unwrap();
    let c = common::check_src(&src);
    for d in c.parse_diags.iter().chain(&c.diags) {
        println!(
            "{:?} {} {} `{}`",
            d.severity,
            d.code,
            d.message,
            common::span_text(&src, d)
        );
    }
    println!("{}", ompcc_sema::print_typed(&c.tu, &c.unit, &src));
}
