//! OpenMP context selectors (OpenMP 5.2 sections 7.1-7.3), shared by `metadirective` and
//! `declare variant`: parsed from the directive's text, matched against the context of the
//! code being compiled, and scored.
//!
//! Contexts ompcc decides at compile time: device code (kernels and device functions) runs on
//! an NVIDIA GPU (`kind(gpu)`, `kind(nohost)`, `arch(nvptx)`, `arch(nvptx64)`, `isa(sm_N)` for
//! N up to 70, the PTX target), and the host version on x86-64 (`kind(host)`, `kind(cpu)`,
//! `arch(x86_64)`); `kind(any)` matches both. `implementation={vendor(...)}` names the
//! compiler: the host text goes to gcc (`vendor(gnu)`), device code is ompcc's own, which no
//! vendor name denotes. `construct={...}` traits must appear, in order, in the context's
//! construct set (the leaf constructs enclosing the code, led by `target` in device
//! functions). `user={condition(c)}` needs an integer constant `c`. Selectors ompcc cannot
//! decide (`target_device`, a non-constant condition) are errors naming the selector.

/// One trait selector: `kind(score(2): gpu, nohost)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trait {
    pub name: String,
    pub score: Option<u64>,
    pub properties: Vec<String>,
}

/// One trait set: `device={kind(gpu), arch(nvptx)}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraitSet {
    pub name: String,
    pub traits: Vec<Trait>,
}

/// A context selector: its trait sets in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    pub sets: Vec<TraitSet>,
}

/// The context of the code a selector is matched for.
#[derive(Clone, Debug)]
pub struct Context<'a> {
    /// Device code (the GPU) or the host version.
    pub device: bool,
    /// The `sm_NN` the device code is compiled for (`--offload-arch`): `isa(sm_MM)` holds for
    /// `MM <= NN`. Unused in host contexts.
    pub isa: u32,
    /// The construct set, outermost first (leaf construct names: `target`, `teams`, ...).
    pub constructs: &'a [&'static str],
}

/// Splits `s` at top-level commas (outside parentheses and braces).
pub(crate) fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `name(inner)` -> (`name`, Some(`inner`)); `name` -> (`name`, None).
pub(crate) fn call_form(s: &str) -> Result<(&str, Option<&str>), String> {
    let s = s.trim();
    match s.find('(') {
        None => Ok((s, None)),
        Some(i) if s.ends_with(')') => Ok((s[..i].trim(), Some(&s[i + 1..s.len() - 1]))),
        Some(_) => Err(format!("malformed '{s}'")),
    }
}

/// The clauses of a directive's text after its name: `name(inner)` pairs in order (an
/// argument without a name, `declare variant(f)`, has an empty name).
pub(crate) fn clauses(mut rest: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut out = Vec::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            return Ok(out);
        }
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        let after = rest[name_end..].trim_start();
        if !after.starts_with('(') {
            return Err(format!("expected '(' after '{name}'"));
        }
        let mut depth = 0;
        let mut close = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            return Err(format!("unbalanced parentheses after '{name}'"));
        };
        out.push((name, &after[1..close]));
        rest = &after[close + 1..];
    }
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Parses a context selector: `set={trait[(props)], ...}, ...`.
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut sel = Selector::default();
    if text.trim().is_empty() {
        return Err("empty context selector".into());
    }
    for set in split_top(text, ',') {
        let Some((name, body)) = set.split_once('=') else {
            return Err(format!("expected 'set={{...}}' in '{}'", set.trim()));
        };
        let name = name.trim();
        let body = body.trim();
        if !matches!(
            name,
            "device" | "implementation" | "construct" | "user" | "target_device"
        ) {
            return Err(format!("unknown trait set '{name}'"));
        }
        let Some(inner) = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
            return Err(format!("expected '{{...}}' after '{name}='"));
        };
        let mut traits = Vec::new();
        for t in split_top(inner, ',') {
            if t.trim().is_empty() {
                continue;
            }
            let (tname, args) = call_form(t)?;
            if !is_word(tname) {
                return Err(format!("malformed trait '{}'", t.trim()));
            }
            let mut score = None;
            let mut properties = Vec::new();
            if let Some(args) = args {
                let mut args = args.trim();
                if let Some(rest) = args.strip_prefix("score")
                    && rest.trim_start().starts_with('(')
                {
                    let parts = split_top(rest, ':');
                    let (_, value) = call_form(parts[0])?;
                    let value = value.unwrap_or("").trim();
                    score = Some(value.parse::<u64>().map_err(|_| {
                        format!("trait score '{value}' is not a non-negative integer constant")
                    })?);
                    args = &args[args.len() - rest.len() + parts[0].len() + 1..];
                }
                properties = split_top(args, ',')
                    .into_iter()
                    .map(|p| p.trim().trim_matches('"').to_owned())
                    .filter(|p| !p.is_empty())
                    .collect();
            }
            traits.push(Trait {
                name: tname.to_owned(),
                score,
                properties,
            });
        }
        sel.sets.push(TraitSet {
            name: name.to_owned(),
            traits,
        });
    }
    Ok(sel)
}

/// An integer constant as C writes one (decimal, hex, octal, with suffixes).
fn int_constant(s: &str) -> Option<i128> {
    let s = s.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    match s {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i128::from_str_radix(h, 16).ok();
    }
    if s.len() > 1 && s.starts_with('0') {
        return i128::from_str_radix(&s[1..], 8).ok();
    }
    s.parse().ok()
}

fn device_property(p: &str, trait_name: &str, cx: &Context<'_>) -> Result<bool, String> {
    Ok(match (trait_name, cx.device) {
        ("kind", _) if p == "any" => true,
        ("kind", true) => matches!(p, "gpu" | "nohost"),
        ("kind", false) => matches!(p, "host" | "cpu"),
        ("arch", true) => matches!(p, "nvptx" | "nvptx64"),
        ("arch", false) => matches!(p, "x86_64" | "x86-64" | "amd64"),
        ("isa", true) => p
            .strip_prefix("sm_")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n <= cx.isa),
        ("isa", false) => false,
        (other, _) => return Err(format!("unknown device trait '{other}'")),
    })
}

/// Whether `sel` is compatible with `cx` (OpenMP 5.2 7.3); `Err` names what ompcc cannot
/// decide at compile time.
pub fn matches(sel: &Selector, cx: &Context<'_>) -> Result<bool, String> {
    for set in &sel.sets {
        for t in &set.traits {
            let ok = match set.name.as_str() {
                "device" => {
                    let mut all = true;
                    for p in &t.properties {
                        all &= device_property(p, &t.name, cx)?;
                    }
                    all
                }
                "implementation" => match t.name.as_str() {
                    "vendor" => t.properties.iter().all(|v| !cx.device && v == "gnu"),
                    _ => false,
                },
                "construct" => true, // checked below, in order
                "user" if t.name == "condition" => {
                    let c = t.properties.first().map_or("", String::as_str);
                    match int_constant(c) {
                        Some(v) => v != 0,
                        None => {
                            return Err(format!(
                                "'user={{condition({c})}}' is not an integer constant; ompcc \
                                 resolves context selectors at compile time"
                            ));
                        }
                    }
                }
                "user" => return Err(format!("unknown user trait '{}'", t.name)),
                _ => {
                    return Err(format!(
                        "the '{}' trait set is not supported by ompcc",
                        set.name
                    ));
                }
            };
            if !ok {
                return Ok(false);
            }
        }
    }
    // construct traits: a subsequence of the context's construct set
    let mut at = 0;
    for t in construct_traits(sel) {
        match cx.constructs[at..].iter().position(|c| *c == t) {
            Some(i) => at += i + 1,
            None => return Ok(false),
        }
    }
    Ok(true)
}

pub(crate) fn construct_traits(sel: &Selector) -> impl Iterator<Item = &str> {
    sel.sets
        .iter()
        .filter(|s| s.name == "construct")
        .flat_map(|s| s.traits.iter().map(|t| t.name.as_str()))
}

/// The score of a compatible selector (OpenMP 5.2 7.3): explicit scores, else `2^(p-1)` for a
/// construct trait at position `p` of the context's construct set and `2^l`, `2^(l+1)`,
/// `2^(l+2)` for the device `kind`, `arch` and `isa` traits (`l`: the construct set's size).
pub fn score(sel: &Selector, cx: &Context<'_>) -> u64 {
    let l = cx.constructs.len() as u32;
    let mut total: u64 = 0;
    let mut at = 0;
    for set in &sel.sets {
        for t in &set.traits {
            let implicit = match (set.name.as_str(), t.name.as_str()) {
                ("construct", name) => match cx.constructs[at..].iter().position(|c| *c == name) {
                    Some(i) => {
                        at += i + 1;
                        1u64.checked_shl(at as u32 - 1).unwrap_or(0)
                    }
                    None => 0,
                },
                ("device", "kind") => 1u64.checked_shl(l).unwrap_or(0),
                ("device", "arch") => 1u64.checked_shl(l + 1).unwrap_or(0),
                ("device", "isa") => 1u64.checked_shl(l + 2).unwrap_or(0),
                _ => 0,
            };
            total = total.saturating_add(t.score.unwrap_or(implicit));
        }
    }
    total
}

/// The construct-set names a directive kind adds (its leaf constructs that are context
/// traits).
pub fn construct_leaves(kind: ompcc_syntax::ast::OmpDirectiveKind) -> Vec<&'static str> {
    kind.words()
        .iter()
        .copied()
        .filter(|w| matches!(*w, "target" | "teams" | "parallel" | "for" | "simd"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_parse_match_and_score() {
        let s = parse("device={kind(gpu), arch(nvptx64)}, implementation={vendor(gnu)}").unwrap();
        assert_eq!(s.sets.len(), 2);
        assert_eq!(s.sets[0].traits[1].properties, ["nvptx64"]);
        let dev = Context {
            device: true,
            isa: 70,
            constructs: &["target", "parallel"],
        };
        let host = Context {
            device: false,
            isa: 0,
            constructs: &["target", "parallel"],
        };
        assert!(!matches(&s, &dev).unwrap());
        let g = parse("device = { kind(score(5): gpu) }").unwrap();
        assert_eq!(g.sets[0].traits[0].score, Some(5));
        assert!(matches(&g, &dev).unwrap() && !matches(&g, &host).unwrap());
        assert_eq!(score(&g, &dev), 5);
        let c = parse("construct={target, parallel}, device={arch(nvptx)}").unwrap();
        assert!(matches(&c, &dev).unwrap());
        assert_eq!(score(&c, &dev), 1 + 2 + 8);
        let wrong_order = parse("construct={parallel, target}").unwrap();
        assert!(!matches(&wrong_order, &dev).unwrap());
        assert!(matches(&parse("user={condition(0)}").unwrap(), &dev).is_ok_and(|m| !m));
        assert!(matches(&parse("user={condition(n > 1)}").unwrap(), &dev).is_err());
        assert!(parse("device=kind(gpu)").is_err());
        assert!(parse("hardware={kind(gpu)}").is_err());
    }
}
