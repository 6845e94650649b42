//! Thread pools: work runs on rayon's global pool unless a caller asks for a given
//! number of threads, in which case a pool of that size is built once and reused.
//!
//! After a `fork`, the child has none of the parent's pool threads: work handed to them
//! would wait forever. [`after_fork_in_child`] starts a new generation of pools, so the
//! child builds its own (the Python package calls it from `os.register_at_fork`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How many times this process is a forked child; pools belong to one generation.
static GENERATION: AtomicUsize = AtomicUsize::new(0);

/// Runs `work` on `threads` threads (`None`: all cores, rayon's global pool).
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    let generation = GENERATION.load(Ordering::Acquire);
    match threads {
        None if generation == 0 => work(),
        None => pool(generation, rayon::current_num_threads()).install(work),
        Some(n) => pool(generation, n.max(1)).install(work),
    }
}

/// To be called in the child right after a `fork`: the pools inherited from the parent
/// have no threads here, so later work goes to pools built anew.
pub fn after_fork_in_child() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
}

type Pools = HashMap<(usize, usize), Arc<rayon::ThreadPool>>;

fn pool(generation: usize, threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    pools
        .entry((generation, threads))
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a thread pool can be built"),
            )
        })
        .clone()
}
