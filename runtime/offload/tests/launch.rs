//! Launch tests on the CPU simulator (CI has no GPU; `OFFLOAD_TARGET=disabled` makes sure
//! of it): argument mapping, the stale-fat-binary check, device indices with upstream's
//! messages, kernel panics and recovery, and launch-shape checks.
//!
//! The fat binaries here carry kernel metadata as rkc writes it, and placeholder image bytes:
//! the simulator runs the rustc-compiled bodies, so no device code is needed.

use offload_binary::{Access, KernelInfo, ParamInfo, ParamKind};
use rkc_offload::prelude::*;
use rkc_offload::{DeviceBuffer, OffloadError, ParamShape};
use std::sync::Once;

#[offload_kernel]
fn kernel(x: *mut [f64; 256]) {
    // SAFETY: calling our arch functions and dereferencing a raw pointer is unsafe
    unsafe {
        let n = (*x).len();
        let i = (thread_idx_x() + block_idx_x() * block_dim_x()) as usize;
        if i < n {
            (*x)[i] = i as f64;
        }
    }
}

#[offload_kernel]
fn saxpy(n: usize, a: f32, x: *const f32, y: *mut f32) {
    // SAFETY: the launch maps n elements behind x and y; the guard keeps i below n.
    unsafe {
        let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as usize;
        if i < n {
            *y.add(i) = a * *x.add(i) + *y.add(i);
        }
    }
}

/// Indexes without a guard: threads past the end hit Rust's bounds check.
#[offload_kernel]
fn unguarded(x: *mut [u32; 8]) {
    // SAFETY: the pointer is mapped for the launch; the index may be out of bounds on purpose.
    unsafe {
        let i = thread_idx_x() as usize;
        (*x)[i] = 7;
    }
}

/// Writes through a `*const` that it only reads, to show that const data is not copied back.
#[offload_kernel]
fn reads_only(x: *const [u32; 4], out: *mut u32) {
    // SAFETY: both pointers are mapped for the launch.
    unsafe {
        *out = (*x)[0] + (*x)[3];
    }
}

/// Thread `leaving` leaves before the barrier the others wait at: a divergent barrier. (rkc
/// refuses `if i == 0 { return; }` before a barrier at compile time, RK0410; a comparison
/// with a parameter is a guard it cannot judge, so the simulator must catch it at run time.)
#[offload_kernel]
fn divergent(x: *mut [u32; 8], leaving: usize) {
    // SAFETY: the pointer is mapped; the thread index is below 8.
    unsafe {
        let i = thread_idx_x() as usize;
        if i == leaving {
            return;
        }
        sync_threads();
        (*x)[i] = 1;
    }
}

/// Odd lanes skip the shuffle the even lanes wait at: a divergent warp operation.
#[offload_kernel]
fn divergent_warp(x: *mut [u32; 64]) {
    // SAFETY: the pointer is mapped; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        if i.is_multiple_of(2) {
            (*x)[i] = warp_shuffle_xor(i as u32, 2);
        }
    }
}

/// Reverses each block's values through dynamic shared memory, and sums each warp.
#[offload_kernel]
fn reverse(x: *mut [u32; 128], sums: *mut [u32; 4]) {
    // SAFETY: dyn_cache holds a u32 per thread of the block; the barrier orders the accesses.
    unsafe {
        let t = thread_idx_x() as usize;
        let n = block_dim_x() as usize;
        let i = block_idx_x() as usize * n + t;
        let tile = dynamic_shared::<u32>();
        *tile.add(t) = (*x)[i];
        sync_threads();
        (*x)[i] = *tile.add(n - 1 - t);
        let s = warp_reduce_add((*x)[i]);
        if lane_id() == 0 {
            (*sums)[i / warp_size() as usize] = s;
        }
    }
}

/// The threads of a block take turns through a ticket in shared memory, last thread first:
/// each spins on an atomic until its turn comes. A GPU's scheduler lets the other threads run
/// meanwhile; the simulator must too, or the first thread it runs spins forever.
#[offload_kernel]
fn take_turns(order: *mut [u32; 64]) {
    // SAFETY: the pointer is mapped; the ticket is only touched atomically after the barrier.
    unsafe {
        let ticket = shared_array::<u32, 1>();
        let t = thread_idx_x();
        if t == 0 {
            (*ticket)[0] = 0;
        }
        sync_threads();
        let mine = block_dim_x() - 1 - t;
        while atomic_add(&mut (*ticket)[0] as *mut u32, 0) != mine {}
        (*order)[t as usize] = atomic_add(&mut (*ticket)[0] as *mut u32, 1);
    }
}

/// Scales a slice in place, by its own length.
#[offload_kernel]
fn scale(x: &mut [f32], k: f32) {
    let i = unsafe { global_idx_x() };
    if i < x.len() {
        x[i] *= k;
    }
}

/// A kernel whose fat-binary metadata disagrees with the host (a stale fat binary).
#[offload_kernel]
fn stale(x: *mut u32) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        *x = 1;
    }
}

/// Registered by its test alone, once as the host declares it and then stale.
#[offload_kernel]
fn relinked(x: *mut u32) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        *x += 1;
    }
}

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
struct Params {
    scale: f32,
    count: u32,
}

/// A struct and an array by value (copied in, as upstream maps them).
#[offload_kernel]
fn by_value(p: Params, w: [f32; 2], out: *mut [f32; 4]) {
    // SAFETY: four threads, four elements.
    unsafe {
        let i = thread_idx_x() as usize;
        (*out)[i] = p.scale * w[i % 2] + p.count as f32;
    }
}

/// Types reached through a module, for kernels that name them by a path of several segments.
mod types {
    use rkc_offload::prelude::*;

    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq, DeviceCopy)]
    pub struct Vec3 {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }
}

/// A generic `#[repr(C)]` struct: `DeviceCopy` for the arguments that make its fields so.
#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
struct Pair<T> {
    a: T,
    b: T,
}

/// A `#[repr(transparent)]` newtype: laid out as its one field.
#[repr(transparent)]
#[derive(Clone, Copy, DeviceCopy)]
struct Meters(f32);

#[offload_kernel]
fn generic_and_transparent(p: Pair<f32>, m: Meters, out: *mut [f32; 4]) {
    // SAFETY: four threads, four elements.
    unsafe {
        let i = thread_idx_x() as usize;
        (*out)[i] = p.a * i as f32 + p.b + m.0;
    }
}

/// An array length named by a constant.
const N: usize = 64;

/// A type alias for a parameter's pointee.
type Grid = [f32; 64];

/// A fieldless enum passed by value: the device sees its `u8` discriminant.
#[repr(u8)]
#[derive(Clone, Copy, DeviceCopy)]
enum Mode {
    Add = 1,
    Mul = 7,
}

/// References to sized data, as public GPU projects write kernels: `&T` is copied in, `&mut T`
/// in and back.
#[offload_kernel]
fn refs(p: &Params, x: &mut [f32; 256]) {
    // SAFETY: the builtin only reads this thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    x[i] = x[i] * p.scale + p.count as f32;
}

/// Array lengths named by a constant and by an expression.
#[offload_kernel]
fn named_lengths(x: *mut [f32; N], y: &[f32; 4 * 16]) {
    // SAFETY: the pointer is mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        (*x)[i] += y[i];
    }
}

/// A struct named through its module, by value and behind a reference.
#[offload_kernel]
fn paths(v: types::Vec3, out: &mut crate::types::Vec3) {
    out.x = v.x * 2.0;
    out.y = v.y * 2.0;
    out.z = v.z * 2.0;
}

/// A parameter whose pointee is a type alias.
#[offload_kernel]
fn alias(g: &mut Grid) {
    // SAFETY: the builtin only reads this thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    g[i] = i as f32;
}

/// A `#[repr(u8)]` enum by value.
#[offload_kernel]
fn by_mode(mode: Mode, x: &mut [u32; 8]) {
    // SAFETY: the builtin only reads this thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    match mode {
        Mode::Add => x[i] += 1,
        Mode::Mul => x[i] *= 7,
    }
}

/// Kernels whose fat-binary metadata disagrees with the host in one way each: a scalar's type,
/// a struct's size under the same name, the number of parameters, a reference's mutability.
#[offload_kernel]
fn stale_scalar(x: f32, out: *mut f32) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe { *out = x }
}

#[offload_kernel]
fn stale_struct(p: Params, out: &mut f32) {
    *out = p.scale;
}

#[offload_kernel]
fn stale_count(out: &mut f32) {
    *out = 1.0;
}

#[offload_kernel]
fn stale_mutability(x: &mut [f32; 4]) {
    x[0] = 1.0;
}

/// Upstream's own `gpu_offload` test launches a kernel with 33 pointer parameters.
#[offload_kernel]
#[rustfmt::skip]
fn many(a0: *mut f32, a1: *mut f32, a2: *mut f32, a3: *mut f32, a4: *mut f32, a5: *mut f32, a6: *mut f32, a7: *mut f32, a8: *mut f32, a9: *mut f32, a10: *mut f32, a11: *mut f32, a12: *mut f32, a13: *mut f32, a14: *mut f32, a15: *mut f32, a16: *mut f32, a17: *mut f32, a18: *mut f32, a19: *mut f32, a20: *mut f32, a21: *mut f32, a22: *mut f32, a23: *mut f32, a24: *mut f32, a25: *mut f32, a26: *mut f32, a27: *mut f32, a28: *mut f32, a29: *mut f32, a30: *mut f32, a31: *mut f32, a32: *mut f32) {
    // SAFETY: each pointer is mapped for the launch (one `f32`); one thread writes them.
    unsafe {
        *a0 += 0.0;
        *a1 += 1.0;
        *a2 += 2.0;
        *a3 += 3.0;
        *a4 += 4.0;
        *a5 += 5.0;
        *a6 += 6.0;
        *a7 += 7.0;
        *a8 += 8.0;
        *a9 += 9.0;
        *a10 += 10.0;
        *a11 += 11.0;
        *a12 += 12.0;
        *a13 += 13.0;
        *a14 += 14.0;
        *a15 += 15.0;
        *a16 += 16.0;
        *a17 += 17.0;
        *a18 += 18.0;
        *a19 += 19.0;
        *a20 += 20.0;
        *a21 += 21.0;
        *a22 += 22.0;
        *a23 += 23.0;
        *a24 += 24.0;
        *a25 += 25.0;
        *a26 += 26.0;
        *a27 += 27.0;
        *a28 += 28.0;
        *a29 += 29.0;
        *a30 += 30.0;
        *a31 += 31.0;
        *a32 += 32.0;
    }
}

fn info(name: &str, params: &[(&str, &str, ParamKind, Access)]) -> KernelInfo {
    KernelInfo {
        name: name.into(),
        source: "launch.rs".into(),
        panic_sites: Vec::new(),
        print_sites: Vec::new(),
        barriers: false,
        params: params
            .iter()
            .map(|(n, ty, kind, access)| ParamInfo {
                name: (*n).into(),
                ty: (*ty).into(),
                kind: *kind,
                access: *access,
                past_pointee: None,
            })
            .collect(),
    }
}

fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Tests must not find a GPU even where one exists.
        // SAFETY: set before any thread of this test binary reads the environment.
        unsafe { std::env::set_var("OFFLOAD_TARGET", "disabled") };
        let ptr = |size, mutable| ParamKind::Pointer { pointee_size: size, mutable };
        let kernels = vec![
            info("kernel", &[("x", "*mut [f64; 256]", ptr(2048, true), Access::ReadWrite)]),
            // rkc records that saxpy offsets `x` and `y` past their first element.
            {
                let mut k = info(
                    "saxpy",
                    &[
                        ("n", "usize", ParamKind::Value { size: 8 }, Access::Read),
                        ("a", "f32", ParamKind::Value { size: 4 }, Access::Read),
                        ("x", "*const f32", ptr(4, false), Access::Read),
                        ("y", "*mut f32", ptr(4, true), Access::ReadWrite),
                    ],
                );
                k.params[2].past_pointee = Some((31, 41));
                k.params[3].past_pointee = Some((31, 13));
                k
            },
            info("unguarded", &[("x", "*mut [u32; 8]", ptr(32, true), Access::ReadWrite)]),
            info(
                "reads_only",
                &[
                    ("x", "*const [u32; 4]", ptr(16, false), Access::Read),
                    ("out", "*mut u32", ptr(4, true), Access::Write),
                ],
            ),
            info("stale", &[("x", "*mut u64", ptr(8, true), Access::ReadWrite)]),
            info(
                "by_value",
                &[
                    ("p", "Params", ptr(8, false), Access::Read),
                    ("w", "[f32; 2]", ptr(8, false), Access::Read),
                    ("out", "*mut [f32; 4]", ptr(16, true), Access::Write),
                ],
            ),
            info(
                "generic_and_transparent",
                &[
                    ("p", "Pair<f32>", ptr(8, false), Access::Read),
                    ("m", "Meters", ptr(4, false), Access::Read),
                    ("out", "*mut [f32; 4]", ptr(16, true), Access::Write),
                ],
            ),
            info(
                "refs",
                &[
                    ("p", "&Params", ptr(8, false), Access::Read),
                    ("x", "&mut [f32; 256]", ptr(1024, true), Access::ReadWrite),
                ],
            ),
            info(
                "named_lengths",
                &[
                    ("x", "*mut [f32; 64]", ptr(256, true), Access::ReadWrite),
                    ("y", "&[f32; 64]", ptr(256, false), Access::Read),
                ],
            ),
            info(
                "paths",
                &[
                    ("v", "Vec3", ptr(12, false), Access::Read),
                    ("out", "&mut Vec3", ptr(12, true), Access::Write),
                ],
            ),
            info("alias", &[("g", "&mut [f32; 64]", ptr(256, true), Access::Write)]),
            info(
                "by_mode",
                &[
                    ("mode", "u8", ParamKind::Value { size: 1 }, Access::Read),
                    ("x", "&mut [u32; 8]", ptr(32, true), Access::ReadWrite),
                ],
            ),
            info(
                "stale_scalar",
                &[
                    ("x", "u32", ParamKind::Value { size: 4 }, Access::Read),
                    ("out", "*mut f32", ptr(4, true), Access::Write),
                ],
            ),
            info(
                "stale_struct",
                &[
                    ("p", "Params", ptr(12, false), Access::Read),
                    ("out", "&mut f32", ptr(4, true), Access::Write),
                ],
            ),
            info(
                "stale_count",
                &[
                    ("out", "&mut f32", ptr(4, true), Access::Write),
                    ("n", "usize", ParamKind::Value { size: 8 }, Access::Read),
                ],
            ),
            info("stale_mutability", &[("x", "&[f32; 4]", ptr(16, false), Access::Read)]),
            info(
                "many",
                &(0..33)
                    .map(|k| {
                        (
                            [
                                "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10",
                                "a11", "a12", "a13", "a14", "a15", "a16", "a17", "a18", "a19",
                                "a20", "a21", "a22", "a23", "a24", "a25", "a26", "a27", "a28",
                                "a29", "a30", "a31", "a32",
                            ][k],
                            "*mut f32",
                            ptr(4, true),
                            Access::ReadWrite,
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            KernelInfo {
                barriers: true,
                ..info(
                    "divergent",
                    &[
                        ("x", "*mut [u32; 8]", ptr(32, true), Access::ReadWrite),
                        ("leaving", "usize", ParamKind::Value { size: 8 }, Access::Read),
                    ],
                )
            },
            KernelInfo {
                barriers: true,
                ..info(
                    "divergent_warp",
                    &[("x", "*mut [u32; 64]", ptr(256, true), Access::ReadWrite)],
                )
            },
            KernelInfo {
                barriers: true,
                ..info(
                    "reverse",
                    &[
                        ("x", "*mut [u32; 128]", ptr(512, true), Access::ReadWrite),
                        ("sums", "*mut [u32; 4]", ptr(16, true), Access::Write),
                    ],
                )
            },
            KernelInfo {
                barriers: true,
                ..info("take_turns", &[("order", "*mut [u32; 64]", ptr(256, true), Access::Write)])
            },
            info(
                "scale",
                &[
                    (
                        "x",
                        "&mut [f32]",
                        ParamKind::Slice { elem_size: 4, mutable: true },
                        Access::ReadWrite,
                    ),
                    ("k", "f32", ParamKind::Value { size: 4 }, Access::Read),
                ],
            ),
        ];
        let image = offload_binary::metadata::metadata_only_image(&kernels);
        rkc_offload::register_fatbin(offload_binary::write(&[image])).expect("register");
    });
}

#[test]
fn canonical_kernel_matches_upstream_example() {
    register();
    let mut x = [-1.0f64; 256];
    offload! {
        kernel = kernel,
        workgroup_dim = [256, 1, 1],
        args = (&mut x as *mut [f64; 256],),
    }
    for (i, v) in x.iter().enumerate() {
        assert_eq!(*v, i as f64);
    }
}

/// 33 arguments, as upstream's test passes them: every pointer mapped, written and copied back.
#[test]
#[rustfmt::skip]
fn thirty_three_pointer_arguments() {
    register();
    let mut v = [1.0f32; 33];
    offload! {
        kernel = many,
        args = (&mut v[0] as *mut f32, &mut v[1] as *mut f32, &mut v[2] as *mut f32, &mut v[3] as *mut f32, &mut v[4] as *mut f32, &mut v[5] as *mut f32, &mut v[6] as *mut f32, &mut v[7] as *mut f32, &mut v[8] as *mut f32, &mut v[9] as *mut f32, &mut v[10] as *mut f32, &mut v[11] as *mut f32, &mut v[12] as *mut f32, &mut v[13] as *mut f32, &mut v[14] as *mut f32, &mut v[15] as *mut f32, &mut v[16] as *mut f32, &mut v[17] as *mut f32, &mut v[18] as *mut f32, &mut v[19] as *mut f32, &mut v[20] as *mut f32, &mut v[21] as *mut f32, &mut v[22] as *mut f32, &mut v[23] as *mut f32, &mut v[24] as *mut f32, &mut v[25] as *mut f32, &mut v[26] as *mut f32, &mut v[27] as *mut f32, &mut v[28] as *mut f32, &mut v[29] as *mut f32, &mut v[30] as *mut f32, &mut v[31] as *mut f32, &mut v[32] as *mut f32),
    }
    assert!(v.iter().enumerate().all(|(k, x)| *x == 1.0 + k as f32), "{v:?}");
}

#[test]
fn saxpy_with_slices_for_pointer_parameters() {
    register();
    let n = 1000usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let mut ys: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| 3.0 * x + y).collect();
    offload! {
        kernel = saxpy,
        workgroup_dim = [4, 1, 1],
        thread_dim = [256, 1, 1],
        args = (n, 3.0, &xs[..], &mut ys[..]),
    }
    assert_eq!(ys, expected);
}

/// The way Rust-CUDA users pass buffers, `x.as_ptr()`, maps one element (upstream's mapping
/// of a raw pointer); saxpy reads past it, so the launch is refused with the parameter, the
/// place and the fix, instead of the kernel running off the copy (on the simulator, a crash of
/// the process). Nothing is written.
#[test]
fn a_raw_pointer_the_kernel_reads_past_is_refused() {
    register();
    let n = 256usize;
    let xs = vec![1.0f32; n];
    let mut ys = vec![2.0f32; n];
    let err = try_offload! {
        kernel = saxpy,
        workgroup_dim = [1, 1, 1],
        thread_dim = [256, 1, 1],
        args = (n, 3.0, xs.as_ptr(), ys.as_mut_ptr()),
    }
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "kernel `saxpy` offsets its parameter `x: *const f32` past the pointee (launch.rs:31:41), \
         but a raw pointer argument maps only the 4 bytes of one pointee, as upstream's \
         `offload!` does; pass the whole data instead (a slice `&x[..]` or an array for the \
         pointer, or a slice parameter `&[T]`), a `DeviceBuffer`, or `preload` it"
    );
    assert!(ys.iter().all(|y| *y == 2.0));
    // The same kernel with the whole data mapped runs.
    offload! {
        kernel = saxpy,
        workgroup_dim = [1, 1, 1],
        thread_dim = [256, 1, 1],
        args = (n, 3.0, &xs[..], &mut ys[..]),
    }
    assert!(ys.iter().all(|y| *y == 5.0));
}

/// Device buffers pass for pointer and slice parameters with nothing copied, keep their data
/// between launches, and come back with `to_vec`; views pass ranges of them.
#[test]
fn device_buffers_stay_on_the_device_between_launches() {
    register();
    let n = 1000usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let ys: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
    let x = DeviceBuffer::from_slice(&xs).unwrap();
    let mut y = DeviceBuffer::from_slice(&ys).unwrap();
    assert_eq!((x.len(), y.len()), (n, n));
    offload! { kernel = saxpy, workgroup_dim = [4, 1, 1], thread_dim = [256, 1, 1], args = (n, 3.0, &x, &mut y) }
    offload! { kernel = scale, workgroup_dim = [4, 1, 1], thread_dim = [256, 1, 1], args = (&mut y, 2.0f32) }
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| (3.0 * x + y) * 2.0).collect();
    assert_eq!(y.to_vec().unwrap(), expected);
    // A view of the first half: the kernel sees a slice of 500 values.
    offload! { kernel = scale, workgroup_dim = [4, 1, 1], thread_dim = [256, 1, 1], args = (y.slice_mut(..n / 2), -1.0f32) }
    let after = y.to_vec().unwrap();
    assert!(after[..n / 2].iter().zip(&expected).all(|(a, e)| *a == -e));
    assert_eq!(after[n / 2..], expected[n / 2..]);
    // Copies between buffers and views, and their length checks.
    let mut z = DeviceBuffer::<f32>::zeroed(n).unwrap();
    assert!(z.to_vec().unwrap().iter().all(|v| *v == 0.0));
    z.copy_from(&y).unwrap();
    assert_eq!(z.to_vec().unwrap(), after);
    z.slice_mut(10..12).copy_from_slice(&[7.0, 8.0]).unwrap();
    assert_eq!(z.slice(9..13).to_vec().unwrap(), [after[9], 7.0, 8.0, after[12]]);
    let err = z.copy_from_slice(&[1.0; 3]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "DeviceBuffer::copy_from_slice: the device side holds 1000 values but the other side 3; the lengths must be equal"
    );
    let moved = z.to_device(None).unwrap();
    assert_eq!(moved.to_vec().unwrap(), z.to_vec().unwrap());
}

/// Streams in a scope: chunks copied in, scaled and copied out on two streams, the output
/// complete when the scope returns; events order and time the work; an asynchronous launch
/// refuses host memory (it copies nothing); a kernel's panic is reported by `synchronize`.
#[test]
fn streams_queue_copies_and_launches() {
    register();
    let n = 4096usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut output = vec![0.0f32; n];
    let chunk = 1024;
    let mut buffers =
        [DeviceBuffer::<f32>::zeroed(chunk).unwrap(), DeviceBuffer::<f32>::zeroed(chunk).unwrap()];
    rkc_offload::scope(|s| {
        let streams = [s.stream()?, s.stream()?];
        let start = streams[0].record()?;
        for (k, (inp, out)) in input.chunks(chunk).zip(output.chunks_mut(chunk)).enumerate() {
            let (st, buf) = (&streams[k % 2], &mut buffers[k % 2]);
            st.copy_to_device(&mut *buf, inp)?;
            rkc_offload::offload_async! { stream = st, kernel = scale, workgroup_dim = [4, 1, 1], thread_dim = [256, 1, 1], args = (&mut *buf, 3.0f32) }?;
            st.copy_to_host(&*buf, out)?;
        }
        let done = streams[1].record()?;
        streams[0].wait_for(&done)?;
        let end = streams[0].record()?;
        // The work between the events took time, and an event does not precede itself.
        assert!(end.elapsed_since(&start)? > std::time::Duration::ZERO);
        assert_eq!(start.elapsed_since(&end)?, std::time::Duration::ZERO);
        Ok(())
    })
    .unwrap();
    assert!(output.iter().zip(&input).all(|(o, i)| *o == 3.0 * i));

    let mut host = vec![1.0f32; 256];
    let err = rkc_offload::scope(|s| {
        let st = s.stream()?;
        rkc_offload::offload_async! { stream = st, kernel = scale, thread_dim = [256, 1, 1], args = (&mut host[..], 2.0f32) }
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid launch of kernel `scale`: the argument `x` is host memory, which an asynchronous launch does not copy; put it in a DeviceBuffer (Stream::copy_to_device queues the copy)"
    );

    let mut cells = DeviceBuffer::from_slice(&[[0u32; 8]]).unwrap();
    let err = rkc_offload::scope(|s| {
        let st = s.stream()?;
        rkc_offload::offload_async! { stream = st, kernel = unguarded, thread_dim = [16, 1, 1], args = (&mut cells,) }?;
        st.synchronize()
    })
    .unwrap_err();
    assert!(err.to_string().starts_with("kernel `unguarded` panicked"), "{err}");
    // The scope's end reports what its closure did not wait for.
    let err = rkc_offload::scope(|s| {
        let st = s.stream()?;
        rkc_offload::offload_async! { stream = st, kernel = unguarded, thread_dim = [16, 1, 1], args = (&mut cells,) }
    })
    .unwrap_err();
    assert!(err.to_string().starts_with("kernel `unguarded` panicked"), "{err}");
}

/// A buffer of one value is as short as a pointer to one: the reach check refuses it for a
/// parameter the kernel offsets past its pointee.
#[test]
fn a_one_value_device_buffer_the_kernel_reads_past_is_refused() {
    register();
    let x = DeviceBuffer::from_slice(&[1.0f32]).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(256).unwrap();
    let err = try_offload! { kernel = saxpy, thread_dim = [256, 1, 1], args = (256usize, 3.0, &x, &mut y) }
        .unwrap_err();
    assert!(
        err.to_string().starts_with("kernel `saxpy` offsets its parameter `x: *const f32`"),
        "{err}"
    );
}

#[test]
fn generic_and_transparent_structs_pass_by_value() {
    register();
    let mut out = [0.0f32; 4];
    offload! {
        kernel = generic_and_transparent,
        thread_dim = [4, 1, 1],
        args = (Pair { a: 2.0f32, b: 1.0 }, Meters(0.5), &mut out as *mut [f32; 4]),
    }
    assert_eq!(out, [1.5, 3.5, 5.5, 7.5]);
}

#[test]
fn structs_and_arrays_pass_by_value() {
    register();
    let p = Params { scale: 2.0, count: 10 };
    let mut out = [0.0f32; 4];
    offload! {
        kernel = by_value,
        thread_dim = [4, 1, 1],
        args = (p, [1.5f32, -1.0], &mut out as *mut [f32; 4]),
    }
    assert_eq!(out, [13.0, 8.0, 13.0, 8.0]);
    assert_eq!(
        <by_value as rkc_offload::Kernel>::SIGNATURE,
        "by_value(Params, [f32; 2], *mut [f32; 4])"
    );
}

#[test]
fn const_data_is_never_copied_back() {
    register();
    let x = [1u32, 2, 3, 4];
    let mut out = 0u32;
    offload! {
        kernel = reads_only,
        args = (&x as *const [u32; 4], &mut out as *mut u32),
    }
    assert_eq!(out, 5);
    assert_eq!(x, [1, 2, 3, 4]);
}

#[test]
fn a_stale_fat_binary_is_refused_with_both_signatures() {
    register();
    let mut v = 0u32;
    let err = try_offload! { kernel = stale, args = (&mut v as *mut u32,) }.unwrap_err();
    assert_eq!(
        err,
        OffloadError::StaleFatBinary {
            kernel: "stale".into(),
            host: "stale(*mut u32)".into(),
            fatbin: "stale(*mut u64)".into(),
            difference: "parameter 1 (`x`) is a pointer to 4 writable bytes on the host and a pointer to 8 writable bytes in the fat binary".into(),
        }
    );
    assert_eq!(v, 0, "nothing ran");
}

#[test]
fn references_to_sized_data_are_copied_in_and_back() {
    register();
    let p = Params { scale: 2.0, count: 3 };
    let mut x: [f32; 256] = std::array::from_fn(|i| i as f32);
    offload! {
        kernel = refs,
        thread_dim = [256, 1, 1],
        args = (&p, &mut x),
    }
    let expected: [f32; 256] = std::array::from_fn(|i| i as f32 * 2.0 + 3.0);
    assert_eq!(x, expected);
    // A `&mut` argument for a `&T` parameter is read, never written back.
    let mut q = Params { scale: 0.5, count: 0 };
    offload! {
        kernel = refs,
        thread_dim = [256, 1, 1],
        args = (&mut q, &mut x),
    }
    let expected: [f32; 256] = std::array::from_fn(|i| i as f32 + 1.5);
    assert_eq!(x, expected);
    assert_eq!((q.scale, q.count), (0.5, 0));
    assert_eq!(<refs as rkc_offload::Kernel>::SIGNATURE, "refs(&Params, &mut [f32; 256])");
    assert_eq!(
        <refs as rkc_offload::Kernel>::PARAMS,
        [
            ParamShape::Pointer { pointee_size: 8, mutable: false },
            ParamShape::Pointer { pointee_size: 1024, mutable: true }
        ]
    );
}

#[test]
fn a_resident_struct_passes_for_a_reference_parameter() {
    register();
    let p = Params { scale: 3.0, count: 1 };
    let mut x = [1.0f32; 256];
    {
        let resident = rkc_offload::preload(&p);
        offload! { kernel = refs, thread_dim = [256, 1, 1], args = (&resident, &mut x) }
    }
    assert_eq!(x, [4.0; 256]);
}

#[test]
fn array_lengths_named_by_constants_and_expressions() {
    register();
    let mut x = [1.0f32; N];
    let y: [f32; 64] = std::array::from_fn(|i| i as f32);
    offload! {
        kernel = named_lengths,
        thread_dim = [64, 1, 1],
        args = (&mut x as *mut [f32; N], &y),
    }
    let expected: [f32; 64] = std::array::from_fn(|i| 1.0 + i as f32);
    assert_eq!(x, expected);
    // The signature is the source's; the fat binary's spells the evaluated lengths, and the
    // launch agreed because it compares sizes.
    assert_eq!(
        <named_lengths as rkc_offload::Kernel>::SIGNATURE,
        "named_lengths(*mut [f32; N], &[f32; 4 * 16])"
    );
}

#[test]
fn module_qualified_paths_and_type_aliases() {
    register();
    let v = types::Vec3 { x: 1.0, y: -2.0, z: 0.25 };
    let mut out = types::Vec3 { x: 0.0, y: 0.0, z: 0.0 };
    offload! { kernel = paths, args = (v, &mut out) }
    assert_eq!(out, types::Vec3 { x: 2.0, y: -4.0, z: 0.5 });
    assert_eq!(
        <paths as rkc_offload::Kernel>::SIGNATURE,
        "paths(types::Vec3, &mut crate::types::Vec3)"
    );
    assert_eq!(
        <paths as rkc_offload::Kernel>::PARAMS,
        [ParamShape::ByValue { size: 12 }, ParamShape::Pointer { pointee_size: 12, mutable: true }]
    );

    let mut g: Grid = [-1.0; 64];
    offload! { kernel = alias, thread_dim = [64, 1, 1], args = (&mut g,) }
    let expected: Grid = std::array::from_fn(|i| i as f32);
    assert_eq!(g, expected);
    assert_eq!(<alias as rkc_offload::Kernel>::SIGNATURE, "alias(&mut Grid)");
}

#[test]
fn a_repr_u8_enum_passes_by_value() {
    register();
    let mut x = [1u32, 2, 3, 4, 5, 6, 7, 8];
    offload! { kernel = by_mode, thread_dim = [8, 1, 1], args = (Mode::Add, &mut x) }
    assert_eq!(x, [2, 3, 4, 5, 6, 7, 8, 9]);
    offload! { kernel = by_mode, thread_dim = [8, 1, 1], args = (Mode::Mul, &mut x) }
    assert_eq!(x, [14, 21, 28, 35, 42, 49, 56, 63]);
    assert_eq!(
        <by_mode as rkc_offload::Kernel>::PARAMS[0],
        ParamShape::Value { size: 1, scalar: "u8" }
    );
}

/// A fieldless enum is its discriminant: the `repr` integer, or C's `int` for `repr(C)`, as
/// rkc's metadata spells the parameter.
#[test]
fn fieldless_enums_cross_as_their_repr_integer() {
    use rkc_offload::KernelParam;
    #[repr(C)]
    #[derive(Clone, Copy, DeviceCopy)]
    #[allow(dead_code, reason = "only the type's shape is tested")]
    enum C {
        A,
        B,
    }
    #[repr(i64)]
    #[derive(Clone, Copy, DeviceCopy)]
    #[allow(dead_code, reason = "only the type's shape is tested")]
    enum Wide {
        Low = -1,
        High = 1 << 40,
    }
    assert_eq!(<C as KernelParam>::SHAPE, ParamShape::Value { size: 4, scalar: "i32" });
    assert_eq!(<Wide as KernelParam>::SHAPE, ParamShape::Value { size: 8, scalar: "i64" });
    assert_eq!(<[Mode; 3] as KernelParam>::SHAPE, ParamShape::ByValue { size: 3 });
}

/// `Kernel::run_raw` rebuilds references from raw addresses, as the differential harness
/// drives kernels.
#[test]
fn raw_runs_rebuild_references() {
    let p = Params { scale: -1.0, count: 2 };
    let mut x = [3.0f32; 256];
    let config = rkc_offload::LaunchConfig {
        workgroup_dim: [1, 1, 1],
        thread_dim: [256, 1, 1],
        dyn_cache: 0,
        device: None,
    };
    let args = [&p as *const Params as usize as u64, x.as_mut_ptr() as usize as u64];
    // SAFETY: both addresses are of live values of the kernel's parameter types.
    unsafe { rkc_offload::simulate_raw::<refs>(&config, &args) }.unwrap();
    assert_eq!(x, [-1.0; 256]);
}

/// Each kind of disagreement between host and fat binary is refused before anything runs, and
/// the message says which parameter differs, even where the two signatures read alike.
/// A launching thread remembers its lookups; a fat binary registered since must still win
/// (the newest is searched first), here one whose kernel no longer matches the host's.
#[test]
fn a_newer_fat_binary_replaces_a_remembered_lookup() {
    register();
    let register_relinked = |kind, ty| {
        let kernel = info("relinked", &[("x", ty, kind, Access::ReadWrite)]);
        let image = offload_binary::metadata::metadata_only_image(&[kernel]);
        rkc_offload::register_fatbin(offload_binary::write(&[image])).expect("register");
    };
    register_relinked(ParamKind::Pointer { pointee_size: 4, mutable: true }, "*mut u32");
    let mut x = 0u32;
    for _ in 0..3 {
        try_offload! { kernel = relinked, args = (&mut x as *mut u32,) }.expect("launch");
    }
    assert_eq!(x, 3);
    register_relinked(ParamKind::Value { size: 4 }, "u32");
    let err = try_offload! { kernel = relinked, args = (&mut x as *mut u32,) }.unwrap_err();
    assert!(matches!(err, OffloadError::StaleFatBinary { .. }), "{err}");
    assert_eq!(x, 3, "nothing ran");
}

#[test]
fn stale_parameters_are_refused_with_the_difference() {
    register();
    let stale = |e: OffloadError| match e {
        OffloadError::StaleFatBinary { host, fatbin, difference, .. } => (host, fatbin, difference),
        other => panic!("expected a stale fat binary, got {other}"),
    };
    let mut out = 0.0f32;
    let e =
        try_offload! { kernel = stale_scalar, args = (1.5f32, &mut out as *mut f32) }.unwrap_err();
    assert_eq!(
        stale(e),
        (
            "stale_scalar(f32, *mut f32)".into(),
            "stale_scalar(u32, *mut f32)".into(),
            "parameter 1 (`x`) is a `f32` by value on the host and a `u32` by value in the fat binary".into()
        )
    );
    let e =
        try_offload! { kernel = stale_struct, args = (Params { scale: 1.0, count: 1 }, &mut out) }
            .unwrap_err();
    let text = e.to_string();
    assert_eq!(
        stale(e),
        (
            "stale_struct(Params, &mut f32)".into(),
            "stale_struct(Params, &mut f32)".into(),
            "parameter 1 (`p`) is 8 bytes by value on the host and 12 bytes by value in the fat binary".into()
        )
    );
    assert!(
        text.starts_with("the fat binary is stale for kernel `stale_struct`: the host declares"),
        "{text}"
    );
    assert!(text.ends_with("(parameter 1 (`p`) is 8 bytes by value on the host and 12 bytes by value in the fat binary); recompile kernels.rs with rkc"), "{text}");
    let e = try_offload! { kernel = stale_count, args = (&mut out,) }.unwrap_err();
    assert_eq!(stale(e).2, "the host's kernel takes 1 parameter, the fat binary's 2 parameters");
    let mut x = [0.0f32; 4];
    let e = try_offload! { kernel = stale_mutability, args = (&mut x,) }.unwrap_err();
    assert_eq!(
        stale(e).2,
        "parameter 1 (`x`) is a pointer to 16 writable bytes on the host and a pointer to 16 read-only bytes in the fat binary"
    );
    assert_eq!((out, x), (0.0, [0.0; 4]), "nothing ran");
}

#[test]
fn device_indices_follow_upstream() {
    register();
    assert_eq!(offload_get_num_devices(), 0);
    let mut x = [0.0f64; 256];
    let err = try_offload! { kernel = kernel, device = 0, args = (&mut x as *mut [f64; 256],) }
        .unwrap_err();
    assert_eq!(err.to_string(), "offload device 0 is not available");
    // A negative index computed at run time gets upstream's compile-time text.
    let d = -1;
    let err = try_offload! { kernel = kernel, device = d, args = (&mut x as *mut [f64; 256],) }
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "offload device must be non-negative; omit `device` to use the default device"
    );
}

#[test]
#[should_panic(expected = "offload device 3 is not available")]
fn offload_panics_with_upstreams_message() {
    register();
    let mut x = [0.0f64; 256];
    offload! { kernel = kernel, device = 3, args = (&mut x as *mut [f64; 256],) }
}

#[test]
fn a_kernel_panic_names_block_and_thread_and_later_launches_work() {
    register();
    let mut x = [0u32; 8];
    let err = try_offload! {
        kernel = unguarded,
        thread_dim = [16, 1, 1],
        args = (&mut x as *mut [u32; 8],),
    }
    .unwrap_err();
    match err {
        OffloadError::KernelPanic { kernel, message, location, block, thread } => {
            assert_eq!(kernel, "unguarded");
            assert!(location.contains("launch.rs:"), "{location}");
            assert!(message.contains("index out of bounds"), "{message}");
            assert_eq!(block, [0, 0, 0]);
            assert_eq!(thread, [8, 0, 0]);
        }
        other => panic!("expected a kernel panic, got {other}"),
    }
    let mut y = [0u32; 8];
    try_offload! { kernel = unguarded, thread_dim = [8, 1, 1], args = (&mut y as *mut [u32; 8],) }
        .unwrap();
    assert_eq!(y, [7; 8]);
}

#[test]
fn launch_shapes_are_checked_before_launch() {
    register();
    let mut x = [0.0f64; 256];
    let err = try_offload! { kernel = kernel, thread_dim = [2048, 1, 1], args = (&mut x as *mut [f64; 256],) }.unwrap_err();
    assert!(
        err.to_string().contains("thread_dim.x is 2048, above the device's limit of 1024"),
        "{err}"
    );
    let err = try_offload! { kernel = kernel, workgroup_dim = [1, 0, 1], args = (&mut x as *mut [f64; 256],) }.unwrap_err();
    assert!(err.to_string().contains("workgroup_dim.y is 0"), "{err}");
    let err = try_offload! { kernel = kernel, thread_dim = [32, 32, 2], args = (&mut x as *mut [f64; 256],) }.unwrap_err();
    assert!(err.to_string().contains("2048 threads per workgroup"), "{err}");
    assert_eq!(x, [0.0; 256], "nothing ran");
}

#[test]
fn a_corrupt_fat_binary_is_an_error() {
    let err = rkc_offload::register_fatbin(b"not a fat binary").unwrap_err();
    assert!(err.to_string().contains("not a fat binary"), "{err}");
}

/// 8 host threads × 200 launches each, each thread with its own data: every result is right
/// (the runtime is `Send + Sync`; the simulator's launches do not interfere).
#[test]
fn eight_threads_launch_at_once() {
    register();
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<OffloadError>();
    std::thread::scope(|s| {
        for t in 0..8u32 {
            s.spawn(move || {
                for round in 0..200u32 {
                    let n = 64 + (t * 7 + round) as usize % 64;
                    let a = t as f32 + round as f32 * 0.5;
                    let xs: Vec<f32> = (0..n).map(|i| (i as u32 ^ t) as f32).collect();
                    let mut ys: Vec<f32> = (0..n).map(|i| (i as u32 + round) as f32).collect();
                    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
                    offload! {
                        kernel = saxpy,
                        workgroup_dim = [2, 1, 1],
                        thread_dim = [64, 1, 1],
                        args = (n, a, &xs[..], &mut ys[..]),
                    }
                    assert_eq!(ys, expected, "thread {t}, round {round}");
                }
            });
        }
    });
}

/// A barrier that one thread never reaches is reported as an error naming the kernel, not a
/// hang; later launches work.
#[test]
fn a_divergent_barrier_is_an_error_not_a_hang() {
    register();
    let mut x = [0u32; 8];
    let err = try_offload! { kernel = divergent, thread_dim = [8, 1, 1], args = (&mut x as *mut [u32; 8], 0usize) }.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("kernel `divergent`") && text.contains("divergent barrier"), "{text}");
    let mut y = [0u32; 8];
    try_offload! { kernel = unguarded, thread_dim = [8, 1, 1], args = (&mut y as *mut [u32; 8],) }
        .unwrap();
    assert_eq!(y, [7; 8]);
}

/// A warp operation that some lanes skip is reported (not a hang), so is one in a partial
/// warp; later launches work.
#[test]
fn divergent_and_partial_warps_are_errors_not_hangs() {
    register();
    let mut x = [0u32; 64];
    let err = try_offload! { kernel = divergent_warp, thread_dim = [64, 1, 1], args = (&mut x as *mut [u32; 64],) }.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("kernel `divergent_warp`") && text.contains("divergent warp operation"),
        "{text}"
    );
    let err = try_offload! { kernel = divergent_warp, thread_dim = [40, 1, 1], args = (&mut x as *mut [u32; 64],) }.unwrap_err();
    assert!(err.to_string().contains("warp operations need whole warps of 32"), "{err}");
    let mut y = [0u32; 8];
    try_offload! { kernel = unguarded, thread_dim = [8, 1, 1], args = (&mut y as *mut [u32; 8],) }
        .unwrap();
    assert_eq!(y, [7; 8]);
}

/// A thread that spins on an atomic until another thread of its block moves does not hang the
/// simulator, which runs a block's threads as coroutines on one host thread.
#[test]
fn threads_spinning_on_an_atomic_let_the_others_run() {
    register();
    let mut order = [u32::MAX; 64];
    offload! { kernel = take_turns, thread_dim = [64, 1, 1], args = (&mut order as *mut [u32; 64],) }
    let expected: [u32; 64] = std::array::from_fn(|t| 63 - t as u32);
    assert_eq!(order, expected);
}

/// `dyn_cache` gives each block its own dynamic shared memory of that size.
#[test]
fn dynamic_shared_memory_is_per_block() {
    register();
    let mut x: [u32; 128] = std::array::from_fn(|i| i as u32);
    let mut sums = [0u32; 4];
    offload! {
        kernel = reverse,
        workgroup_dim = [2, 1, 1],
        thread_dim = [64, 1, 1],
        dyn_cache = 256,
        args = (&mut x as *mut [u32; 128], &mut sums as *mut [u32; 4]),
    }
    let expected: [u32; 128] = std::array::from_fn(|i| (i / 64 * 64 + 63 - i % 64) as u32);
    assert_eq!(x, expected);
    let expected_sums: Vec<u32> = expected.chunks(32).map(|c| c.iter().sum()).collect();
    assert_eq!(sums.to_vec(), expected_sums);
}
