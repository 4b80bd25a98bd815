// A type with a const parameter and no default is written with its argument (rustc's E0107);
// a value's path infers it.
use rkc_offload::prelude::*;

struct Tile<const N: usize> {
    cells: [f32; N],
}

fn total(t: &Tile) -> f32 {
    t.cells.iter().sum()
}

#[offload_kernel]
pub fn k(out: &mut [f32]) {
    let t = Tile { cells: [1.0; 4] };
    out[0] = total(&t);
}
