// A method defined in an impl of a `core` trait that rkc's device core does not have: the error
// points at the impl and says why its methods are missing, instead of only "not found".
use core::fmt::Write;
use rkc_offload::prelude::*;

struct Counter(u32);

impl Write for Counter {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0 += s.len() as u32;
        Ok(())
    }
}

#[offload_kernel]
pub fn count(out: &mut [u32]) {
    let mut c = Counter(0);
    let _ = c.write_str("four");
    out[0] = c.0;
}
