//! Mutation test of the OpenMP clause grammar, through the whole frontend: one program that
//! uses most directives is mutated on its `#pragma omp` lines (clause arguments replaced by
//! wrong, mistyped, negative and huge ones; clauses added to directives that do not take
//! them; directives renamed, removed or inserted elsewhere, which nests them wrongly), and
//! each mutant goes through `ompcc --emit=host-c` (parse, sema, plan, lowering, the -O0 or
//! -O2 passes, PTX, host rewrite). Every mutant must compile or be rejected with a located
//! error: never a panic, an internal compiler error, a signal or a hang. A mutant rejected
//! for one changed clause has an error on that line or on the statement the directive
//! applies to.
//!
//! Deterministic (fixed seed); `OMPCC_MUTANTS=N` runs N mutants and `OMPCC_MUTANT_SEED=S`
//! another sequence, for longer runs by hand.

mod support;

use std::io::Read as _;
use std::process::Stdio;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::*;

const SEED: &str = r#"#include <stdio.h>
#include <omp.h>

#define N 64
struct S { int a; double b; };
int g[N];
#pragma omp declare target
int twice(int v) { return 2 * v; }
#pragma omp end declare target

void f(void) {}

int main(void) {
    int a[N], b[N], x = 1, n = N;
    double d = 0.5;
    int *p = a;
    struct S s = {1, 2.0};
    for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
#pragma omp target enter data map(to: a[0:n])
#pragma omp target teams distribute parallel for map(tofrom: b[0:n]) reduction(+: x) num_teams(4) thread_limit(64)
    for (int i = 0; i < n; i++) { b[i] = twice(a[i]); x += a[i]; }
#pragma omp target update from(a[0:n])
#pragma omp target data map(tofrom: d, s)
    {
#pragma omp target map(to: p[0:4]) firstprivate(x) if(n > 1) device(0)
        {
#pragma omp parallel for collapse(2) schedule(static, 4) private(d) num_threads(8)
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    d = i * j;
#pragma omp atomic update
            s.a += 1;
        }
    }
#pragma omp target teams map(tofrom: g) default(shared)
    {
#pragma omp distribute simd safelen(8) simdlen(4)
        for (int i = 0; i < N; i++) g[i] = i;
    }
#pragma omp target map(tofrom: x, d)
    {
#pragma omp parallel
        {
#pragma omp single
            x++;
#pragma omp critical
            d += 1.0;
#pragma omp barrier
#pragma omp for nowait lastprivate(x)
            for (int i = 0; i < 8; i++) x = i;
        }
    }
#pragma omp target teams loop map(tofrom: b) reduction(max: x)
    for (int i = 0; i < N; i++) x = b[i] > x ? b[i] : x;
#pragma omp parallel for simd aligned(p: 16) linear(n: 1) schedule(dynamic, 2)
    for (int i = 0; i < 8; i++) a[i] += 1;
#pragma omp target exit data map(release: a[0:n])
    printf("%d %d %f %d %d\n", x, b[3], d, s.a, g[5]);
    return 0;
}
"#;

/// Clause arguments: wrong kinds, wrong types, negative and huge constants, broken syntax.
const ARGS: &[&str] = &[
    "-1",
    "0",
    "-2147483648",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "0x7fffffffffffffffffff",
    "1e308",
    "1.5",
    "-0.0",
    "\"s\"",
    "'c'",
    "a",
    "p",
    "s",
    "s.b",
    "f",
    "twice",
    "g",
    "d",
    "*p",
    "&x",
    "x +",
    "",
    "(",
    ")",
    ",",
    ":",
    "x, x",
    "to:",
    "tofrom: x, x",
    "alloc: a[0:-1]",
    "from: a[-1:2]",
    "a[0:0]",
    "a[:]",
    "a[1:0x7fffffffffffffff]",
    "p[0:n][0:2]",
    "s.a[0:1]",
    "b[0:n:2]",
    "+: d",
    "max: p",
    "&&: d",
    "min: s",
    "foo: x",
    "task, +: x",
    "inscan, +: x",
    "static, -4",
    "dynamic, 0",
    "guided, 4294967296",
    "bogus",
    "runtime, 2",
    "monotonic: static",
    "none",
    "private",
    "firstprivate",
    "n > 1 ? 2 : 3",
    "sizeof(struct S)",
    "omp_get_num_threads()",
    "target: n",
    "parallel: 0",
    "simd: 1",
    "teams: x",
];

/// Clauses added to directives, most of which do not take them.
const CLAUSES: &[&str] = &[
    "collapse(2)",
    "collapse(0)",
    "collapse(-1)",
    "collapse(100)",
    "collapse(n)",
    "num_teams(-5)",
    "num_teams(0)",
    "num_teams(4294967296)",
    "num_teams(1:4)",
    "thread_limit(0)",
    "thread_limit(-1)",
    "schedule(static, 0)",
    "schedule(dynamic, -1)",
    "schedule(auto, 2)",
    "map(tofrom: x)",
    "map(alloc: a[0:n])",
    "map(from: p[0:-1])",
    "map(always, close, present, to: x)",
    "map(delete: x)",
    "reduction(+: x)",
    "reduction(*: d)",
    "reduction(max: p)",
    "reduction(|: d)",
    "reduction(+: a[1:0x7fffffffffffffff])",
    "reduction(+: a[0x7fffffffffffffff:1])",
    "reduction(+: b[0:0])",
    "private(x)",
    "private(g)",
    "firstprivate(a)",
    "lastprivate(x)",
    "lastprivate(conditional: x)",
    "shared(x)",
    "default(none)",
    "default(private)",
    "default(firstprivate)",
    "if(target: n)",
    "if(parallel: 0)",
    "if(x)",
    "device(-1)",
    "device(ancestor: 1)",
    "nowait",
    "nowait nowait",
    "depend(in: x)",
    "depend(out: a[0:n])",
    "simdlen(0)",
    "simdlen(3)",
    "safelen(-1)",
    "aligned(p: 3)",
    "aligned(x)",
    "linear(x: 2)",
    "linear(p: -1)",
    "ordered",
    "ordered(2)",
    "num_threads(0)",
    "num_threads(-3)",
    "proc_bind(close)",
    "proc_bind(nowhere)",
    "dist_schedule(static, 0)",
    "dist_schedule(static, -8)",
    "is_device_ptr(x)",
    "is_device_ptr(p)",
    "use_device_ptr(p)",
    "use_device_addr(a)",
    "has_device_addr(a)",
    "defaultmap(tofrom: scalar)",
    "defaultmap(none)",
    "allocate(x)",
    "order(concurrent)",
    "bind(teams)",
    "bind(thread)",
    "to(x)",
    "from(a[0:-1])",
    "uses_allocators(omp_default_mem_alloc)",
    "hint(1)",
    "seq_cst",
    "capture",
    "read",
    "write",
    "partial(0)",
    "partial(-2)",
    "full",
    "sizes(0)",
    "sizes(2, -2)",
    "grainsize(0)",
    "num_tasks(-1)",
    "grainsize(strict: 3)",
    "num_tasks(strict: x)",
    "grainsize(loose: 2)",
    "untied",
    "mergeable",
    "final(1)",
    "priority(-1)",
    "in_reduction(+: x)",
    "task_reduction(+: x)",
    "copyin(x)",
    "copyin(g)",
    "copyprivate(x)",
    "detach(x)",
    "filter(0)",
    "inclusive(x)",
    "exclusive(x)",
    "device_type(nohost)",
    "link(g)",
    "enter(twice)",
    "indirect",
    "nogroup",
    "threads",
    "simd",
    "bogus(1)",
    "map(",
    "reduction(+:",
    ")",
];

/// Directives put in place of a line's directive or inserted before a statement.
const DIRECTIVES: &[&str] = &[
    "parallel",
    "parallel for",
    "for",
    "simd",
    "for simd",
    "target",
    "target teams",
    "teams",
    "distribute",
    "distribute parallel for",
    "target teams distribute",
    "target parallel for",
    "target simd",
    "loop",
    "teams loop",
    "single",
    "master",
    "masked",
    "critical",
    "critical(name)",
    "barrier",
    "taskwait",
    "taskyield",
    "task",
    "taskloop",
    "taskgroup",
    "atomic",
    "atomic read",
    "atomic write",
    "atomic capture",
    "ordered",
    "section",
    "sections",
    "flush",
    "flush(x)",
    "cancel parallel",
    "cancellation point for",
    "scan inclusive(x)",
    "tile sizes(2)",
    "unroll",
    "unroll partial(2)",
    "target data",
    "target update",
    "target enter data",
    "target exit data",
    "declare target",
    "end declare target",
    "declare simd",
    "declare reduction(mine: int: omp_out += omp_in)",
    "threadprivate(g)",
    "requires unified_shared_memory",
    "requires reverse_offload",
    "metadirective",
    "nothing",
    "error",
    "bogus",
    "",
];

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const PRAGMA: &str = "#pragma omp";

/// The byte ranges inside the parentheses of the clauses of a pragma line.
fn clause_args(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push((start, i));
                }
            }
            _ => {}
        }
    }
    out
}

/// Where a pragma line's directive name ends: before its first clause (a word followed by
/// `(`, or a word that is no directive word).
fn directive_end(line: &str) -> usize {
    const WORDS: &[&str] = &[
        "target",
        "teams",
        "distribute",
        "parallel",
        "for",
        "simd",
        "loop",
        "data",
        "update",
        "enter",
        "exit",
        "update",
        "atomic",
        "single",
        "critical",
        "barrier",
        "declare",
        "end",
    ];
    let mut at = PRAGMA.len();
    let rest = &line[at..];
    let mut pos = 0;
    for word in rest.split(' ') {
        if word.is_empty() {
            pos += 1;
            continue;
        }
        if !WORDS.contains(&word) {
            break;
        }
        pos += word.len() + 1;
    }
    at += pos.min(rest.len());
    at
}

/// What a mutant changed, for checking where its error is.
struct Mutant {
    text: String,
    /// The one line changed (1-based) when a single clause was changed in place.
    line: Option<usize>,
    what: String,
}

fn mutate(rng: &mut XorShift) -> Mutant {
    let mut lines: Vec<String> = SEED.lines().map(str::to_owned).collect();
    let rounds = if rng.below(4) == 0 { 2 } else { 1 };
    let mut changed = None;
    let mut what = Vec::new();
    for _ in 0..rounds {
        let mut renamed = false;
        let pragmas: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].trim_start().starts_with(PRAGMA))
            .collect();
        let at = pragmas[rng.below(pragmas.len())];
        let line = lines[at].trim_start().to_owned();
        let indent = " ".repeat(lines[at].len() - line.len());
        let new = match rng.below(10) {
            // a clause argument replaced
            0..=3 => {
                let args = clause_args(&line);
                if args.is_empty() {
                    format!("{line} {}", rng.pick(CLAUSES))
                } else {
                    let (a, b) = args[rng.below(args.len())];
                    let inner = &line[a..b];
                    let arg = rng.pick(ARGS);
                    // half the time only the part after a modifier's colon
                    match inner.find(':') {
                        Some(c) if rng.below(2) == 0 => {
                            format!("{}: {arg}{}", &line[..a + c], &line[b..])
                        }
                        _ => format!("{}{arg}{}", &line[..a], &line[b..]),
                    }
                }
            }
            // a clause added
            4..=6 => format!("{line} {}", rng.pick(CLAUSES)),
            // the directive renamed, clauses kept (its statement may now be wrong instead)
            7 => {
                renamed = true;
                let end = directive_end(&line);
                format!("{PRAGMA} {} {}", rng.pick(DIRECTIVES), &line[end..])
            }
            // the line removed
            8 => String::new(),
            // a directive inserted before a statement of `main` (nested wherever it lands)
            _ => {
                let first = lines
                    .iter()
                    .position(|l| l.starts_with("int main"))
                    .unwrap_or(0);
                let to = first + 2 + rng.below(lines.len() - first - 3);
                let clause = if rng.below(2) == 0 {
                    rng.pick(CLAUSES)
                } else {
                    ""
                };
                lines.insert(to, format!("{PRAGMA} {} {clause}", rng.pick(DIRECTIVES)));
                what.push(format!("inserted at line {}: {}", to + 1, lines[to]));
                changed = Some(usize::MAX);
                continue;
            }
        };
        what.push(format!("line {}: {new}", at + 1));
        changed = match changed {
            None if !new.is_empty() && !renamed => Some(at + 1),
            _ => Some(usize::MAX),
        };
        lines[at] = format!("{indent}{new}");
    }
    Mutant {
        text: lines.join("\n") + "\n",
        line: changed.filter(|&l| l != usize::MAX),
        what: what.join("; "),
    }
}

/// The lines `m.c:LINE:COL: error` of a rejected mutant.
fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("m.c:")?;
            let (line, rest) = rest.split_once(':')?;
            let (_, rest) = rest.split_once(':')?;
            rest.trim_start()
                .starts_with("error")
                .then(|| line.parse().ok())
                .flatten()
        })
        .collect()
}

/// Compiles one mutant; returns why it failed the test, if it did.
fn check(sb: &Sandbox, m: &Mutant, opt: &str) -> Result<(), String> {
    sb.write("m.c", &m.text);
    let limit = Duration::from_secs(20);
    let mut child = sb
        .ompcc_cmd(&["-fopenmp", opt, "--emit=host-c", "m.c", "-o", "m.txt"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting ompcc");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("took more than {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut err = String::new();
    if let Some(mut s) = child.stderr.take() {
        let _ = s.read_to_string(&mut err);
    }
    if err.contains("internal compiler error") || err.contains("panicked") {
        return Err(format!("internal error:\n{err}"));
    }
    match status.code() {
        Some(0) => Ok(()),
        Some(1) => {
            let lines = error_lines(&err);
            let count = m.text.lines().count();
            if lines.is_empty() {
                return Err(format!("rejected without a located error:\n{err}"));
            }
            if let Some(&bad) = lines.iter().find(|&&l| l == 0 || l > count) {
                return Err(format!("error on line {bad} of {count}:\n{err}"));
            }
            // on the clause's line, or on the loop nest or statement it applies to
            match m.line {
                Some(l) if !lines.iter().any(|&e| (l..=l + 3).contains(&e)) => Err(format!(
                    "no error on the changed line {l} or its statement:\n{err}"
                )),
                _ => Ok(()),
            }
        }
        code => Err(format!("exit status {code:?}:\n{err}")),
    }
}

#[test]
fn mutants_of_omp_clauses_and_directives_compile_or_are_located_errors() {
    let count: usize = std::env::var("OMPCC_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let seed: u64 = std::env::var("OMPCC_MUTANT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5851_f42d_4c95_7f2d);
    // The seed itself compiles: mutants start from a valid program.
    let sb = Sandbox::new();
    let unchanged = Mutant {
        text: SEED.to_owned(),
        line: None,
        what: "the seed".into(),
    };
    check(&sb, &unchanged, "-O2").expect("the seed program compiles");
    let mut rng = XorShift(seed | 1);
    let mutants: Vec<Mutant> = (0..count).map(|_| mutate(&mut rng)).collect();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let accepted = Mutex::new(0usize);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let sb = Sandbox::new();
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(m) = mutants.get(i) else { break };
                    let opt = if i % 2 == 0 { "-O0" } else { "-O2" };
                    match check(&sb, m, opt) {
                        Ok(()) => {
                            if !std::fs::read(sb.join("m.txt"))
                                .unwrap_or_default()
                                .is_empty()
                            {
                                *accepted.lock().unwrap() += 1;
                            }
                        }
                        Err(why) => {
                            let file = std::env::temp_dir().join(format!("ompcc-mutant-{i}.c"));
                            let _ = std::fs::write(&file, &m.text);
                            failures.lock().unwrap().push(format!(
                                "mutant {i} ({opt}; {}; saved to {}): {why}",
                                m.what,
                                file.display()
                            ));
                        }
                    }
                    let _ = std::fs::remove_file(sb.join("m.txt"));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let accepted = accepted.into_inner().unwrap();
    eprintln!(
        "{count} mutants (seed {seed:#x}): {accepted} compiled, {} rejected, {} failed, in {:?}",
        count - accepted - failures.len(),
        failures.len(),
        start.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Both outcomes occur, so the mutants are neither all trivial nor all broken.
    assert!(
        accepted > count / 20 && accepted < count * 19 / 20,
        "{accepted} of {count} compiled"
    );
}
