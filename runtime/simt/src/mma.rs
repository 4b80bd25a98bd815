//! The warp's matrix multiply-accumulate, `D = A·B + C` on one 16×8×16 tile (PTX's
//! `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32`): every lane holds eight
//! elements of the 16×16 `A`, four of the 16×8 `B` and four of the 16×8 `C` and `D`, in the
//! fragment layouts PTX specifies (the functions `a_index`, `b_index` and `c_index`).
//!
//! What a tensor core computes is not an IEEE operation: its products are exact, but how it
//! adds them (alignment, truncation, the order) is not specified, and differs between GPU
//! generations. rkc's CPU executors define one result instead, close to the exact one and the
//! same on every executor: each element is `C`'s value plus the sixteen products (exact in
//! `f64`: 11 or 8 significant bits each), added one after another in `k`'s order in `f64`, then
//! rounded once to `f32`. The interpreter, the simulator, the host image and the portable
//! expansion (rk's `expand_mma` pass, for GPUs without the instruction) all compute this. A
//! GPU's tensor cores agree exactly where the sum is exact in `f32` (small integers, say) and
//! otherwise within the error of their own additions.

/// Rows of `A`, `C` and `D`.
pub const M: usize = 16;
/// Columns of `B`, `C` and `D`.
pub const N: usize = 8;
/// Columns of `A`, rows of `B`.
pub const K: usize = 16;

/// The element type of `A` and `B`; `C` and `D` are `f32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaType {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl MmaType {
    pub const ALL: [MmaType; 2] = [MmaType::F16, MmaType::Bf16];

    /// The type's name in rk's text and in Rust.
    pub fn name(self) -> &'static str {
        match self {
            MmaType::F16 => "f16",
            MmaType::Bf16 => "bf16",
        }
    }

    /// The value of a 16-bit pattern of this type, exactly (a NaN keeps its sign and payload,
    /// as Rust's widening conversions do).
    pub fn to_f64(self, bits: u16) -> f64 {
        match self {
            MmaType::Bf16 => f64::from(f32::from_bits(u32::from(bits) << 16)),
            MmaType::F16 => {
                let sign = u64::from(bits >> 15) << 63;
                let exp = (bits >> 10) & 0x1f;
                let man = u64::from(bits & 0x3ff);
                match exp {
                    // Zero and the subnormals: man × 2^-24.
                    0 => {
                        let v = man as f64 * f64::powi(2.0, -24);
                        if sign != 0 { -v } else { v }
                    }
                    0x1f => f64::from_bits(sign | 0x7ff0_0000_0000_0000 | man << 42),
                    _ => f64::from_bits(sign | (u64::from(exp) + 1023 - 15) << 52 | man << 42),
                }
            }
        }
    }
}

/// The thread's group (`lane / 4`) and its index in the group (`lane % 4`), as PTX names them.
fn group(lane: usize) -> (usize, usize) {
    (lane >> 2, lane & 3)
}

/// The (row, column) of `A` that element `i` (`0..8`) of lane `lane`'s fragment holds.
pub fn a_index(lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = group(lane);
    let row = if i & 2 == 0 { g } else { g + 8 };
    let col = t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
    (row, col)
}

/// The (row, column) of `B` that element `i` (`0..4`) of lane `lane`'s fragment holds.
pub fn b_index(lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = group(lane);
    (t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 }, g)
}

/// The (row, column) of `C` and `D` that element `i` (`0..4`) of lane `lane`'s fragment holds.
pub fn c_index(lane: usize, i: usize) -> (usize, usize) {
    let (g, t) = group(lane);
    (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1))
}

/// The lane and element of the `A` fragment that hold `A[row][col]`.
pub fn a_owner(row: usize, col: usize) -> (usize, usize) {
    let (g, hi_row) = (row % 8, row / 8);
    let (t, lo, hi_col) = ((col % 8) / 2, col % 2, col / 8);
    (g * 4 + t, hi_col * 4 + hi_row * 2 + lo)
}

/// The lane and element of the `B` fragment that hold `B[row][col]`.
pub fn b_owner(row: usize, col: usize) -> (usize, usize) {
    let (t, lo, hi) = ((row % 8) / 2, row % 2, row / 8);
    (col * 4 + t, hi * 2 + lo)
}

/// Up to four 16-bit elements in one 64-bit exchange word, element `j` in bits `16j..`.
pub fn pack(halves: &[u16]) -> u64 {
    halves.iter().enumerate().fold(0, |w, (j, &h)| w | u64::from(h) << (16 * j))
}

/// Element `j` of a word [`pack`] made.
pub fn unpack(word: u64, j: usize) -> u16 {
    (word >> (16 * j)) as u16
}

/// Lane `lane`'s four elements of `D`, from every lane's `A` and `B` fragments (indexed by
/// lane) and this lane's `C` fragment, with the rule of the module's documentation.
pub fn mma(
    ty: MmaType,
    a: &[[u16; 8]; crate::WARP_SIZE],
    b: &[[u16; 4]; crate::WARP_SIZE],
    c: [f32; 4],
    lane: usize,
) -> [f32; 4] {
    std::array::from_fn(|i| {
        let (row, col) = c_index(lane, i);
        let mut acc = f64::from(c[i]);
        for k in 0..K {
            let (al, ai) = a_owner(row, k);
            let (bl, bi) = b_owner(k, col);
            acc += ty.to_f64(a[al][ai]) * ty.to_f64(b[bl][bi]);
        }
        acc as f32
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WARP_SIZE;

    #[test]
    fn owners_invert_the_fragment_layouts() {
        let mut seen_a = [[false; K]; M];
        let mut seen_b = [[false; N]; K];
        let mut seen_c = [[false; N]; M];
        for lane in 0..WARP_SIZE {
            for i in 0..8 {
                let (r, c) = a_index(lane, i);
                assert_eq!(a_owner(r, c), (lane, i));
                assert!(!std::mem::replace(&mut seen_a[r][c], true));
            }
            for i in 0..4 {
                let (r, c) = b_index(lane, i);
                assert_eq!(b_owner(r, c), (lane, i));
                assert!(!std::mem::replace(&mut seen_b[r][c], true));
                let (r, c) = c_index(lane, i);
                assert!(!std::mem::replace(&mut seen_c[r][c], true));
            }
        }
        assert!(seen_a.iter().flatten().all(|&s| s));
        assert!(seen_b.iter().flatten().all(|&s| s));
        assert!(seen_c.iter().flatten().all(|&s| s));
    }

    #[test]
    fn layouts_match_ptx_examples() {
        // From PTX's figures: lane 5 is group 1, thread 1 of its group.
        assert_eq!(a_index(5, 0), (1, 2));
        assert_eq!(a_index(5, 3), (9, 3));
        assert_eq!(a_index(5, 6), (9, 10));
        assert_eq!(b_index(5, 0), (2, 1));
        assert_eq!(b_index(5, 3), (11, 1));
        assert_eq!(c_index(5, 2), (9, 2));
    }

    #[test]
    fn f16_values_are_exact() {
        let t = MmaType::F16;
        assert_eq!(t.to_f64(0x3c00), 1.0);
        assert_eq!(t.to_f64(0xc000), -2.0);
        assert_eq!(t.to_f64(0x0001), f64::powi(2.0, -24));
        assert_eq!(t.to_f64(0x7bff), 65504.0);
        assert_eq!(t.to_f64(0x7c00), f64::INFINITY);
        assert!(t.to_f64(0x7e00).is_nan());
        assert_eq!(t.to_f64(0x8000).to_bits(), (-0.0f64).to_bits());
        assert_eq!(MmaType::Bf16.to_f64(0x3f80), 1.0);
    }

    #[test]
    fn identity_times_b_is_b() {
        // A = I (16×16), B[k][n] = 1024 + k + 16n, C = 0.5: D is B plus 0.5.
        let one = 0x3c00u16;
        let a: [[u16; 8]; WARP_SIZE] = std::array::from_fn(|lane| {
            std::array::from_fn(|i| {
                let (r, c) = a_index(lane, i);
                if r == c { one } else { 0 }
            })
        });
        let b: [[u16; 4]; WARP_SIZE] = std::array::from_fn(|lane| {
            std::array::from_fn(|i| {
                let (k, n) = b_index(lane, i);
                // Small integers are exact in f16: 1024 + m has the bits 0x6400 + m.
                0x6400 + (k + 16 * n) as u16
            })
        });
        for lane in 0..WARP_SIZE {
            let d = mma(MmaType::F16, &a, &b, [0.5; 4], lane);
            for (i, v) in d.iter().enumerate() {
                let (r, n) = c_index(lane, i);
                assert_eq!(*v, 1024.0 + (r + 16 * n) as f32 + 0.5, "lane {lane} element {i}");
            }
        }
    }
}
