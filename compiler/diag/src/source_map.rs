//! Maps byte offsets in preprocessed text back to the user's files, lines and columns.
//!
//! Built once from the output of `cc -E`: every line marker `# 12 "file.c" 1 3` says that the
//! next line of the preprocessed text is line 12 of `file.c` (flags: 1 = entering an include,
//! 2 = returning to a file, 3 = system header, 4 = extern "C"). `#line 12 "file.c"` is accepted
//! too. Invariants: `line_starts` is strictly increasing and starts with 0; `markers` are sorted
//! by the preprocessed line they apply from. Lookups are two binary searches.

use std::collections::HashMap;

use crate::Span;

/// Index of an original file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A position in the user's original source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The original file.
    pub file: FileId,
    /// 1-based line in the original file.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
    /// True when the line marker flagged the file as a system header.
    pub system_header: bool,
}

#[derive(Clone, Copy, Debug)]
struct Marker {
    /// 0-based index of the preprocessed line the marker applies from.
    pp_line: u32,
    file: FileId,
    /// Original line number of preprocessed line `pp_line`.
    line: u32,
    system_header: bool,
}

/// Offsets in preprocessed text -> original file, line and column.
#[derive(Clone, Debug)]
pub struct SourceMap {
    text: String,
    line_starts: Vec<u32>,
    markers: Vec<Marker>,
    files: Vec<String>,
    file_ids: HashMap<String, FileId>,
    /// Original texts supplied by the caller (stdin, tests) instead of reading the file.
    supplied: HashMap<FileId, String>,
}

impl SourceMap {
    /// Builds the map for `text`, the preprocessed form of `file_name`. Text before the first
    /// line marker (or all of it, when there is none) belongs to `file_name`, line for line.
    pub fn new(text: &str, file_name: &str) -> SourceMap {
        let mut sm = SourceMap {
            text: text.to_owned(),
            line_starts: Vec::with_capacity(text.len() / 32 + 1),
            markers: Vec::new(),
            files: Vec::new(),
            file_ids: HashMap::new(),
            supplied: HashMap::new(),
        };
        let main = sm.intern(file_name);
        sm.markers.push(Marker {
            pp_line: 0,
            file: main,
            line: 1,
            system_header: false,
        });
        let bytes = text.as_bytes();
        let mut start = 0usize;
        let mut pp_line = 0u32;
        loop {
            sm.line_starts.push(start as u32);
            let end = memchr_newline(bytes, start);
            if bytes.get(start) == Some(&b'#')
                && let Some((line, name, system)) = parse_marker(&text[start..end])
            {
                let file = sm.intern(&name);
                sm.markers.push(Marker {
                    pp_line: pp_line + 1,
                    file,
                    line,
                    system_header: system,
                });
            }
            if end >= bytes.len() {
                break;
            }
            start = end + 1;
            pp_line += 1;
        }
        sm
    }

    fn intern(&mut self, name: &str) -> FileId {
        if let Some(&id) = self.file_ids.get(name) {
            return id;
        }
        let id = FileId(self.files.len() as u32);
        self.files.push(name.to_owned());
        self.file_ids.insert(name.to_owned(), id);
        id
    }

    /// The preprocessed text the map was built from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The name of an original file as the line markers spell it.
    pub fn file_name(&self, file: FileId) -> &str {
        &self.files[file.0 as usize]
    }

    /// The id of the file named `name`, if any marker mentions it.
    pub fn file_id(&self, name: &str) -> Option<FileId> {
        self.file_ids.get(name).copied()
    }

    /// The file the map was built for (given to [`SourceMap::new`]).
    pub fn main_file(&self) -> FileId {
        FileId(0)
    }

    /// Supplies the original text of `file` (for stdin input or tests) so renderers do not read
    /// it from disk.
    pub fn supply_original(&mut self, file: FileId, text: String) {
        self.supplied.insert(file, text);
    }

    /// The original text supplied for `file`, if any.
    pub fn supplied_original(&self, file: FileId) -> Option<&str> {
        self.supplied.get(&file).map(String::as_str)
    }

    /// 0-based preprocessed line containing byte `pos` (clamped to the text).
    pub fn pp_line(&self, pos: u32) -> u32 {
        (self.line_starts.partition_point(|&s| s <= pos) - 1) as u32
    }

    /// The preprocessed line with 0-based index `line`, without its newline.
    pub fn pp_line_text(&self, line: u32) -> &str {
        let start = self
            .line_starts
            .get(line as usize)
            .copied()
            .unwrap_or(self.text.len() as u32);
        let end = memchr_newline(self.text.as_bytes(), start as usize);
        &self.text[start as usize..end]
    }

    /// Byte offset where preprocessed line `line` starts.
    pub fn pp_line_start(&self, line: u32) -> u32 {
        self.line_starts
            .get(line as usize)
            .copied()
            .unwrap_or(self.text.len() as u32)
    }

    /// Maps a byte offset of the preprocessed text to the original file, line and column.
    pub fn lookup(&self, pos: u32) -> Location {
        let pos = pos.min(self.text.len() as u32);
        let pp_line = self.pp_line(pos);
        let m = self.markers[self.markers.partition_point(|m| m.pp_line <= pp_line) - 1];
        Location {
            file: m.file,
            line: m.line + (pp_line - m.pp_line),
            col: pos - self.line_starts[pp_line as usize] + 1,
            system_header: m.system_header,
        }
    }

    /// `file:line:col` of the start of `span`, as gcc prints it.
    pub fn describe(&self, span: Span) -> String {
        let loc = self.lookup(span.lo);
        format!("{}:{}:{}", self.file_name(loc.file), loc.line, loc.col)
    }
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

/// Parses `# 12 "file" 1 3` or `#line 12 "file"`; returns (line, file, system header).
/// A marker without a file name keeps the current file; we treat it as unnamed and skip it.
fn parse_marker(line: &str) -> Option<(u32, String, bool)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let num: u32 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.char_indices();
    let mut close = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, e)) = chars.next() {
                    name.push(e);
                }
            }
            '"' => {
                close = Some(i);
                break;
            }
            c => name.push(c),
        }
    }
    let flags = &rest[close? + 1..];
    let system = flags.split_ascii_whitespace().any(|f| f == "3");
    Some((num, name, system))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_lines() {
        let text = "# 1 \"a.c\"\nint x;\n# 1 \"/usr/include/b.h\" 1 3 4\nint y;\n\n# 3 \"a.c\" 2\n  int z;\n";
        let sm = SourceMap::new(text, "a.c");
        let pos = text.find("int x").unwrap() as u32;
        let l = sm.lookup(pos);
        assert_eq!(
            (sm.file_name(l.file), l.line, l.col, l.system_header),
            ("a.c", 1, 1, false)
        );
        let l = sm.lookup(text.find("int y").unwrap() as u32 + 4);
        assert_eq!(
            (sm.file_name(l.file), l.line, l.col, l.system_header),
            ("/usr/include/b.h", 1, 5, true)
        );
        let l = sm.lookup(text.find("z").unwrap() as u32);
        assert_eq!((sm.file_name(l.file), l.line, l.col), ("a.c", 3, 7));
        assert_eq!(
            sm.describe(Span::point(text.find("z").unwrap() as u32)),
            "a.c:3:7"
        );
    }

    #[test]
    fn no_markers_and_line_directive() {
        let sm = SourceMap::new("int a;\nint b;", "x.c");
        let l = sm.lookup(9);
        assert_eq!((sm.file_name(l.file), l.line, l.col), ("x.c", 2, 3));
        let sm = SourceMap::new("#line 40 \"q\\\"r.c\"\nint a;", "x.c");
        let l = sm.lookup(20);
        assert_eq!((sm.file_name(l.file), l.line, l.col), ("q\"r.c", 40, 3));
        // Malformed markers are ignored, end of text is clamped.
        let sm = SourceMap::new("# x\n#\n# 5\n", "y.c");
        assert_eq!(sm.lookup(1000).line, 4);
    }
}
