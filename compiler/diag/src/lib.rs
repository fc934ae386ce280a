//! Diagnostics: error codes, spans mapped to the user's files, rendering through ariadne.
