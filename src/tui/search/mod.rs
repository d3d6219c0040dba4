//! The search mode (`S`): ranked lexical search over the knowledge base.
//! Its state (query, hits), its keys, the worker that runs queries on an
//! index kept in memory, and the hit list as drawn.

pub mod keys;
pub mod state;
pub mod view;
pub mod worker;
