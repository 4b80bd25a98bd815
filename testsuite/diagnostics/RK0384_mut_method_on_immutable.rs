#[repr(C)]
#[derive(Clone, Copy)]
pub struct Counter {
    n: u32,
}

impl Counter {
    fn bump(&mut self) {
        self.n += 1;
    }
}

#[offload_kernel]
fn kernel(out: *mut u32) {
    let c = Counter { n: 0 };
    c.bump();
    unsafe { *out = c.n; }
}
