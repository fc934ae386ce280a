//! SSA IR: entities, types, instructions, builder, verifier, text printer and parser, CFG analyses.
