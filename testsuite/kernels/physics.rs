//! Particle and n-body code in the style of Rust-CUDA's and cuda-oxide's examples: a
//! `#[repr(C)]` body type crossing the host boundary in slices, an all-pairs n-body step with
//! tiles in shared memory between barriers, a `Scene<'a>` struct holding slices with methods
//! returning `Option<&f32>`, `let … else`, and particles without `repr(C)` updated through
//! `&mut` helpers, reborrows, `match` guards and `matches!`.
use core::ops::{Add, AddAssign, Mul, Sub};
use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, rkc_offload::DeviceCopy)]
pub struct Body {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub mass: f32,
}

/// A 3-vector used only inside kernels, so it needs no `repr(C)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct V3 {
    x: f32,
    y: f32,
    z: f32,
}

impl V3 {
    fn of(b: &Body) -> V3 {
        V3 { x: b.x, y: b.y, z: b.z }
    }

    fn norm2(self) -> f32 {
        self.x * self.x + self.y * self.y + self.z * self.z
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}

impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
}

impl Mul<f32> for V3 {
    type Output = V3;
    fn mul(self, k: f32) -> V3 {
        V3 { x: self.x * k, y: self.y * k, z: self.z * k }
    }
}

impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

/// The softening keeps the force finite when two bodies coincide (and for a body with
/// itself, whose difference is zero).
const SOFTENING: f32 = 1.0;
const TILE: usize = 64;

fn pull(me: V3, other: V3, mass: f32) -> V3 {
    let d = other - me;
    let r2 = d.norm2() + SOFTENING;
    let inv = 1.0 / (r2 * r2.sqrt());
    d * (mass * inv)
}

/// One explicit Euler step of the all-pairs n-body problem. Each block loads a tile of bodies
/// into shared memory, every thread accumulates the tile's pull on its body, and barriers
/// separate loading from reading. Masses are made positive from the random inputs.
#[offload_kernel]
pub fn nbody(bodies: &[Body], dt: f32, out: &mut [Body]) {
    // SAFETY: the builtins only read the thread's position; each thread writes its own slot of
    // the shared tile and reads the tile only between the two barriers of a round.
    unsafe {
        let t = thread_idx_x() as usize;
        let i = block_idx_x() as usize * TILE + t;
        let tile_x = shared_array::<f32, TILE>();
        let tile_y = shared_array::<f32, TILE>();
        let tile_z = shared_array::<f32, TILE>();
        let tile_m = shared_array::<f32, TILE>();
        let me = V3::of(&bodies[i]);
        let mut acc = V3::default();
        for base in (0..bodies.len()).step_by(TILE) {
            let b = &bodies[base + t];
            (*tile_x)[t] = b.x;
            (*tile_y)[t] = b.y;
            (*tile_z)[t] = b.z;
            (*tile_m)[t] = b.mass.abs() + 1.0;
            sync_threads();
            for j in 0..TILE {
                let other = V3 { x: (*tile_x)[j], y: (*tile_y)[j], z: (*tile_z)[j] };
                acc += pull(me, other, (*tile_m)[j]);
            }
            sync_threads();
        }
        let moved = me + acc * (dt * dt);
        if let Some(o) = out.get_mut(i) {
            *o = Body { x: moved.x, y: moved.y, z: moved.z, mass: acc.norm2().sqrt() };
        }
    }
}

/// A chain of masses joined by springs, held as slices in a struct with a lifetime.
struct Scene<'a> {
    pos: &'a [f32],
    vel: &'a [f32],
    stiffness: f32,
    damping: f32,
}

impl<'a> Scene<'a> {
    /// The position of a neighbour, `None` past either end of the chain.
    fn neighbour(&self, i: usize, left: bool) -> Option<&'a f32> {
        if left { i.checked_sub(1).and_then(|j| self.pos.get(j)) } else { self.pos.get(i + 1) }
    }

    fn force(&self, i: usize) -> f32 {
        let here = self.pos[i];
        let spring = |other: Option<&f32>| other.map_or(0.0, |&p| self.stiffness * (p - here));
        spring(self.neighbour(i, true)) + spring(self.neighbour(i, false))
            - self.damping * self.vel[i]
    }
}

/// Semi-implicit Euler on a spring chain: the velocity is updated from the force first and
/// the position from the new velocity.
#[offload_kernel]
pub fn springs(pos: &[f32], vel: &[f32], new_pos: &mut [f32], new_vel: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let scene = Scene { pos, vel, stiffness: 0.75, damping: 0.125 };
    let Some(&v) = scene.vel.get(i) else { return };
    let dt = 0.01f32;
    let v1 = v + scene.force(i) * dt;
    if let (Some(p), Some(w)) = (new_pos.get_mut(i), new_vel.get_mut(i)) {
        *w = v1;
        *p = scene.pos[i] + v1 * dt;
    }
}

/// A particle used only inside the kernel: no `repr(C)`, an enum field for what happened.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hit {
    None,
    Wall { axis: u8, speed: f32 },
    Floor,
}

#[derive(Clone, Copy, Debug)]
struct Particle {
    pos: [f32; 2],
    vel: [f32; 2],
    bounces: u32,
    last: Hit,
}

const BOX: f32 = 100.0;

/// Moves a particle one step, reflecting it off the walls of the box; writes through the
/// `&mut` it is given.
fn step(p: &mut Particle, dt: f32) {
    p.vel[1] -= 9.81 * dt;
    for axis in 0..2 {
        let x = &mut p.pos[axis];
        *x += p.vel[axis] * dt;
        let hit = match *x {
            x if x < -BOX && axis == 1 => Hit::Floor,
            x if !(-BOX..=BOX).contains(&x) => {
                Hit::Wall { axis: axis as u8, speed: p.vel[axis].abs() }
            }
            _ => Hit::None,
        };
        if hit != Hit::None {
            *x = x.clamp(-BOX, BOX);
            bounce(&mut p.vel[axis], 0.5);
            p.bounces += 1;
            p.last = hit;
        }
    }
}

fn bounce(v: &mut f32, restitution: f32) {
    *v = -*v * restitution;
}

/// Runs a few steps through a reborrowed `&mut Particle`, then scores what happened.
fn simulate(p: &mut Particle, steps: u32) -> f32 {
    for _ in 0..steps {
        step(&mut *p, 0.5);
    }
    let energy = 0.5 * (p.vel[0] * p.vel[0] + p.vel[1] * p.vel[1]);
    let wall_bonus = match p.last {
        Hit::Wall { axis: 0, speed } if speed > 50.0 => 3.0,
        Hit::Wall { .. } => 2.0,
        Hit::Floor => 1.0,
        Hit::None => 0.0,
    };
    energy + wall_bonus * 1000.0
}

#[offload_kernel]
pub fn bounce_box(state: *const [f32; 256], out: *mut [f32; 64]) {
    // SAFETY: the pointers are mapped for the launch; thread t reads 4t..4t+4 < 256 and
    // writes out[t] with t < 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let state = &*state;
        let s = &state[4 * t..4 * t + 4];
        let mut p = Particle { pos: [s[0], s[1]], vel: [s[2], s[3]], bounces: 0, last: Hit::None };
        let score = simulate(&mut p, 8 + t as u32 % 8);
        let floored = matches!(p.last, Hit::Floor) as u32 as f32;
        (*out)[t] = score + p.bounces as f32 * 10.0 + floored * 0.5 + p.pos[0] * 0.001;
    }
}
