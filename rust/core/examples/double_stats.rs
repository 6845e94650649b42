//! Runs the exact Double Hold'em statistics and prints the totals:
//! `cargo run --release -p doubleholdem-core --example double_stats`.

use doubleholdem_core::double_stats::double_stats;
use doubleholdem_core::hand::CATEGORY_NAMES;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Instant;

fn main() {
    let start = Instant::now();
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let stats = double_stats(&done, &cancel).expect("runs");
    println!("seconds {:.1}", start.elapsed().as_secs_f64());
    println!("deals {}", stats.total.deals);
    for (i, name) in CATEGORY_NAMES.iter().enumerate() {
        println!(
            "{name:16} {:>14} {:>14}",
            stats.total.auto[i], stats.total.best[i]
        );
    }
    println!("auto is best {}", stats.total.auto_best);
}
