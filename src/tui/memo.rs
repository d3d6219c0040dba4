//! One memo for what a frame and the keys before it ask for many times:
//! the subjects pane's rows (tens of milliseconds for 100k subjects), a
//! long text's row index, a client view's line rows, a preview search's
//! matches. It keeps the last value built with the stamp of what it was
//! built from; a stamp is made of generation counters (a load's, the
//! cache's, the ledger's, a pane's) and the few plain values a view adds
//! (its width, wrap), compared whole: nothing is hashed, so two different
//! inputs never share a stamp. A cache, not state: what `get` returns is
//! what `build` would return.

use std::cell::RefCell;
use std::rc::Rc;

/// The last value built and the stamp it was built for.
#[derive(Debug)]
pub struct Memo<Stamp, T>(RefCell<Option<(Stamp, Rc<T>)>>);

impl<Stamp, T> Default for Memo<Stamp, T> {
    fn default() -> Self {
        Self(RefCell::new(None))
    }
}

impl<Stamp: PartialEq, T> Memo<Stamp, T> {
    /// The value for `stamp`, built with `build` unless it is kept.
    pub fn get(&self, stamp: Stamp, build: impl FnOnce() -> T) -> Rc<T> {
        if let Some((kept, value)) = &*self.0.borrow()
            && *kept == stamp
        {
            return Rc::clone(value);
        }
        let value = Rc::new(build());
        *self.0.borrow_mut() = Some((stamp, Rc::clone(&value)));
        value
    }
}

impl<Stamp: PartialEq, T: Clone> Memo<Stamp, T> {
    /// The value for `stamp` (built with `build` unless kept), then grown
    /// in place by `extend` (a layout laid out further down a text: the
    /// rows above stay as they were).
    pub fn get_extended(
        &self,
        stamp: Stamp,
        build: impl FnOnce() -> T,
        extend: impl FnOnce(&mut T),
    ) -> Rc<T> {
        let mut kept = self.0.borrow_mut();
        if kept.as_ref().is_some_and(|(s, _)| *s != stamp) {
            *kept = None;
        }
        let (_, value) = kept.get_or_insert_with(|| (stamp, Rc::new(build())));
        extend(Rc::make_mut(value));
        Rc::clone(value)
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::cell::Cell;

    #[test]
    fn a_value_is_built_again_only_for_another_stamp() {
        let memo: Memo<(u64, usize), String> = Memo::default();
        let builds = Cell::new(0);
        let build = |s: &str| {
            builds.set(builds.get() + 1);
            s.to_owned()
        };
        assert_eq!(*memo.get((1, 80), || build("a")), "a");
        assert_eq!(*memo.get((1, 80), || build("b")), "a");
        assert_eq!(builds.get(), 1);
        assert_eq!(*memo.get((2, 80), || build("c")), "c");
        assert_eq!(*memo.get((2, 40), || build("d")), "d");
        assert_eq!(builds.get(), 3);
    }

    #[test]
    fn an_extended_value_keeps_what_was_built_for_its_stamp() {
        let memo: Memo<u64, Vec<u32>> = Memo::default();
        let first = memo.get_extended(1, Vec::new, |v| v.push(1));
        assert_eq!(*first, [1]);
        let grown = memo.get_extended(1, || vec![9], |v| v.push(2));
        assert_eq!(*grown, [1, 2]);
        let other = memo.get_extended(2, || vec![9], |v| v.push(3));
        assert_eq!(*other, [9, 3]);
    }
}
