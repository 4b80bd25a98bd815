use rkc_offload::prelude::*;

// Two kernels written by one macro meet the same error at the same span: it is reported once,
// and neither kernel is reported as failing without a reason.
macro_rules! bad_kernels {
    ($($name:ident;)*) => {$(
        #[offload_kernel]
        pub fn $name(x: &mut [f32]) {
            let i = unsafe { global_idx_x() };
            if i < x.len() {
                x[i] = x[i].no_such_method();
            }
        }
    )*};
}

bad_kernels! {
    a;
    b;
}
