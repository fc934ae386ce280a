//! The checker must not panic on any input the parser accepts: programs using many
//! features are mutated (bytes deleted, duplicated, replaced by C punctuation or keywords)
//! with a fixed-seed generator, and every mutant that parses is checked.

mod common;

const SEEDS: &[&str] = &[
    r#"
typedef struct node { int key; struct node *next; unsigned flags : 3; } node_t;
enum color { RED, GREEN = 4, BLUE };
static int table[] = { [2] = 5, [0 ... 1] = 7, 9 };
union u { int i; float f; char c[4]; } gu = { .f = 2.5f };
struct big { char a; double d[3]; struct { short s; long l; }; } gb = { 'x', { 1.0, 2.0 }, { 3, 4 } };
int sum(int n, const int *v) { int s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }
double avg(int n, double (*m)[n]) {
    double t = 0;
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t += m[i][j];
    return n ? t / (n * n) : 0.0;
}
int main(int argc, char **argv) {
    node_t a = { 1, 0, 2 }, b = { .key = 2, .next = &a };
    char buf[16] = "hi";
    int x = sizeof(node_t) + _Alignof(double) + __builtin_offsetof(node_t, next);
    switch (argc) { case 1: x++; break; case 2 ... 4: x--; /* fall through */ default: break; }
    while (x > 100) { if (x & 1) continue; x >>= 1; }
    do { x = x ? x - 1 : 0; } while (0);
    x += ({ int y = x * 2; y; });
    x = (int)(x * 1.5) + (argv[0][0] == 'a') + buf[0] + b.next->key + RED;
lbl:
    if (x < 0) goto lbl;
    return _Generic(x, int: 0, default: 1) + (int)gu.c[0] + table[1];
}
"#,
    r#"
void saxpy(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n]) num_teams(8) thread_limit(128)
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
double dot(int n, const double *x, const double *y) {
    double s = 0;
#pragma omp target map(to: x[0:n], y[0:n]) map(tofrom: s)
#pragma omp teams distribute parallel for reduction(+: s) collapse(1)
    for (int i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}
void mat(int n, double (*a)[n], double (*b)[n]) {
    int i, j;
#pragma omp parallel for collapse(2) private(j) schedule(static, 4)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j += 1) a[i][j] = b[j][i];
#pragma omp target update from(a[0:n][0:n])
}
"#,
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&str] = &[
    ";",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "*",
    "&",
    ",",
    "=",
    "0",
    "-1",
    "1u",
    "x",
    "int ",
    "struct ",
    "void ",
    "const ",
    "sizeof ",
    "return ",
    ".",
    "->",
    "?",
    ":",
    "\"s\"",
    "'c'",
    "1e999",
    "[static 2]",
    "...",
    "_Alignas(64) ",
    "__attribute__((aligned(1 << 40))) ",
    "__attribute__((packed)) ",
    " : 70",
    "0x7fffffffffffffff",
    "[1 << 62]",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut s: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(s.len());
        match rng.below(3) {
            0 => {
                let len = 1 + rng.below(12);
                let end = (at + len).min(s.len());
                s.drain(at..end);
            }
            1 => {
                let len = 1 + rng.below(20);
                let end = (at + len).min(s.len());
                let piece = s[at..end].to_vec();
                let to = rng.below(s.len());
                s.splice(to..to, piece);
            }
            _ => {
                let p = PIECES[rng.below(PIECES.len())];
                s.splice(at..at, p.bytes());
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

#[test]
fn seeds_check_cleanly() {
    for seed in SEEDS {
        let r = common::check_src(seed);
        let errs: Vec<_> = r
            .parse_diags
            .iter()
            .chain(&r.diags)
            .map(|d| format!("{} {} `{}`", d.code, d.message, common::span_text(seed, d)))
            .collect();
        assert!(errs.is_empty(), "{errs:#?}");
    }
}

#[test]
fn mutants_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for round in 0..2500 {
        let seed = SEEDS[round % SEEDS.len()];
        let src = mutate(seed, &mut rng);
        let (tu, _, _) = ompcc_syntax::parse_translation_unit(&src, "mutant.c");
        let Some(tu) = tu else { continue };
        let r = std::panic::catch_unwind(|| ompcc_sema::check(&tu));
        assert!(r.is_ok(), "checker panicked on:\n{src}");
        checked += 1;
    }
    // most mutants still parse thanks to error recovery; make sure the test exercised the checker
    assert!(checked > 300, "only {checked} mutants parsed");
}
