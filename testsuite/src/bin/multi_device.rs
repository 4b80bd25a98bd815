//! Issue 8's checks on every GPU of this machine: saxpy on each device, upstream's message
//! for a device past the count, two host threads launching on two devices at once, and
//! resident data refused on the other device. Needs the testsuite's saxpy fat binary.
//!
//! Usage: multi_device <saxpy.fatbin>

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: multi_device <saxpy.fatbin>");
        return ExitCode::from(2);
    };
    let registered = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| rkc_offload::register_fatbin(b).map_err(|e| e.to_string()));
    if let Err(e) = registered {
        eprintln!("error: {path}: {e}");
        return ExitCode::from(2);
    }
    match rkc_testsuite::multi_device::run_checks() {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("FAIL {e}");
            ExitCode::FAILURE
        }
    }
}
