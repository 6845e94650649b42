//! Runs the exact casino analysis and prints its headline figures:
//! `cargo run --release -p doubleholdem-core --example casino_analysis -- [ultimate]`.

use doubleholdem_core::casino::analysis::analyse;
use doubleholdem_core::casino::Rules;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Instant;

fn main() {
    let ultimate = std::env::args().any(|a| a == "ultimate");
    let rules = if ultimate {
        Rules::ultimate()
    } else {
        Rules::heads_up()
    };
    let start = Instant::now();
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let (analysis, _) = analyse(&rules, &done, &cancel).expect("valid rules");
    println!("seconds        {:.1}", start.elapsed().as_secs_f64());
    println!("deals          {}", analysis.deals);
    println!("house edge     {:.6}", analysis.house_edge());
    println!("element risk   {:.6}", analysis.element_of_risk());
    println!("average wager  {:.6}", analysis.average_wager);
    println!("std dev        {:.6}", analysis.std_dev);
    for m in 0..=4 {
        println!("play {m}x       {:.6}", analysis.frequency(m));
    }
}
