//! PTX emulator: parses PTX, decodes it once, executes grids with checked memory and counters.
