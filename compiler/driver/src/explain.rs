//! `ompcc --explain CODE`: the documentation of a diagnostic code, from `docs/diagnostics.md`
//! (compiled in, so an installed ompcc needs no other file).
//!
//! The document has one `## CODE` section per code; a section runs to the next heading.

/// The whole reference, as written in the source tree.
const DIAGNOSTICS: &str = include_str!("../../../docs/diagnostics.md");

/// The section for `code` (`E0803`, `e0803` and `0803` are the same; `W` codes need their
/// letter), heading included; `Err` names the codes that exist when there is no such section.
pub fn explain(code: &str) -> Result<String, String> {
    let code = code.trim().to_ascii_uppercase();
    let code = if code.chars().all(|c| c.is_ascii_digit()) {
        format!("E{code}")
    } else {
        code
    };
    section(DIAGNOSTICS, &code).ok_or_else(|| {
        format!(
            "no diagnostic code '{code}' (codes look like E0803 or W0811, as printed at the end \
             of a message; docs/diagnostics.md lists them)"
        )
    })
}

fn section(doc: &str, code: &str) -> Option<String> {
    let heading = format!("## {code}");
    let mut lines = doc.lines().skip_while(|l| l.trim_end() != heading);
    let first = lines.next()?;
    let mut out = format!("{first}\n");
    for line in lines.take_while(|l| !l.starts_with("# ") && !l.starts_with("## ")) {
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_run_to_the_next_heading() {
        let doc = "# T\n## E0001\n\nfirst\n\n## E0002\nsecond\n# Group\n## W0003\nthird\n";
        assert_eq!(section(doc, "E0001").unwrap(), "## E0001\n\nfirst\n");
        assert_eq!(section(doc, "E0002").unwrap(), "## E0002\nsecond\n");
        assert_eq!(section(doc, "W0003").unwrap(), "## W0003\nthird\n");
        assert!(section(doc, "E0004").is_none());
        assert!(
            explain("e0803")
                .unwrap()
                .contains("host C library function")
        );
        assert!(explain("0410").unwrap().starts_with("## E0410\n"));
        assert!(
            explain("X1")
                .unwrap_err()
                .contains("no diagnostic code 'X1'")
        );
        assert!(explain("W0811").unwrap().contains("ignored"));
    }
}
