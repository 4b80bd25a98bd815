//! `#[repr(C)]` structs, tuple structs and tuples: by value (locals, copies, device-function
//! arguments and results, functional update `..base`, kernel parameters), through pointers and
//! slices (field reads and updates, nested fields, whole-struct stores), chosen by `if`, and
//! taken apart by `let` patterns.
use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Particle {
    pub pos: Vec3,
    pub vel: Vec3,
    pub mass: f32,
    pub id: u32,
}

/// Padding between the fields: `u8`, then a `u64` at offset 8, a `bool`, and an array.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Record {
    pub tag: u8,
    pub key: u64,
    pub live: bool,
    pub hist: [u16; 3],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Pair(pub u32, pub u32);

fn add(a: Vec3, b: Vec3) -> Vec3 {
    Vec3 { x: a.x + b.x, y: a.y + b.y, z: a.z + b.z }
}

fn scale(v: Vec3, k: f32) -> Vec3 {
    Vec3 { x: v.x * k, ..v }
}

fn dot(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// Moves each particle by half its velocity, lets gravity act on it, and reports a checksum.
#[offload_kernel]
pub fn particles(ps: *mut [Particle; 64], out: *mut [f32; 64]) {
    // SAFETY: both arrays are mapped for the launch; indices are checked.
    unsafe {
        let i = thread_idx_x() as usize;
        let p = (*ps)[i];
        let moved = add(p.pos, scale(p.vel, 0.5));
        (*ps)[i].pos = moved;
        (*ps)[i].vel.y -= 9.8 * p.mass;
        let mut q = p;
        q.mass = 1.0;
        let corners = [moved, p.vel, Vec3 { x: 1.0, y: 2.0, z: 3.0 }, q.pos];
        let mut best = 0.0f32;
        for k in 0..corners.len() {
            best = best.max(dot(corners[k], corners[(k + 1) % 4]));
        }
        (*out)[i] = best + q.mass + p.mass + dot(moved, (*ps)[i].vel);
    }
}

fn divmod(a: u32, b: u32) -> (u32, u32) {
    (a / b, a % b)
}

fn swap_pair(p: Pair) -> Pair {
    Pair(p.1, p.0)
}

/// Tuples as values: returned from functions, nested, indexed with `.0`, taken apart with
/// `..`; a tuple struct built, passed and matched.
#[offload_kernel]
pub fn tuples(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        let (q, r) = divmod(x, 1000);
        let qr = divmod(q, 7);
        let nested = ((x & 0xff, qr), r);
        let ((low, (a, _)), ..) = nested;
        let Pair(s, t) = swap_pair(Pair(a, low));
        let mut acc = (0u32, 1u32, true);
        acc.0 = s.wrapping_mul(31) ^ t;
        acc.1 += nested.1 + (nested.0).1.1;
        if acc.2 {
            acc.0 = acc.0.rotate_left(3);
        }
        (*out)[i] = acc.0 ^ acc.1;
    }
}

/// Records through a slice: a struct with padding, a `bool`, a `u8` and an array field; a
/// struct pattern; a whole record written back.
#[offload_kernel]
pub fn records(rs: &mut [Record], sums: &mut [u64]) {
    // SAFETY: builtins only; the slices are checked.
    let i = unsafe { thread_idx_x() } as usize;
    if i < rs.len() && i < sums.len() {
        let Record { tag, key, live, hist } = rs[i];
        let mut total = key.wrapping_add(tag as u64);
        for k in 0..hist.len() {
            total = total.wrapping_add(hist[k] as u64);
        }
        if live {
            total ^= 0xdead_beef;
        }
        sums[i] = total;
        let updated = Record { tag: tag.wrapping_add(1), live: !live, ..rs[i] };
        rs[i] = updated;
        rs[i].hist[i % 3] = (total & 0xffff) as u16;
    }
}

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Params {
    pub scale: f32,
    pub offset: Vec3,
    pub steps: u32,
    pub flip: bool,
}

/// A struct and an array taken by value (copied to the device, as upstream maps them); the
/// `mut` one changed by every thread on its own copy; an `if` whose arms are structs.
#[offload_kernel]
pub fn by_value(mut params: Params, weights: [f32; 4], xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        params.steps = params.steps % 8 + t as u32 % 3;
        let base = Vec3 { x: (*xs)[t], y: (*xs)[63 - t], z: weights[t % 4] };
        let v = if params.flip { scale(base, params.scale) } else { add(base, params.offset) };
        let mut acc = 0.0f32;
        for k in 0..params.steps {
            acc += dot(v, params.offset) * weights[(k % 4) as usize];
        }
        (*out)[t] = acc + v.x - v.z;
    }
}

/// `match` and `if` whose values are structs: arms that are literals, copies, blocks with
/// statements, and an arm that returns.
#[offload_kernel]
pub fn choices(xs: *const [u32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let base = Vec3 { x: 1.0, y: 2.0, z: 3.0 };
        let v = match x % 5 {
            0 => base,
            1 => Vec3 { x: 3.0, ..base },
            2 | 3 => {
                let s = scale(base, (x % 7) as f32);
                add(s, base)
            }
            _ => {
                (*out)[t] = -1.0;
                return;
            }
        };
        let w = if x % 2 == 0 { v } else { Vec3 { x: v.z, y: v.y, z: v.x } };
        (*out)[t] = dot(v, w);
    }
}
