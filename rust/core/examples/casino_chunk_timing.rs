//! Times the analysis of the first flop classes on one thread (a steady measure of the
//! board sweep): `cargo run --release -p doubleholdem-core --example casino_chunk_timing`.

use doubleholdem_core::casino::analysis::analyse_chunk;
use doubleholdem_core::casino::Rules;
use doubleholdem_core::parallel::with_threads;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Instant;

fn main() {
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let rules = Rules::heads_up();
    for _ in 0..3 {
        let start = Instant::now();
        with_threads(Some(1), || analyse_chunk(&rules, 0..40, &done, &cancel)).expect("runs");
        println!(
            "40 flop classes on one thread: {:.3} s",
            start.elapsed().as_secs_f64()
        );
    }
}
