//! The core's own suites, as one test binary (`cargo test -p
//! jp-kb-core` runs them): golden edit fixtures, the edit and configuration
//! property tests, real-world TOML round trips, the write layer's
//! atomicity, locking and permissions, and the subject rules.

mod config_props;
mod door_agreement;
mod edit_fixtures;
mod edit_props;
mod edit_roundtrip;
mod edit_write;
mod facade_example;
mod jp_kind;
mod no_commands;
mod properties;
