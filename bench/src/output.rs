//! Comparing a benchmark program's output with the reference build's (the host compiler with
//! offloading disabled): words must match, numbers within a relative tolerance, because the
//! device build may contract `a*b+c` into an FMA or sum a reduction in another order.

/// Whether `got` matches `want`: the same words (split at whitespace and `=`), numbers equal
/// within `rel_tol` relative to the larger magnitude. On mismatch, says where.
pub fn matches(want: &str, got: &str, rel_tol: f64) -> Result<(), String> {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == '=')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (w, g) = (words(want), words(got));
    if w.len() != g.len() {
        return Err(format!(
            "{} words of output, expected {}: `{}`",
            g.len(),
            w.len(),
            got.trim()
        ));
    }
    for (a, b) in w.iter().zip(&g) {
        if a == b {
            continue;
        }
        match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => {
                let scale = x.abs().max(y.abs());
                if (x - y).abs() > rel_tol * scale {
                    return Err(format!("`{b}` where the reference printed `{a}`"));
                }
            }
            _ => return Err(format!("`{b}` where the reference printed `{a}`")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_within_tolerance_match() {
        let want = "gemm n=96 checksum 1.564841661e+06\n";
        assert!(matches(want, "gemm n=96 checksum 1.564841700e+06\n", 1e-5).is_ok());
        let err = matches(want, "gemm n=96 checksum 1.6e+06\n", 1e-5).unwrap_err();
        assert!(err.contains("1.6e+06"), "{err}");
    }

    #[test]
    fn words_must_be_equal() {
        assert!(matches("dot n=5 checksum 1", "dot n=6 checksum 1", 1e-5).is_err());
        assert!(matches("dot checksum 1", "dot checksum 1 extra", 1e-5).is_err());
        assert!(matches("x nan", "x nan", 1e-5).is_ok());
        assert!(matches("x 1", "x nan", 1e-5).is_err());
    }
}
