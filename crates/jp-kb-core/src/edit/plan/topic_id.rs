//! The rule for a new topic's id, a leaf that the planner's topics and its
//! refusals both use.

/// The longest topic id accepted for a new topic.
pub const MAX_TOPIC_ID_LEN: usize = 64;

/// Whether `id` may name a new topic: 1 to [`MAX_TOPIC_ID_LEN`] ASCII
/// letters, digits, `-` and `_`. The id is what the assistant passes to
/// `learn`, what `-k TOPIC/GLOB` splits at `/`, and a path segment of
/// `kb://` URIs; these characters need no quoting in any of them, nor in
/// a TOML key. Topics already configured with other ids still load.
pub fn is_valid_topic_id(id: &str) -> bool {
    (1..=MAX_TOPIC_ID_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Why an id cannot name a new topic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TopicIdError {
    /// No id given.
    #[error("the topic id is required")]
    Missing,
    /// Characters or a length [`is_valid_topic_id`] refuses.
    #[error(
        "topic id `{}`: use 1 to {MAX_TOPIC_ID_LEN} ASCII letters, digits, `-` or `_` (the assistant passes it to `learn`; `-k TOPIC/GLOB` splits at `/`)",
        .0.escape_debug()
    )]
    Invalid(String),
}

/// [`is_valid_topic_id`] with the message saying what to do.
///
/// # Errors
/// [`TopicIdError`], when the id is not valid.
pub fn check_topic_id(id: &str) -> Result<(), TopicIdError> {
    if id.is_empty() {
        return Err(TopicIdError::Missing);
    }
    if is_valid_topic_id(id) {
        return Ok(());
    }
    Err(TopicIdError::Invalid(id.to_owned()))
}
