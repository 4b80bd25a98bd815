//! Enums with data as state machines, the way parsers and protocol code run on GPUs: a
//! tokenizer over bytes (byte and char literals, `while let` over an iterator, `matches!`), a
//! vending machine whose `step` consumes the state and matches on `(state, event)` pairs with
//! guards, let-chains (`if let … && …`, edition 2024), `let … else`, and a UTF-8 decoder
//! producing `char`s through `char::from_u32`.
use rkc_offload::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Number(u32),
    Ident { len: u8, hash: u32 },
    Op(char),
    Open,
    Close,
}

#[derive(Clone, Copy, Debug)]
enum Lex {
    Between,
    InNumber(u32),
    InIdent { len: u8, hash: u32 },
}

/// Scans bytes into tokens, calling `emit` for each; whitespace separates, and anything
/// unknown is skipped.
fn lex(text: &[u8], mut emit: impl FnMut(Token)) {
    let mut state = Lex::Between;
    let mut bytes = text.iter().copied().chain(core::iter::once(b' '));
    while let Some(b) = bytes.next() {
        // A token that ends here is emitted first; then the byte starts the next state.
        state = match (state, b) {
            (Lex::InNumber(n), b'0'..=b'9') => {
                Lex::InNumber(n.wrapping_mul(10).wrapping_add(u32::from(b - b'0')))
            }
            (Lex::InIdent { len, hash }, b'a'..=b'z' | b'0'..=b'9' | b'_') => Lex::InIdent {
                len: len.saturating_add(1),
                hash: (hash ^ u32::from(b)).wrapping_mul(16_777_619),
            },
            (done, _) => {
                match done {
                    Lex::InNumber(n) => emit(Token::Number(n)),
                    Lex::InIdent { len, hash } => emit(Token::Ident { len, hash }),
                    Lex::Between => {}
                }
                match b {
                    b'0'..=b'9' => Lex::InNumber(u32::from(b - b'0')),
                    b'a'..=b'z' | b'_' => {
                        Lex::InIdent { len: 1, hash: 2_166_136_261 ^ u32::from(b) }
                    }
                    b'(' => {
                        emit(Token::Open);
                        Lex::Between
                    }
                    b')' => {
                        emit(Token::Close);
                        Lex::Between
                    }
                    b'+' | b'-' | b'*' => {
                        emit(Token::Op(char::from(b)));
                        Lex::Between
                    }
                    _ => Lex::Between,
                }
            }
        };
    }
}

/// Each thread tokenizes 16 bytes spelled from its random input, and summarises the tokens:
/// how many of each kind, the sum of the numbers, whether the parentheses balance.
#[offload_kernel]
pub fn tokenize(noise: &[u8], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let alphabet = b"0123 abz_(+)*-9x";
    let Some(source) = noise.get(i * 16..i * 16 + 16) else { return };
    let text: [u8; 16] = core::array::from_fn(|k| alphabet[usize::from(source[k] & 15)]);
    let (mut numbers, mut idents, mut ops, mut depth, mut balanced) =
        (0u32, 0u32, 0u32, 0i32, true);
    let mut longest = 0u8;
    lex(&text, |token| {
        match token {
            Token::Number(n) => numbers = numbers.wrapping_add(n),
            Token::Ident { len, hash } => {
                idents += 1;
                longest = longest.max(len);
                numbers ^= hash >> 20;
            }
            Token::Op(c) if c == '-' => ops += 16,
            Token::Op(_) => ops += 1,
            Token::Open => depth += 1,
            Token::Close => depth -= 1,
        }
        balanced &= depth >= 0;
        if matches!(token, Token::Close) && depth == 0 {
            ops += 256;
        }
    });
    if let Some(o) = out.get_mut(i) {
        *o = numbers
            ^ idents << 24
            ^ ops << 8
            ^ (u32::from(balanced && depth == 0) << 31)
            ^ u32::from(longest) << 28;
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    Jammed,
    Empty(u8),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Machine {
    Idle,
    Paid(u32),
    Vending { item: u8, change: u32 },
    Broken(Fault),
}

#[derive(Clone, Copy, Debug)]
enum Event {
    Coin(u32),
    Select(u8),
    Refund,
    Kick,
}

impl Event {
    fn decode(code: u32) -> Event {
        match code % 8 {
            0..=2 => Event::Coin([5, 10, 25][(code / 8 % 3) as usize]),
            3 | 4 => Event::Select((code / 8 % 4) as u8),
            5 => Event::Refund,
            _ => Event::Kick,
        }
    }
}

const PRICES: [u32; 4] = [15, 30, 45, 60];

impl Machine {
    /// The next state: consumes the current one, as a state machine written with enums does.
    fn step(self, event: Event, stock: &mut [u8; 4]) -> Machine {
        match (self, event) {
            (Machine::Broken(Fault::Jammed), Event::Kick) => Machine::Idle,
            (broken @ Machine::Broken(_), _) => broken,
            (Machine::Idle, Event::Coin(c)) => Machine::Paid(c),
            (Machine::Paid(p), Event::Coin(c)) if p + c > 100 => Machine::Broken(Fault::Jammed),
            (Machine::Paid(p), Event::Coin(c)) => Machine::Paid(p + c),
            (Machine::Paid(p), Event::Select(item)) => {
                let price = PRICES[usize::from(item)];
                match stock[usize::from(item)] {
                    0 => Machine::Broken(Fault::Empty(item)),
                    _ if p < price => Machine::Paid(p),
                    ref mut left => {
                        *left -= 1;
                        Machine::Vending { item, change: p - price }
                    }
                }
            }
            (Machine::Paid(_) | Machine::Vending { .. }, Event::Refund) => Machine::Idle,
            (Machine::Vending { change, .. }, Event::Coin(c)) => Machine::Paid(change + c),
            (state, _) => state,
        }
    }
}

/// Runs 12 events through the machine and reports where it ended and what it sold.
#[offload_kernel]
pub fn vending(events: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut stock = [2u8, 1, 3, 0];
        let mut machine = Machine::Idle;
        let mut sold = 0u32;
        let mut change = 0u32;
        for k in 0..12 {
            machine =
                machine.step(Event::decode((*events)[(t + 5 * k) % 64] >> (k % 4)), &mut stock);
            // A let-chain: a pattern and a condition in one `if`.
            if let Machine::Vending { item, change: c } = machine
                && c > 0
            {
                sold += 1 << (item * 4);
                change += c;
            }
        }
        let code = match machine {
            Machine::Idle => 0,
            Machine::Paid(p) => 1000 + p,
            Machine::Vending { item, .. } => 2000 + u32::from(item),
            Machine::Broken(Fault::Jammed) => 3000,
            Machine::Broken(Fault::Empty(item)) => 4000 + u32::from(item),
        };
        let left = stock.iter().map(|&s| u32::from(s)).sum::<u32>();
        (*out)[t] = code ^ sold << 12 ^ change << 20 ^ left << 28;
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Utf8 {
    Start,
    /// Inside a multi-byte sequence: how many continuation bytes remain, and the bits so far.
    Continue {
        need: u8,
        acc: u32,
        min: u32,
    },
}

/// Decodes UTF-8 (made likely valid by forcing most bytes into ASCII or well-formed
/// sequences), counting characters by class; invalid sequences are replaced, as
/// `from_utf8_lossy` does, by U+FFFD.
#[offload_kernel]
pub fn utf8_decode(bytes: &[u8], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(raw) = bytes.get(i * 12..i * 12 + 12) else { return };
    let mut state = Utf8::Start;
    let (mut letters, mut digits, mut wide, mut replaced, mut code_sum) =
        (0u32, 0u32, 0u32, 0u32, 0u32);
    let mut accept = |c: char| {
        if c.is_ascii_alphabetic() {
            letters += 1;
        } else if let Some(d) = c.to_digit(10) {
            digits += d + 1;
        } else if c == '\u{FFFD}' {
            replaced += 1;
        } else if c.len_utf8() > 1 {
            wide += c.len_utf8() as u32;
        }
        code_sum = code_sum.wrapping_mul(33) ^ c as u32;
    };
    for &r in raw {
        // Bias the random bytes towards text: most become ASCII letters and digits.
        let b = match r % 8 {
            0..=3 => b'a' + r / 8 % 26,
            4 => b'0' + r / 8 % 10,
            _ => r,
        };
        state = match state {
            Utf8::Start => match b {
                0x00..=0x7f => {
                    accept(char::from(b));
                    Utf8::Start
                }
                0xc2..=0xdf => Utf8::Continue { need: 1, acc: u32::from(b & 0x1f), min: 0x80 },
                0xe0..=0xef => Utf8::Continue { need: 2, acc: u32::from(b & 0x0f), min: 0x800 },
                0xf0..=0xf4 => Utf8::Continue { need: 3, acc: u32::from(b & 0x07), min: 0x10000 },
                _ => {
                    accept(char::REPLACEMENT_CHARACTER);
                    Utf8::Start
                }
            },
            Utf8::Continue { need, acc, min } if b & 0xc0 == 0x80 => {
                let acc = acc << 6 | u32::from(b & 0x3f);
                if need > 1 {
                    Utf8::Continue { need: need - 1, acc, min }
                } else {
                    let c = if acc >= min { char::from_u32(acc) } else { None };
                    accept(c.unwrap_or(char::REPLACEMENT_CHARACTER));
                    Utf8::Start
                }
            }
            Utf8::Continue { .. } => {
                // A broken sequence: replace it, and read this byte afresh as ASCII if it is.
                accept(char::REPLACEMENT_CHARACTER);
                if b.is_ascii() {
                    accept(char::from(b));
                }
                Utf8::Start
            }
        };
    }
    if state != Utf8::Start {
        accept(char::REPLACEMENT_CHARACTER);
    }
    if let Some(o) = out.get_mut(i) {
        *o = letters | digits << 4 | wide << 12 | replaced << 18 | code_sum << 24;
    }
}
