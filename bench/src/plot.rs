//! SVG plots the runners write beside their Markdown tables (`plotters`, SVG backend only):
//! grouped bars of one measure per row of a table ([`Bars`], a linear or logarithmic y axis,
//! an optional reference line such as a goal), and a grid of ratios ([`Heatmap`], for the
//! pass ablation). A plot is built from the numbers the table shows, never measured again.
//!
//! Files: [`path_beside`] names the plot after the table (`kernels.md` -> `kernels-NAME.svg`),
//! and [`link`] is the Markdown that shows it, relative to the table. Nothing here panics on
//! odd input: missing values are left out, and an empty plot is an error.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Colours of the series, in order (a colour-blind-safe set).
const COLORS: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
];

const FONT: &str = "sans-serif";

/// One series of a bar chart: a value per category (`None`: no bar, e.g. a failed run).
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<f64>>,
}

impl Series {
    pub fn new(name: &str, values: Vec<Option<f64>>) -> Series {
        Series {
            name: name.to_string(),
            values,
        }
    }
}

/// Grouped bars: for every category, one bar per series.
#[derive(Clone, Debug)]
pub struct Bars {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    /// A logarithmic y axis (values that differ by orders of magnitude); values <= 0 are
    /// left out.
    pub log_y: bool,
    /// A horizontal line at this value, with its legend text (a goal, or parity at 1.0).
    pub line: Option<(f64, String)>,
}

impl Bars {
    pub fn new(title: &str, y_label: &str, categories: Vec<String>) -> Bars {
        Bars {
            title: title.to_string(),
            y_label: y_label.to_string(),
            categories,
            series: Vec::new(),
            log_y: false,
            line: None,
        }
    }

    pub fn series(mut self, name: &str, values: Vec<Option<f64>>) -> Bars {
        self.series.push(Series::new(name, values));
        self
    }

    pub fn log_y(mut self) -> Bars {
        self.log_y = true;
        self
    }

    pub fn line(mut self, at: f64, label: &str) -> Bars {
        self.line = Some((at, label.to_string()));
        self
    }

    /// The chart as SVG text.
    pub fn svg(&self) -> Result<String, String> {
        let shown = |v: &Option<f64>| v.filter(|v| v.is_finite() && (!self.log_y || *v > 0.0));
        let values: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.values.iter().filter_map(shown))
            .collect();
        if self.categories.is_empty() || values.is_empty() {
            return Err(format!("plot `{}`: no values", self.title));
        }
        let y = |v: f64| if self.log_y { v.log10() } else { v };
        let line_y = self
            .line
            .as_ref()
            .map(|(at, _)| *at)
            .filter(|v| shown(&Some(*v)).is_some());
        let all: Vec<f64> = values.iter().copied().chain(line_y).map(y).collect();
        let (min, max) = all
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        // (headroom above the tallest bar for the legend)
        let (lo, hi) = if self.log_y {
            (min.floor(), (max + 0.6).ceil().max(min.floor() + 1.0))
        } else {
            (min.min(0.0), if max > 0.0 { max * 1.3 } else { 1.0 })
        };
        let n = self.categories.len();
        let per_group = (self.series.len() * 14 + 10).max(28) as u32;
        let width = (110 + n as u32 * per_group).clamp(480, 6000);
        let label_h = label_height(&self.categories);
        let height = 380 + label_h;
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.title, (FONT, 18))
                .margin(12)
                .x_label_area_size(label_h)
                .y_label_area_size(70)
                .build_cartesian_2d(0f64..n as f64, lo..hi)
                .map_err(err)?;
            let log_y = self.log_y;
            let format_y = move |v: &f64| {
                if log_y {
                    number(10f64.powf(*v))
                } else {
                    number(*v)
                }
            };
            let y_labels = if log_y { (hi - lo) as usize + 1 } else { 8 };
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_labels(y_labels)
                .y_desc(self.y_label.as_str())
                .y_label_formatter(&format_y)
                .draw()
                .map_err(err)?;
            let width_each = 0.8 / self.series.len().max(1) as f64;
            for (s, series) in self.series.iter().enumerate() {
                let color = COLORS[s % COLORS.len()];
                let bars = series.values.iter().enumerate().filter_map(|(i, v)| {
                    let v = shown(v)?;
                    let x0 = i as f64 + 0.1 + s as f64 * width_each;
                    Some(Rectangle::new(
                        [(x0, lo), (x0 + width_each, y(v).max(lo))],
                        color.filled(),
                    ))
                });
                chart
                    .draw_series(bars)
                    .map_err(err)?
                    .label(series.name.as_str())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                    });
            }
            if let (Some((_, label)), Some(at)) = (&self.line, line_y) {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(0.0, y(at)), (n as f64, y(at))],
                        RED.stroke_width(1),
                    )))
                    .map_err(err)?
                    .label(label.as_str())
                    .legend(|(x, y)| {
                        PathElement::new(vec![(x, y), (x + 12, y)], RED.stroke_width(1))
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font((FONT, 12))
                .draw()
                .map_err(err)?;
            let centers: Vec<(i32, i32)> = (0..n)
                .map(|i| chart.backend_coord(&(i as f64 + 0.5, lo)))
                .collect();
            category_labels(&root, &self.categories, &centers)?;
            root.present().map_err(err)?;
        }
        Ok(buf)
    }

    /// Writes the chart to `path`.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        write(path, &self.svg()?)
    }
}

/// A grid of values, one row per `rows` entry and one column per `cols` entry, each cell
/// coloured by its distance from `center` (green above, red below) and labelled with it.
#[derive(Clone, Debug)]
pub struct Heatmap {
    pub title: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// `values[row][col]`; `None`: an empty cell.
    pub values: Vec<Vec<Option<f64>>>,
    pub center: f64,
    /// A line under the title saying how to read the colours.
    pub note: String,
}

impl Heatmap {
    /// The grid as SVG text.
    pub fn svg(&self) -> Result<String, String> {
        if self.rows.is_empty() || self.cols.is_empty() {
            return Err(format!("plot `{}`: no values", self.title));
        }
        let cell = (54i32, 22i32);
        let left = self
            .rows
            .iter()
            .map(|r| r.chars().count() as i32 * 7 + 16)
            .max()
            .unwrap_or(40);
        let top = 62;
        let label_h = label_height(&self.cols) as i32;
        let width = (left + cell.0 * self.cols.len() as i32 + 20).max(360);
        let height = top + cell.1 * self.rows.len() as i32 + label_h + 10;
        let span = self
            .values
            .iter()
            .flatten()
            .flatten()
            .map(|v| (v - self.center).abs())
            .fold(0.0f64, f64::max)
            .max(1e-9);
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (width as u32, height as u32))
                .into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let centered = |size| {
                (FONT, size)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Center))
            };
            root.draw(&Text::new(
                self.title.clone(),
                (width / 2, 16),
                centered(18),
            ))
            .map_err(err)?;
            root.draw(&Text::new(self.note.clone(), (width / 2, 40), centered(12)))
                .map_err(err)?;
            for (r, name) in self.rows.iter().enumerate() {
                let y = top + r as i32 * cell.1;
                let style = (FONT, 12)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Right, VPos::Center));
                root.draw(&Text::new(name.clone(), (left - 6, y + cell.1 / 2), style))
                    .map_err(err)?;
                for c in 0..self.cols.len() {
                    let x = left + c as i32 * cell.0;
                    let value = self
                        .values
                        .get(r)
                        .and_then(|row| row.get(c))
                        .copied()
                        .flatten();
                    let fill = match value {
                        Some(v) => shade(v - self.center, span),
                        None => RGBColor(240, 240, 240),
                    };
                    root.draw(&Rectangle::new(
                        [(x, y), (x + cell.0, y + cell.1)],
                        fill.filled(),
                    ))
                    .map_err(err)?;
                    root.draw(&Rectangle::new(
                        [(x, y), (x + cell.0, y + cell.1)],
                        RGBColor(255, 255, 255).stroke_width(1),
                    ))
                    .map_err(err)?;
                    if let Some(v) = value {
                        root.draw(&Text::new(
                            format!("{v:.2}"),
                            (x + cell.0 / 2, y + cell.1 / 2),
                            centered(11),
                        ))
                        .map_err(err)?;
                    }
                }
            }
            let bottom = top + cell.1 * self.rows.len() as i32;
            let centers: Vec<(i32, i32)> = (0..self.cols.len())
                .map(|c| (left + c as i32 * cell.0 + cell.0 / 2, bottom))
                .collect();
            category_labels(&root, &self.cols, &centers)?;
            root.present().map_err(err)?;
        }
        Ok(buf)
    }

    /// Writes the grid to `path`.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        write(path, &self.svg()?)
    }
}

/// The plot file beside the table `table` (`dir/NAME.md` -> `dir/NAME-WHAT.svg`).
pub fn path_beside(table: &Path, what: &str) -> PathBuf {
    let stem = table
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plot".into());
    table.with_file_name(format!("{stem}-{what}.svg"))
}

/// Markdown showing the plot `svg` from a table in the same folder.
pub fn link(svg: &Path, alt: &str) -> String {
    let name = svg
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("![{alt}]({name})")
}

/// Writes the plot and returns the Markdown line for the table (or the reason it could not
/// be written, as a line the table shows instead).
pub fn write_linked(svg: Result<String, String>, path: &Path, alt: &str) -> String {
    match svg.and_then(|text| write(path, &text)) {
        Ok(()) => format!("{}\n", link(path, alt)),
        Err(e) => format!("(plot not written: {e})\n"),
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plotting: {e}")
}

/// Pixels below the axis for the category names: written across when they are short, turned
/// down a quarter turn when any is long.
fn label_height(names: &[String]) -> u32 {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as u32;
    if turned(names) { longest * 7 + 14 } else { 30 }
}

fn turned(names: &[String]) -> bool {
    names.iter().any(|n| n.chars().count() > 6) || names.len() > 16
}

/// The category names under the points `centers` (pixels on the axis).
fn category_labels(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    names: &[String],
    centers: &[(i32, i32)],
) -> Result<(), String> {
    let turn = turned(names);
    for (name, &(x, y)) in names.iter().zip(centers) {
        let style = if turn {
            (FONT, 12)
                .into_font()
                .transform(FontTransform::Rotate90)
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center))
        } else {
            (FONT, 12)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top))
        };
        root.draw(&Text::new(name.clone(), (x, y + 6), style))
            .map_err(err)?;
    }
    Ok(())
}

/// Green for `d > 0`, red for `d < 0`, paler the closer `d` is to 0 (relative to `span`);
/// light grey for no difference at all.
fn shade(d: f64, span: f64) -> RGBColor {
    if d == 0.0 {
        return RGBColor(248, 248, 248);
    }
    let t = (d.abs() / span).clamp(0.0, 1.0);
    let fade = |full: u8| (255.0 - (255.0 - f64::from(full)) * (0.15 + 0.85 * t)) as u8;
    if d >= 0.0 {
        RGBColor(fade(90), fade(180), fade(100))
    } else {
        RGBColor(fade(220), fade(90), fade(80))
    }
}

/// `v` for an axis: 1.2k, 35M, 0.85.
fn number(v: f64) -> String {
    let a = v.abs();
    let (x, unit) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = if x.fract().abs() < 1e-9 || x.abs() >= 10.0 {
        format!("{x:.0}")
    } else {
        let digits = if x.abs() >= 1.0 { 1 } else { 2 };
        let t = format!("{x:.digits$}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{text}{unit}")
}

/// Whether `svg` is one well-formed `<svg>` element: every tag closed in order (for tests of
/// the runners' plots).
pub fn well_formed(svg: &str) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg.trim();
    if !rest.starts_with("<svg") {
        return Err("does not start with <svg".into());
    }
    let mut seen_root = false;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').ok_or("a tag is not closed")? + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(o) if o == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        if open.is_empty() && seen_root {
            return Err(format!("<{tag}> after the root element"));
        }
        seen_root = true;
        if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap_or("").to_string();
            open.push(name);
        }
    }
    if !open.is_empty() {
        return Err(format!("unclosed: {open:?}"));
    }
    if !rest.trim().is_empty() {
        return Err("text after the root element".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// Whether some element of `svg` has the text `t` (the backend writes it on a line of
    /// its own).
    fn has_text(svg: &str, t: &str) -> bool {
        svg.contains(&format!(">\n{t}\n<")) || svg.contains(&format!(">{t}<"))
    }

    #[test]
    fn bars_are_drawn_per_value_with_labels_and_legend() {
        let chart = Bars::new(
            "SASS instructions",
            "instructions",
            names(&["saxpy", "a<b&c"]),
        )
        .series("ompcc", vec![Some(30.0), Some(12.0)])
        .series("nvcc", vec![Some(19.0), None])
        .line(25.0, "goal");
        let svg = chart.svg().unwrap();
        well_formed(&svg).unwrap();
        // three bars and the two legend boxes, on the white background
        let filled_rects = svg.matches("<rect").count();
        assert!(filled_rects >= 3 + 2, "{filled_rects} rects");
        assert!(has_text(&svg, "saxpy"), "{svg}");
        assert!(has_text(&svg, "a&lt;b&amp;c"), "labels are escaped");
        for t in ["ompcc", "nvcc", "goal"] {
            assert!(has_text(&svg, t), "{t}");
        }
    }

    #[test]
    fn a_log_axis_leaves_out_what_it_cannot_show() {
        let chart = Bars::new("bytes", "bytes", names(&["a", "b"]))
            .series("naive", vec![Some(1e6), Some(0.0)])
            .series("planned", vec![Some(5e4), Some(2e3)])
            .log_y();
        let svg = chart.svg().unwrap();
        well_formed(&svg).unwrap();
        assert!(has_text(&svg, "1M"), "decades are labelled: {svg}");
        let empty = Bars::new("t", "y", names(&["a"])).series("s", vec![None]);
        assert!(empty.svg().is_err());
    }

    #[test]
    fn heatmap_cells_carry_their_values() {
        let map = Heatmap {
            title: "ablation".into(),
            rows: names(&["saxpy", "dot"]),
            cols: names(&["gvn", "licm"]),
            values: vec![vec![Some(1.25), Some(0.9)], vec![None, Some(1.0)]],
            center: 1.0,
            note: "above 1: the pass helps".into(),
        };
        let svg = map.svg().unwrap();
        well_formed(&svg).unwrap();
        for v in ["1.25", "0.90", "1.00"] {
            assert!(has_text(&svg, v), "{v}");
        }
        assert_eq!(shade(0.0, 1.0), shade(-0.0, 1.0));
        assert_eq!(shade(0.0, 1.0), RGBColor(248, 248, 248));
        assert_ne!(shade(0.5, 1.0), shade(-0.5, 1.0));
    }

    #[test]
    fn plot_files_sit_beside_their_table() {
        let p = path_beside(Path::new("bench/results/kernels.md"), "ablation");
        assert_eq!(p, Path::new("bench/results/kernels-ablation.svg"));
        assert_eq!(link(&p, "ablation"), "![ablation](kernels-ablation.svg)");
        assert!(well_formed("<svg a=\"1\"><g><rect/></g></svg>").is_ok());
        assert!(well_formed("<svg><g></svg>").is_err());
        assert!(well_formed("<svg></svg><svg></svg>").is_err());
        assert_eq!(number(1500.0), "1500");
        assert_eq!(number(25_000.0), "25k");
        assert_eq!(number(0.85), "0.85");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(2.5), "2.5");
    }
}
