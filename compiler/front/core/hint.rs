//! `core::hint`.

pub fn black_box<T>(dummy: T) -> T {
    crate::intrinsics::black_box(dummy)
}

pub unsafe fn unreachable_unchecked() -> ! {
    crate::intrinsics::unreachable()
}

pub unsafe fn assert_unchecked(cond: bool) {
    let _ = cond;
}

pub fn spin_loop() {}

pub fn must_use<T>(value: T) -> T {
    value
}

/// `if condition { true_val } else { false_val }`, both evaluated, as a select.
pub fn select_unpredictable<T>(condition: bool, true_val: T, false_val: T) -> T {
    if condition { true_val } else { false_val }
}
