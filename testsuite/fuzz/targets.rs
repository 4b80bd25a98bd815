//! What each fuzz target checks, shared by the libFuzzer targets (fuzz_targets/) and the
//! stable corpus replay (testsuite/tests/fuzz_corpus.rs). Each must return for any input:
//! a panic is a bug.

/// The front end on arbitrary bytes: UTF-8 text goes through syn and the whole front end,
/// which must give a module or diagnostics; a module must verify, survive the rk passes, and
/// its printed text must parse back to the same text.
#[allow(dead_code, reason = "each fuzz binary uses one of the targets")]
pub fn front_end(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(module) = rkc_front::compile(source) else { return };
    rkc_rk::verify(&module).expect("the front end made invalid rk");
    let text = rkc_rk::print_module(&module);
    let parsed = rkc_rk::parse_module(&text).expect("printed rk does not parse");
    assert_eq!(rkc_rk::print_module(&parsed), text, "rk text does not round-trip");
    let mut optimized = module;
    if rkc_rk::passes::inline_calls(&mut optimized).is_ok() {
        rkc_rk::passes::optimize(&mut optimized, true, &mut |_, _| {});
        rkc_rk::verify(&optimized).expect("the rk passes made invalid rk");
    }
}

/// The rk text parser on arbitrary bytes: an error or a module; a module that verifies must
/// print, parse and print to the same text, and survive the passes.
#[allow(dead_code, reason = "each fuzz binary uses one of the targets")]
pub fn rk_parser(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(module) = rkc_rk::parse_module(text) else { return };
    if rkc_rk::verify(&module).is_err() {
        return;
    }
    let printed = rkc_rk::print_module(&module);
    let again = rkc_rk::parse_module(&printed).expect("printed rk does not parse");
    assert_eq!(rkc_rk::print_module(&again), printed, "rk text does not round-trip");
    let mut optimized = module;
    if rkc_rk::passes::inline_calls(&mut optimized).is_ok() && rkc_rk::verify(&optimized).is_ok() {
        rkc_rk::passes::optimize(&mut optimized, true, &mut |_, _| {});
        rkc_rk::verify(&optimized).expect("simplify made invalid rk");
    }
}

/// The fat-binary reader (what the runtime runs on a file it is given) on arbitrary bytes:
/// an error or images; images must write back to bytes that read as the same images.
#[allow(dead_code, reason = "each fuzz binary uses one of the targets")]
pub fn fatbin_reader(data: &[u8]) {
    let Ok(images) = offload_binary::read(data) else { return };
    for image in &images {
        if let Some(text) = image.string(offload_binary::KERNELS_KEY) {
            let _ = offload_binary::metadata::decode(text);
        }
    }
    let written = offload_binary::write(&images);
    let reread = offload_binary::read(&written).expect("written images do not read back");
    assert_eq!(reread, images, "images do not round-trip");
}
