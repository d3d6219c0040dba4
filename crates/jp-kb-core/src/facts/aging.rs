//! What any subject's front matter may say about its age and certainty:
//! `expires` (after this day it is stale), `last_confirmed` and
//! `confidence` (0.0–1.0), the fields the Facts format gives each fact
//! (`docs/facts.md`). Values that cannot be read are kept as written, so
//! `check` can point at them instead of treating them as absent.

use serde_json::Value;

use super::date::Day;

/// Below this confidence a subject (or fact) is marked low-confidence:
/// the Facts format calls 0.5–0.6 "suggested but not fully verified" and
/// below that "inferred from limited data" or "speculative".
pub const LOW_CONFIDENCE: f64 = 0.5;

/// A date field: a day, or the text that is not one.
#[derive(Debug, Clone, PartialEq)]
pub enum Dated {
    /// A valid ISO-8601 date (or timestamp: its day).
    Day(Day),
    /// Anything else, as written (a number, a list: their JSON text).
    Invalid(String),
}

impl Dated {
    /// The field `key` of `fields`; `None` when absent or `null`.
    pub fn field(fields: &Value, key: &str) -> Option<Self> {
        match fields.get(key)? {
            Value::Null => None,
            Value::String(s) => {
                Some(Day::parse(s.trim()).map_or_else(|| Dated::Invalid(s.clone()), Dated::Day))
            }
            other => Some(Dated::Invalid(other.to_string())),
        }
    }

    /// The day, when valid.
    pub fn day(&self) -> Option<Day> {
        match self {
            Dated::Day(d) => Some(*d),
            Dated::Invalid(_) => None,
        }
    }
}

/// A confidence field: a number in 0–1, or what was written instead.
#[derive(Debug, Clone, PartialEq)]
pub enum Confidence {
    /// A number from 0.0 to 1.0.
    Value(f64),
    /// A number outside 0–1, or not a number (its JSON text).
    Invalid(String),
}

impl Confidence {
    /// The field `confidence` of `fields`; `None` when absent or `null`.
    pub fn field(fields: &Value) -> Option<Self> {
        Some(match fields.get("confidence")? {
            Value::Null => return None,
            Value::Number(n) => match n.as_f64() {
                Some(v) if (0.0..=1.0).contains(&v) => Confidence::Value(v),
                _ => Confidence::Invalid(n.to_string()),
            },
            other => Confidence::Invalid(other.to_string()),
        })
    }

    /// The value, when valid.
    pub fn value(&self) -> Option<f64> {
        match self {
            Confidence::Value(v) => Some(*v),
            Confidence::Invalid(_) => None,
        }
    }
}

/// The age and certainty a subject's front matter states.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Aging {
    /// `expires`: after this day the subject is stale.
    pub expires: Option<Dated>,
    /// `last_confirmed`: the day it was last seen to hold.
    pub last_confirmed: Option<Dated>,
    /// `confidence`, 0.0–1.0.
    pub confidence: Option<Confidence>,
}

impl Aging {
    /// The fields of a parsed front matter (any other value: none).
    pub fn of_front_matter(front: &Value) -> Self {
        if !front.is_object() {
            return Self::default();
        }
        Self {
            expires: Dated::field(front, "expires"),
            last_confirmed: Dated::field(front, "last_confirmed"),
            confidence: Confidence::field(front),
        }
    }

    /// Whether the front matter states none of them.
    pub fn is_empty(&self) -> bool {
        self.expires.is_none() && self.last_confirmed.is_none() && self.confidence.is_none()
    }

    /// The day it expired on, when `today` is after it.
    pub fn expired(&self, today: Day) -> Option<Day> {
        self.expires
            .as_ref()
            .and_then(Dated::day)
            .filter(|&day| today > day)
    }

    /// Its confidence, when below [`LOW_CONFIDENCE`].
    pub fn low_confidence(&self) -> Option<f64> {
        self.confidence
            .as_ref()
            .and_then(Confidence::value)
            .filter(|&c| c < LOW_CONFIDENCE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_fields_and_keeps_what_is_not_readable() {
        let today = Day::parse("2026-05-01").unwrap();
        let aging = Aging::of_front_matter(&json!({
            "expires": "2026-04-30", "confidence": 0.3, "last_confirmed": "2026-03-01",
        }));
        assert_eq!(aging.expired(today), Day::parse("2026-04-30"));
        assert_eq!(aging.low_confidence(), Some(0.3));
        assert_eq!(aging.expired(Day::parse("2026-04-30").unwrap()), None);

        let bad = Aging::of_front_matter(&json!({
            "expires": "soon", "confidence": 1.5, "last_confirmed": 20_260_301,
        }));
        assert_eq!(bad.expires, Some(Dated::Invalid("soon".into())));
        assert_eq!(bad.confidence, Some(Confidence::Invalid("1.5".into())));
        assert_eq!(bad.last_confirmed, Some(Dated::Invalid("20260301".into())));
        assert_eq!(bad.expired(today), None);

        assert!(Aging::of_front_matter(&json!({"expires": null, "title": "x"})).is_empty());
        assert!(Aging::of_front_matter(&json!(["expires"])).is_empty());
        assert_eq!(
            Aging::of_front_matter(&json!({"confidence": "high"})).confidence,
            Some(Confidence::Invalid("\"high\"".into()))
        );
    }
}
