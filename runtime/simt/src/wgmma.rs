//! The warpgroup's matrix multiply-accumulate, `D = A·B + D` on one 64×N×16 tile (Hopper's
//! `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}`, sm_90a), with `A` and `B`
//! read from shared memory and `D` in the registers of the warpgroup's 128 threads.
//!
//! A warpgroup is four consecutive warps whose first warp's index is a multiple of four.
//! Thread `t` of it (`t = thread_index % 128`, warp `w = t / 32`, lane `l = t % 32`) holds
//! `N / 2` elements of `D`: element `i` (`j = i / 4`) is row `16w + l / 4 + 8 * ((i / 2) % 2)`,
//! column `8j + 2 * (l % 4) + i % 2` ([`d_index`]), the layout of `mma.m16n8`'s `C` repeated
//! over the `N / 8` column blocks.
//!
//! `A` (64×16) and `B` (16×N) are read from shared memory in the canonical layouts without
//! swizzling that the instruction's matrix descriptors describe. Both are made of *core
//! matrices*: eight rows of eight 16-bit elements, 128 contiguous bytes. `A` is K-major (each
//! core matrix holds eight rows of `A` and eight consecutive `k`); `B` is N-major (each holds
//! eight `k` rows of `B` and eight consecutive columns), the layout a row-major `B` copied in
//! 16-byte pieces has. Two strides, in elements, place the core matrices:
//!
//! - `A[m][k]` is at `a + (m % 8) * 8 + k % 8 + (k / 8) * a_k + (m / 8) * a_m`;
//! - `B[k][n]` is at `b + (k % 8) * 8 + n % 8 + (k / 8) * b_k + (n / 8) * b_n`.
//!
//! ([`a_offset`], [`b_offset`].) With 128-byte swizzling ([`Swizzle::B128`], the layout that
//! reads shared memory without bank conflicts and runs about three times as fast on an H100),
//! `A`'s rows are 128 bytes (64 `k`) and `B`'s 64-column blocks are rows of 128 bytes, eight
//! rows an atom of 1024 bytes, the tile 1024-byte aligned; the 16-byte chunk `c` of row `r` of
//! an atom is stored at chunk `c ^ (r % 8)`. The four parameters are then `a_k0` (the first
//! `k` of the multiply in `A`'s rows: 0, 16, 32 or 48), `a_m` (between atoms down `m`), `b_k`
//! (between atoms down `k`) and `b_n` (between 64-column blocks), in elements:
//!
//! - `A[m][k]` is at byte `(m % 8) * 128 + (m / 8) * 2 a_m + 2 (a_k0 + k)`, swizzled;
//! - `B[k][n]` is at byte `(k % 8) * 128 + (k / 8) * 2 b_k + 2 (n % 64) + (n / 64) * 2 b_n`,
//!   swizzled;
//!
//! where swizzling a byte offset `o` is `o ^ (((o >> 7) & 7) << 4)` (the instruction applies
//! it to the shared address, which the tile's alignment makes the same). Each element of `D`
//! is computed as `rkc_simt::mma` computes
//! `mma.m16n8k16`'s: `D`'s value plus the sixteen products (exact in `f64`), added one after
//! another in `k`'s order in `f64`, then rounded once to `f32`. The tensor cores add in their
//! own way; they agree exactly where the sums are exact in `f32`.
//!
//! The instruction is asynchronous on a GPU: `D` is defined once a `wgmma.wait_group` has seen
//! its group complete, and the shared memory it reads must not change until then. The CPU
//! executors compute `D` at once, which no correct kernel can tell apart.

use crate::mma::MmaType;

/// Rows of `A` and `D`.
pub const M: usize = 64;
/// Columns of `A`, rows of `B`.
pub const K: usize = 16;
/// Threads of a warpgroup.
pub const THREADS: usize = 128;
/// The widths `N` of `D` that rkc offers (PTX allows every multiple of 8 up to 256).
pub const WIDTHS: [usize; 3] = [64, 128, 256];

/// The panic message of a warpgroup multiply in a block whose thread count is not a multiple
/// of 128 (a warpgroup that is not whole): rkc's compiled check and the simulator's say the
/// same.
pub const PARTIAL_WARPGROUP: &str =
    "wgmma in a block of threads not a multiple of 128: warpgroup operations need whole warpgroups";

/// The panic message of a warpgroup multiply whose tile does not start at a multiple of 16
/// bytes (the matrix descriptors drop the low four bits of an address).
pub const MISALIGNED_TILE: &str =
    "misaligned wgmma tile: the tiles of wgmma must start at multiples of 16 bytes";

/// The (row, column) of `D` that element `i` of warpgroup thread `t`'s fragment holds.
pub fn d_index(t: usize, i: usize) -> (usize, usize) {
    let (w, lane) = (t / 32, t % 32);
    let row = 16 * w + lane / 4 + 8 * ((i / 2) % 2);
    let col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
    (row, col)
}

/// How the tiles' elements are placed in shared memory (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Core matrices of 128 contiguous bytes, placed by two strides per tile.
    None,
    /// Rows of 128 bytes in atoms of eight, each row's 16-byte chunks permuted.
    B128,
}

impl Swizzle {
    /// The layout's name in rk's text and in the builtins' names (`None` has none).
    pub fn name(self) -> &'static str {
        match self {
            Swizzle::None => "",
            Swizzle::B128 => "sw128",
        }
    }
}

/// A byte offset swizzled within its 1024-byte atom: chunk `c` of row `r` becomes `c ^ r`.
pub fn swizzle_128(o: usize) -> usize {
    o ^ (((o >> 7) & 7) << 4)
}

/// The element offset of `A[m][k]` from the tile's start (see the module's documentation):
/// `p` is `[a_k, a_m]` without swizzling, `[a_k0, a_m]` with it.
pub fn a_offset(m: usize, k: usize, p: [usize; 2], swizzle: Swizzle) -> usize {
    match swizzle {
        Swizzle::None => (m % 8) * 8 + k % 8 + (k / 8) * p[0] + (m / 8) * p[1],
        Swizzle::B128 => swizzle_128((m % 8) * 128 + (m / 8) * 2 * p[1] + 2 * (p[0] + k)) / 2,
    }
}

/// The element offset of `B[k][n]` from the tile's start (see the module's documentation):
/// `p` is `[b_k, b_n]`.
pub fn b_offset(k: usize, n: usize, p: [usize; 2], swizzle: Swizzle) -> usize {
    match swizzle {
        Swizzle::None => (k % 8) * 8 + n % 8 + (k / 8) * p[0] + (n / 8) * p[1],
        Swizzle::B128 => {
            swizzle_128((k % 8) * 128 + (k / 8) * 2 * p[0] + 2 * (n % 64) + (n / 64) * 2 * p[1]) / 2
        }
    }
}

/// The panic message of a warpgroup multiply with a stride its descriptors cannot hold.
pub const BAD_STRIDES: &str =
    "bad wgmma stride: the strides of wgmma must be multiples of 8 elements below 131072";

/// The panic message of a swizzled warpgroup multiply whose parameters its descriptors
/// cannot hold.
pub const BAD_SWIZZLED_STRIDES: &str = "bad wgmma_sw128 parameter: a_k0 must be 0, 16, 32 or 48, the strides multiples of 512 elements below 131072";

/// The panic message of a swizzled warpgroup multiply whose tile does not start at a multiple
/// of 1024 bytes (the swizzle's atoms are aligned shared memory).
pub const MISALIGNED_SWIZZLED_TILE: &str =
    "misaligned wgmma_sw128 tile: the tiles of wgmma_sw128 must start at multiples of 1024 bytes";

/// Whether the four parameters keep the rule the instruction's descriptors impose. Without
/// swizzling: each a multiple of eight elements (16 bytes) below 2^17 elements (the
/// descriptors' 14-bit fields count 16 bytes). With it: `a_k0` one of 0, 16, 32 and 48, the
/// strides whole atoms (512 elements) below 2^17 elements. The executors panic with
/// [`BAD_STRIDES`] or [`BAD_SWIZZLED_STRIDES`] where they do not.
pub fn strides_ok(strides: [usize; 4], swizzle: Swizzle) -> bool {
    match swizzle {
        Swizzle::None => strides.iter().all(|&s| s.is_multiple_of(8) && s < 1 << 17),
        Swizzle::B128 => {
            strides[0].is_multiple_of(16)
                && strides[0] < 64
                && strides[1..].iter().all(|&s| s.is_multiple_of(512) && s < 1 << 17)
        }
    }
}

/// The messages of the three checks the executors make before a multiply, in their order
/// (whole warpgroups, the tiles' alignment, the parameters), and the alignment in bytes.
pub fn checks(swizzle: Swizzle) -> (&'static str, u64, &'static str) {
    match swizzle {
        Swizzle::None => (MISALIGNED_TILE, 16, BAD_STRIDES),
        Swizzle::B128 => (MISALIGNED_SWIZZLED_TILE, 1024, BAD_SWIZZLED_STRIDES),
    }
}

/// Thread `t`'s `N / 2` elements of `D` (`n = N`), with `read_a(offset)` and `read_b(offset)`
/// giving the 16-bit patterns of the tiles' elements at element offsets from their starts and
/// `d` the thread's elements of `D` before the multiply.
#[allow(clippy::too_many_arguments, reason = "the instruction's own operands")]
pub fn wgmma(
    ty: MmaType,
    n: usize,
    swizzle: Swizzle,
    t: usize,
    strides: [usize; 4],
    mut read_a: impl FnMut(usize) -> u16,
    mut read_b: impl FnMut(usize) -> u16,
    d: &[f32],
) -> Vec<f32> {
    debug_assert_eq!(d.len(), n / 2);
    let [a0, a1, b0, b1] = strides;
    (0..n / 2)
        .map(|i| {
            let (row, col) = d_index(t, i);
            let mut acc = f64::from(d[i]);
            for k in 0..K {
                let a = ty.to_f64(read_a(a_offset(row, k, [a0, a1], swizzle)));
                let b = ty.to_f64(read_b(b_offset(k, col, [b0, b1], swizzle)));
                acc += a * b;
            }
            acc as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fragments_cover_d_once() {
        for n in WIDTHS {
            let mut seen = vec![false; M * n];
            for t in 0..THREADS {
                for i in 0..n / 2 {
                    let (r, c) = d_index(t, i);
                    assert!(r < M && c < n);
                    assert!(!std::mem::replace(&mut seen[r * n + c], true));
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn warp_zero_holds_mma_c_layout() {
        // The first 16×8 block of warp 0 is `mma.m16n8`'s `C` fragment.
        for lane in 0..32 {
            for i in 0..4 {
                assert_eq!(d_index(lane, i), crate::mma::c_index(lane, i));
            }
        }
    }

    #[test]
    fn layouts_place_core_matrices_by_the_strides() {
        // A 64×16 tile with its two k halves 64 elements apart and row groups 128 apart.
        let none = Swizzle::None;
        assert_eq!(a_offset(0, 0, [64, 128], none), 0);
        assert_eq!(a_offset(1, 0, [64, 128], none), 8);
        assert_eq!(a_offset(0, 9, [64, 128], none), 65);
        assert_eq!(a_offset(9, 1, [64, 128], none), 128 + 8 + 1);
        assert_eq!(b_offset(3, 10, [2048, 64], none), 24 + 2 + 64);
        assert_eq!(b_offset(8, 0, [2048, 64], none), 2048);
    }

    #[test]
    fn swizzling_permutes_each_rows_chunks() {
        let sw = Swizzle::B128;
        // Row 0 is not permuted; row 3's chunk 0 is chunk 3; a_k0 moves along the row.
        assert_eq!(a_offset(0, 5, [0, 512], sw), 5);
        assert_eq!(a_offset(3, 0, [0, 512], sw), 3 * 64 + 3 * 8);
        let (chunk, row) = (2, 3);
        assert_eq!(a_offset(row, 0, [16, 512], sw), row * 64 + (chunk ^ row) * 8);
        assert_eq!(a_offset(9, 0, [0, 512], sw), 512 + 64 + 8);
        // B: k rows of a 64-column block, blocks b_n apart, k atoms b_k apart.
        assert_eq!(b_offset(1, 0, [512, 4096], sw), 64 + 8);
        assert_eq!(b_offset(8, 70, [512, 4096], sw), 512 + 4096 + 6);
        // Within an atom every (row, chunk) lands on a distinct chunk.
        let mut seen = [false; 64];
        for r in 0..8 {
            for c in 0..8 {
                let chunk = swizzle_128(r * 128 + c * 16) / 16;
                assert!(!std::mem::replace(&mut seen[chunk], true));
            }
        }
    }

    #[test]
    fn identity_times_b_is_b() {
        // A = I in its first 16 rows (rows 16..64 zero), B[k][n] = 1024 + k + 16n: D's rows
        // below 16 are B plus D's 0.5, the others stay 0.5.
        let n = 64;
        let (a_k, a_m, b_k, b_n) = (64, 128, 8 * n, 64);
        let mut a = vec![0u16; 1024];
        for m in 0..16 {
            a[a_offset(m, m, [a_k, a_m], Swizzle::None)] = 0x3c00;
        }
        let mut b = vec![0u16; 16 * n];
        for k in 0..K {
            for c in 0..n {
                b[b_offset(k, c, [b_k, b_n], Swizzle::None)] = 0x6400 + (k + 16 * c) as u16;
            }
        }
        for t in 0..THREADS {
            let strides = [a_k, a_m, b_k, b_n];
            let d =
                wgmma(MmaType::F16, n, Swizzle::None, t, strides, |o| a[o], |o| b[o], &[0.5; 32]);
            for (i, v) in d.iter().enumerate() {
                let (r, c) = d_index(t, i);
                let want = if r < 16 { 1024.0 + (r + 16 * c) as f32 + 0.5 } else { 0.5 };
                assert_eq!(*v, want, "thread {t} element {i}");
            }
        }
    }

    #[test]
    fn strides_are_checked() {
        assert!(strides_ok([64, 128, 2048, 64], Swizzle::None));
        assert!(!strides_ok([64, 12, 8, 8], Swizzle::None));
        assert!(!strides_ok([8, 8, 8, 1 << 17], Swizzle::None));
        assert!(strides_ok([48, 512, 512, 4096], Swizzle::B128));
        assert!(!strides_ok([8, 512, 512, 4096], Swizzle::B128));
        assert!(!strides_ok([64, 512, 512, 4096], Swizzle::B128));
        assert!(!strides_ok([0, 256, 512, 4096], Swizzle::B128));
    }
}
