//! `Clone`. The language clones primitives, references, raw pointers, arrays and tuples of
//! `Copy` types and closures by copying them.

#[lang = "clone"]
pub trait Clone: Sized {
    fn clone(&self) -> Self;

    fn clone_from(&mut self, source: &Self) {
        *self = source.clone()
    }
}
