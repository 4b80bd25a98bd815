// A guarded arm covers nothing for exhaustiveness (rustc's E0004): without it the match would
// reach an unreachable end at run time.
use rkc_offload::prelude::*;

enum Token {
    Empty,
    Digit(u8),
}

#[offload_kernel]
pub fn k(x: &[u8], out: &mut [u32]) {
    let t = if x[0] == 0 { Token::Empty } else { Token::Digit(x[0]) };
    out[0] = match t {
        Token::Empty => 0,
        Token::Digit(d) if d < 10 => d as u32,
    };
}
