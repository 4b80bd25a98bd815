// `continue` names a loop: a labelled block has no next iteration (rustc's E0696).
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(x: &[u32], out: &mut [u32]) {
    let found = 'search: {
        for &v in x {
            if v == 0 {
                continue 'search;
            }
        }
        1
    };
    out[0] = found;
}
