//! What a device lets one launch have: the shape's limits, checked before anything is
//! allocated (also the simulator's, with its own numbers), and the dynamic shared memory a
//! CUDA kernel must ask the driver for beyond the default.

use super::{Api, CuFunction, CuResult, CudaDeviceInfo, Device, Kind};
use crate::LaunchConfig;
use crate::error::OffloadError;
use cudarc::driver::sys;

/// Lets `function` have `bytes` of dynamic shared memory, beyond the limit every kernel has
/// without asking (48 KiB on NVIDIA GPUs), as CUDA requires of a kernel before a launch that
/// uses more; refused with the sizes when the kernel's static shared memory and `bytes`
/// together exceed what the device allows a workgroup at all. Only CUDA devices ask: for HIP
/// rkc's limit is already the hardware's.
pub(super) fn allow_dynamic_shared(
    api: &Api,
    device: &mut Device,
    function: CuFunction,
    name: &str,
    bytes: u32,
) -> Result<(), OffloadError> {
    if device.info.kind != Kind::Cuda
        || device.dynamic_shared.get(&(function as usize)).is_some_and(|&b| b >= bytes)
    {
        return Ok(());
    }
    use sys::CUfunction_attribute as F;
    let mut fixed = 0;
    // SAFETY: `function` is a function of the current context; `fixed` is a live out-pointer.
    api.check("cuFuncGetAttribute", unsafe {
        sys::cuFuncGetAttribute(&mut fixed, F::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function)
            as CuResult
    })?;
    let fixed = fixed.max(0) as u32;
    let max = device.info.max_shared_optin;
    if u64::from(fixed) + u64::from(bytes) > u64::from(max) {
        return Err(OffloadError::InvalidLaunch {
            kernel: name.into(),
            reason: format!(
                "dyn_cache of {bytes} bytes with the kernel's {fixed} bytes of static shared memory, above the device's {max} bytes of shared memory per workgroup"
            ),
        });
    }
    // SAFETY: as above; the value is within the device's limit.
    api.check("cuFuncSetAttribute", unsafe {
        sys::cuFuncSetAttribute(
            function,
            F::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        ) as CuResult
    })?;
    device.dynamic_shared.insert(function as usize, bytes);
    Ok(())
}

/// Checks a launch shape against a device's limits before anything is allocated.
pub(crate) fn check_shape(
    kernel: &str,
    config: &LaunchConfig,
    info: &CudaDeviceInfo,
) -> Result<(), OffloadError> {
    check_limits(
        kernel,
        config,
        info.max_threads_per_block,
        info.max_block_dim,
        info.max_grid_dim,
        info.max_shared_optin,
    )
}

/// Checks a launch shape against limits given as numbers: a device's (`check_shape`), or the
/// simulator's.
pub(crate) fn check_limits(
    kernel: &str,
    config: &LaunchConfig,
    max_threads: u32,
    max_block: [u32; 3],
    max_grid: [u32; 3],
    max_shared: u32,
) -> Result<(), OffloadError> {
    let bad = |reason: String| OffloadError::InvalidLaunch { kernel: kernel.into(), reason };
    for (what, dims, max) in [
        ("workgroup_dim", config.workgroup_dim, max_grid),
        ("thread_dim", config.thread_dim, max_block),
    ] {
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            if dims[k] == 0 {
                return Err(bad(format!("{what}.{axis} is 0; every dimension must be at least 1")));
            }
            if dims[k] > max[k] {
                return Err(bad(format!(
                    "{what}.{axis} is {}, above the device's limit of {}",
                    dims[k], max[k]
                )));
            }
        }
    }
    let threads = u64::from(config.thread_dim[0])
        * u64::from(config.thread_dim[1])
        * u64::from(config.thread_dim[2]);
    if threads > u64::from(max_threads) {
        return Err(bad(format!(
            "{threads} threads per workgroup, above the device's limit of {max_threads}"
        )));
    }
    if config.dyn_cache > max_shared {
        return Err(bad(format!(
            "dyn_cache of {} bytes, above the device's {max_shared} bytes of shared memory per workgroup",
            config.dyn_cache
        )));
    }
    Ok(())
}
