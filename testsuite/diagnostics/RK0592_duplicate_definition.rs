// A method defined in two inherent impls of one type (rustc's E0592): a call would be
// ambiguous. rkc used to call one of them silently.
use rkc_offload::prelude::*;

#[derive(Clone, Copy)]
struct Temp(f32);

impl Temp {
    fn kelvin(self) -> f32 {
        self.0 + 273.15
    }
}

impl Temp {
    fn kelvin(self) -> f32 {
        self.0
    }
}

#[offload_kernel]
pub fn convert(out: &mut [f32]) {
    out[0] = Temp(out[0]).kelvin();
}
