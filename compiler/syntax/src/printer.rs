//! `--emit=ast`: an indented dump of the tree.
use crate::ast::TranslationUnit;

/// Renders the tree as indented text.
pub fn print_ast(tu: &TranslationUnit) -> String {
    format!("{:#?}", tu.items)
}
