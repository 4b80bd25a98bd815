//! The fuzz corpus (testsuite/fuzz/corpus/<target>/), replayed on stable through the same
//! checks the libFuzzer targets run (testsuite/fuzz/targets.rs): every input that fuzzing
//! kept, and every input that once crashed a target (named `crash-*`), must now pass.

#[path = "../fuzz/targets.rs"]
mod targets;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("{target}: {} makes the target panic", path.display());
        }
        n += 1;
    }
    assert!(n > 0, "{target}: empty corpus");
}

#[test]
fn front_end_corpus() {
    replay("front_end", targets::front_end);
}

#[test]
fn rk_parser_corpus() {
    replay("rk_parser", targets::rk_parser);
}

#[test]
fn fatbin_reader_corpus() {
    replay("fatbin_reader", targets::fatbin_reader);
}
