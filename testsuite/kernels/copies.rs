//! Copies of aggregates are values of their own: an array, a tuple or a struct read through a
//! shared reference (`*r`, `r[0]`, `p.pos`, `p.clone()`, a block ending in `*r`) into an
//! immutable `let`, a tuple, an array or an `Option` keeps what it had when the original is
//! written afterwards, once the borrow has ended. (Found by the eighth porting round: rkc bound
//! such a `let` to the referenced memory.)
use rkc_offload::prelude::*;

#[derive(Clone, Copy)]
struct S {
    id: u32,
    w: u32,
}

#[derive(Clone, Copy)]
struct P {
    pos: [u32; 2],
    id: u32,
}

#[offload_kernel]
pub fn copies_outlive_borrows(xs: &[u32], out: &mut [u32]) {
    // SAFETY: reading the thread's position has no preconditions.
    let i = unsafe { global_idx_x() };
    if i >= xs.len() || i * 8 + 8 > out.len() {
        return;
    }
    let v = xs[i] % 1_000_000;
    let mut arr = [v, v + 1, v + 2];
    let ra = &arr;
    let a = *ra;
    arr[0] = 7;
    out[i * 8] = a[0];
    let mut t = (v, S { id: v, w: 0 });
    let rt = &t;
    let tt = *rt;
    t.0 = 7;
    t.1.id = 7;
    out[i * 8 + 1] = tt.0 + tt.1.id;
    let mut ks = [S { id: v, w: 1 }, S { id: 5, w: 0 }];
    let r = &ks;
    let b = r[0];
    ks[0].id = 7;
    out[i * 8 + 2] = b.id;
    let mut ks2 = [S { id: v, w: 1 }, S { id: 5, w: 0 }];
    let Some(&best) = ks2.iter().max_by_key(|k| k.w) else { return };
    ks2[0].id = 7;
    out[i * 8 + 3] = best.id;
    let mut ks3 = [S { id: v, w: 1 }, S { id: 5, w: 0 }];
    let c = match ks3.iter().max_by_key(|k| k.w) {
        Some(s) => *s,
        None => S { id: 0, w: 0 },
    };
    ks3[0].id = 7;
    out[i * 8 + 4] = c.id;
    let mut ks4 = [S { id: v, w: 1 }, S { id: 5, w: 0 }];
    let d = if v > 0 { *ks4.first().unwrap() } else { ks4[1] };
    ks4[0].id = 7;
    out[i * 8 + 5] = d.id;
    let mut s5 = S { id: v, w: 0 };
    let mut e = *&s5;
    s5.id = 7;
    e.w = 3;
    out[i * 8 + 6] = e.id + e.w + s5.w;
    let mut s6 = S { id: v, w: 0 };
    let f = {
        let r = &s6;
        *r
    };
    s6.id = 7;
    out[i * 8 + 7] = f.id + ks[1].id + ks2[1].id + ks3[1].id + ks4[1].id + arr[1] + t.0 + s6.w;
}

#[offload_kernel]
pub fn copies_in_aggregates(xs: &[u32], out: &mut [u32]) {
    // SAFETY: reading the thread's position has no preconditions.
    let i = unsafe { global_idx_x() };
    if i >= xs.len() || i * 6 + 6 > out.len() {
        return;
    }
    let v = xs[i];
    let mut s = P { pos: [v, v ^ 1], id: v };
    let p = &s;
    let c = p.clone();
    let arr = p.pos;
    let t = (*p, 1u32);
    let q = [*p];
    let m = Some(*p);
    s.id = 7;
    s.pos[0] = 7;
    out[i * 6] = c.id;
    out[i * 6 + 1] = arr[0];
    out[i * 6 + 2] = t.0.id;
    out[i * 6 + 3] = q[0].pos[0];
    out[i * 6 + 4] = m.map_or(0, |x| x.id);
    out[i * 6 + 5] = s.id ^ s.pos[0];
}
