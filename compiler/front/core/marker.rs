//! Marker traits and `PhantomData`.

#[lang = "sized"]
pub trait Sized {}

#[lang = "copy"]
pub trait Copy: Clone {}

#[lang = "send"]
pub unsafe trait Send {}

#[lang = "sync"]
pub unsafe trait Sync {}

#[lang = "unpin"]
pub trait Unpin {}

#[lang = "PhantomData"]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct PhantomData<T>;
