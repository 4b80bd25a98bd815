use half::f16;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn multiply(out: &mut [f32; 32]) {
    unsafe {
        let a = shared_array::<f16, 1024>() as *const f16;
        let b = shared_array::<f16, 1024>() as *const f16;
        wgmma_fence();
        *out = wgmma_m64n64k16_f16(a, 64, 128, b, 512, 64, [0.0; 32]);
        wgmma_commit();
        wgmma_wait::<8>();
    }
}
