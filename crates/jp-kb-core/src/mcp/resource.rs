//! Subjects as MCP resources.
//!
//! Listed: every available and every learned subject of every enabled topic
//! (what the assistant can see), topics in configuration order, subjects in
//! slug order. Readable: those, plus hidden subjects named exactly (the
//! RFD's exact-slug rule, through the same lookup `learn` uses). Never
//! readable: disabled subjects, subjects of disabled topics, and anything
//! that is not a walked subject of the topic: a URI is only ever looked up
//! among the topic's subjects, never turned into a path. Read through the
//! guarded open ([`crate::content::open`]), up to
//! [`MAX_RESOURCE_BYTES`](crate::content::MAX_RESOURCE_BYTES).

use crate::KnowledgeBase;
use std::io::Read as _;

use crate::content::open::{open_subject, os_reason};
use crate::content::{MAX_RESOURCE_BYTES, looks_binary};
use crate::subjects::pattern::find_exact;
use crate::subjects::{Resolution, Subject};
use crate::topic::{TopicError, TopicState};

use super::mime::{mime_type, served_type};
use super::uri::{parse_subject_uri, subject_uri};

/// One listed resource.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResourceEntry {
    /// Its `kb://` URI.
    pub uri: String,
    /// `{topic}/{slug}`: unique across topics.
    pub name: String,
    /// The slug.
    pub title: String,
    /// What it is (its size).
    pub description: String,
    /// Its MIME type.
    pub mime_type: &'static str,
    /// Size on disk, in bytes.
    pub size: u64,
}

/// Every resource a client may list, in order.
pub fn list_resources(kb: &KnowledgeBase) -> Vec<ResourceEntry> {
    let mut out = Vec::new();
    for state in kb.enabled_topics() {
        let Some(resolution) = state.resolution() else {
            continue;
        };
        for (i, subject) in resolution.subjects().iter().enumerate() {
            let learned = resolution.is_learned(i);
            if learned || resolution.is_available(i) {
                out.push(entry(state, subject, learned));
            }
        }
    }
    out
}

fn entry(state: &TopicState, subject: &Subject, learned: bool) -> ResourceEntry {
    let name = state.config.name();
    let description = if learned {
        format!("Subject of topic \"{name}\", learned: already in the system prompt.")
    } else {
        format!("Subject of topic \"{name}\".")
    };
    ResourceEntry {
        uri: subject_uri(state.id(), subject.slug()),
        name: format!("{}/{}", state.id(), subject.slug()),
        title: subject.slug().to_owned(),
        description,
        mime_type: mime_type(subject.extension()),
        // The walk may be a reused one: the size is taken now.
        size: std::fs::metadata(subject.path()).map_or(subject.bytes, |m| m.len()),
    }
}

/// A subject's bytes as served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Body {
    /// The file as it is (not trimmed, not fenced): valid UTF-8 without a
    /// NUL byte in its first 8192 bytes.
    Text(String),
    /// Anything else, to be sent base64-encoded.
    Blob(Vec<u8>),
}

impl Body {
    /// The bytes served, text or not.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Body::Text(text) => text.as_bytes(),
            Body::Blob(bytes) => bytes,
        }
    }

    /// The text, when the body is one.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Body::Text(text) => Some(text),
            Body::Blob(_) => None,
        }
    }
}

/// What reading a resource gives.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResourceContent {
    /// The subject's URI (`kb://{topic}/{slug}`).
    pub uri: String,
    /// Its MIME type, by the file's extension.
    pub mime_type: &'static str,
    /// Its content.
    pub body: Body,
}

/// Why a resource cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Not a `kb://` subject URI.
    #[error("not a subject URI: {0:?} (expected kb://{{topic}}/{{slug}})")]
    InvalidUri(String),
    /// No enabled topic of that id.
    #[error("resource not found: {uri} (no enabled topic \"{topic}\")")]
    UnknownTopic {
        /// The URI asked for.
        uri: String,
        /// The topic's id.
        topic: String,
    },
    /// The topic's directory cannot be read.
    #[error(
        "resource not found: {uri} (topic \"{topic}\" cannot be read: {})",
        .reason.as_ref().map(ToString::to_string).unwrap_or_default()
    )]
    TopicUnreadable {
        /// The URI asked for.
        uri: String,
        /// The topic's id.
        topic: String,
        /// Why its directory cannot be read, when it is the directory
        /// itself (not its walk).
        reason: Option<TopicError>,
    },
    /// The topic has no such subject.
    #[error("resource not found: {uri} (topic \"{topic}\" has no subject \"{slug}\")")]
    NoSubject {
        /// The URI asked for.
        uri: String,
        /// The topic's id.
        topic: String,
        /// The subject's slug.
        slug: String,
    },
    /// The subject is disabled.
    #[error("Subject \"{slug}\" of topic \"{topic}\" is disabled and cannot be read.")]
    Disabled {
        /// The topic's id.
        topic: String,
        /// The subject's slug.
        slug: String,
    },
    /// The subject's file cannot be read.
    #[error("subject \"{slug}\" of topic \"{topic}\" cannot be read: {reason}")]
    Unreadable {
        /// The topic's id.
        topic: String,
        /// The subject's slug.
        slug: String,
        /// Why the file cannot be read.
        reason: String,
    },
    /// The subject is larger than a resource may be.
    #[error(
        "subject \"{slug}\" of topic \"{topic}\" is too large to read as a resource: {bytes} bytes, above the limit of {limit} bytes"
    )]
    TooLarge {
        /// The topic's id.
        topic: String,
        /// The subject's slug.
        slug: String,
        /// The file's size.
        bytes: u64,
        /// The largest resource served.
        limit: u64,
    },
}

impl ReadError {
    /// True for errors that mean "no such resource" (as opposed to a URI
    /// that is not ours, or a file that failed to read).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            ReadError::UnknownTopic { .. }
                | ReadError::TopicUnreadable { .. }
                | ReadError::NoSubject { .. }
                | ReadError::Disabled { .. }
        )
    }
}

/// Reads the resource `uri`.
pub fn read_resource(kb: &KnowledgeBase, uri: &str) -> Result<ResourceContent, ReadError> {
    let (topic, slug) =
        parse_subject_uri(uri).ok_or_else(|| ReadError::InvalidUri(uri.to_owned()))?;
    let state = kb
        .enabled_topics()
        .find(|t| t.id() == topic)
        .ok_or_else(|| ReadError::UnknownTopic {
            uri: uri.to_owned(),
            topic: topic.clone(),
        })?;
    let resolution = resolution_of(state, uri)?;
    let index = find_exact(resolution.subjects(), &slug).ok_or_else(|| ReadError::NoSubject {
        uri: uri.to_owned(),
        topic: topic.clone(),
        slug: slug.clone(),
    })?;
    let subject = &resolution.subjects()[index];
    if resolution.is_disabled(index) {
        return Err(ReadError::Disabled {
            topic,
            slug: subject.slug().to_owned(),
        });
    }
    let unreadable = |reason: String| ReadError::Unreadable {
        topic: topic.clone(),
        slug: subject.slug().to_owned(),
        reason,
    };
    // The walk may be older than the files (it is reused while directory
    // times hold): the guarded open checks the file as it is now.
    let opened = open_subject(kb.root(), subject.path()).map_err(|e| unreadable(e.to_string()))?;
    let too_large = |bytes: u64| ReadError::TooLarge {
        topic: topic.clone(),
        slug: subject.slug().to_owned(),
        bytes,
        limit: MAX_RESOURCE_BYTES,
    };
    if opened.size > MAX_RESOURCE_BYTES {
        return Err(too_large(opened.size));
    }
    let mut bytes = Vec::new();
    // One byte more than the limit tells a file that grew since `fstat`.
    opened
        .file
        .take(MAX_RESOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(os_reason(&e)))?;
    if bytes.len() as u64 > MAX_RESOURCE_BYTES {
        return Err(too_large(opened.size.max(bytes.len() as u64)));
    }
    let body = if looks_binary(&bytes) {
        Body::Blob(bytes)
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => Body::Text(text),
            Err(e) => Body::Blob(e.into_bytes()),
        }
    };
    let is_text = matches!(body, Body::Text(_));
    Ok(ResourceContent {
        uri: uri.to_owned(),
        mime_type: served_type(subject.extension(), is_text),
        body,
    })
}

fn resolution_of<'a>(state: &'a TopicState, uri: &str) -> Result<&'a Resolution, ReadError> {
    state
        .resolution()
        .ok_or_else(|| ReadError::TopicUnreadable {
            uri: uri.to_owned(),
            topic: state.id().to_owned(),
            reason: state.dir.as_ref().err().cloned(),
        })
}
