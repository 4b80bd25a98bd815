//! A 5×5 box blur on a generated picture: writes the input and the output as PNG files,
//! checks every pixel against a CPU reference that adds in the same order (bit-identical),
//! and prints transfer, kernel and end-to-end times.
//!
//! Usage: blur [OUTPUT_FOLDER]   (default: the system's temporary folder, `rkc-blur/`)

mod kernels;

use kernels::{RADIUS, blur};
use rkc_offload::{Backend, offload, preload, preload_mut};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Writes a grey image (values in [0, 1]) as an 8-bit PNG.
fn write_png(path: &Path, width: usize, height: usize, pixels: &[f32]) -> Result<(), String> {
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width as u32, height as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let bytes: Vec<u8> = pixels.iter().map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8).collect();
    encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&bytes))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn main() -> ExitCode {
    let folder = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("rkc-blur"));
    if let Err(e) = std::fs::create_dir_all(&folder) {
        eprintln!("error: cannot create {}: {e}", folder.display());
        return ExitCode::FAILURE;
    }
    rkc_offload::include_fatbin!("kernels").expect("the fat binary build.rs made");
    let device = rkc_offload::executor::<blur>().expect("a device");
    let (width, height) = match device.backend {
        Backend::CpuSimulator => (512, 384),
        Backend::CpuHost => (2048, 1536),
        _ => (4096, 4096),
    };
    println!(
        "5×5 box blur of a {width}×{height} picture on {} ({}, {})",
        device.name, device.arch, device.driver
    );

    // Rings, a checkerboard and noise: sharp edges that the blur visibly softens.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let input: Vec<f32> = (0..width * height)
        .map(|i| {
            let (x, y) = ((i % width) as f32, (i / width) as f32);
            let (cx, cy) = (x - width as f32 / 2.0, y - height as f32 / 2.0);
            let ring = if (((cx * cx + cy * cy).sqrt() / 24.0) as u32).is_multiple_of(2) {
                0.8
            } else {
                0.2
            };
            let check =
                if ((x as u32 / 64) + (y as u32 / 64)).is_multiple_of(2) { 0.1 } else { -0.1 };
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ring + check + ((seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.3
        })
        .collect();
    let mut output = vec![f32::NAN; width * height];

    let start = Instant::now();
    let din = preload(&input[..]);
    let dout = preload_mut(&mut output[..]);
    let copied_in = start.elapsed();
    let grid = [width.div_ceil(32) as u32, height.div_ceil(8) as u32, 1];
    let t = Instant::now();
    offload! { kernel = blur, workgroup_dim = grid, thread_dim = [32, 8, 1], args = (width, height, &din, &dout) }
    let kernel = t.elapsed();
    let t = Instant::now();
    if let Err(e) = dout.finish() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    drop(din);
    let copied_out = t.elapsed();
    let total = start.elapsed();

    let reference = Instant::now();
    let mut wrong = 0;
    for y in 0..height {
        for x in 0..width {
            let mut sum = 0.0f32;
            for dy in 0..2 * RADIUS + 1 {
                let yy = (y + dy).saturating_sub(RADIUS).min(height - 1);
                for dx in 0..2 * RADIUS + 1 {
                    sum += input[yy * width + (x + dx).saturating_sub(RADIUS).min(width - 1)];
                }
            }
            if (sum / 25.0).to_bits() != output[y * width + x].to_bits() {
                wrong += 1;
            }
        }
    }
    println!(
        "{} of {} pixels equal the CPU reference (plain Rust on one host thread, comparisons included: {:.3} ms)",
        width * height - wrong,
        width * height,
        reference.elapsed().as_secs_f64() * 1e3
    );
    println!(
        "times: copy in {:.3} ms, kernel {:.3} ms, copy out {:.3} ms, end to end {:.3} ms",
        copied_in.as_secs_f64() * 1e3,
        kernel.as_secs_f64() * 1e3,
        copied_out.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    );
    for (name, pixels) in [("input.png", &input), ("output.png", &output)] {
        let path = folder.join(name);
        match write_png(&path, width, height, pixels) {
            Ok(()) => println!("wrote {}", path.display()),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
